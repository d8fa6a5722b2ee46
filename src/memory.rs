//! Large tables whose pages are all mapped when they are made, huge pages for large tables
//! ([`advise_huge_pages`]), and the process's memory for progress lines ([`in_use`]).
//!
//! A zeroed allocation (`vec![0; n]`, `calloc`) gets pages the kernel maps on first use. A
//! table read before it is written (a memo probed before anything is stored) first maps the
//! shared zero page, and the first write then replaces that mapping, which in a process with
//! several running threads means a TLB shootdown: an interrupt to every other processor
//! running the process, dear in a virtual machine. Counted on geography's `s3:53` with two
//! threads: about 300k page faults and 4.1 s of system time against 0.6 s with one thread, in
//! a 12-16 s solve. Tables made here are written once, page by page, when they are made.

use bytemuck::Zeroable;

/// Bytes of a page of memory (the smallest on the platforms the project runs on).
const PAGE: usize = 4096;

/// A table of `n` zeroed elements with one element of every page written (a zero opaque to
/// the compiler, so the write stays although the memory is known to be zero), so every page
/// is mapped before the table is used.
pub fn zeroed_mapped<T: Zeroable>(n: usize) -> Box<[T]> {
    let mut table = bytemuck::allocation::zeroed_slice_box::<T>(n);
    let step = (PAGE / std::mem::size_of::<T>().max(1)).max(1);
    for slot in table.iter_mut().step_by(step) {
        *slot = std::hint::black_box(T::zeroed());
    }
    table
}

/// The process's memory for a progress line: peak and current resident memory, the current
/// split into heap (anonymous) and mapped files (Linux; empty elsewhere).
pub fn in_use() -> String {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return String::new();
    };
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0.0, |kib| kib as f64 / (1 << 20) as f64)
    };
    format!(
        ", memory peak {:.2} GiB, now {:.2} GiB (heap {:.2}, files {:.2})",
        field("VmHWM:"),
        field("VmRSS:"),
        field("RssAnon:"),
        field("RssFile:")
    )
}

/// Bytes of a transparent huge page (x86-64 and most Linux configurations).
const HUGE: usize = 2 << 20;

/// A table of `n` zeroed elements whose pages are asked to be huge ones
/// ([`advise_huge_pages`]) before the zeros are written, so they are mapped as huge pages.
/// A table of 2 MiB or more starts on a 2 MiB boundary, so that all of it can be huge pages:
/// a 4 MiB table is then two TLB entries instead of 1,024. (`alloc_zeroed` cannot do that
/// for types aligned beyond 16 bytes, such as cache-line buckets: the system allocator then
/// writes the zeros itself, with 4 KiB pages, before any advice can be given.) Every page is
/// written here, once.
///
/// Measured on Connect Four's easiest positions (seed-2031 `L3_R1`, one thread, a 4 MiB
/// table, 4 MiB of other memory written between solves, as a batch does between its rows):
/// about 3.0 us a solve with 4 KiB pages, 1.4-1.5 us with this alignment and advice; a probe
/// at a random key missed the TLB and then the caches for the page walk.
///
/// # Panics
/// If `n` elements do not fit the address space; aborts if the memory cannot be allocated.
pub fn zeroed_huge_slice<T: Zeroable>(n: usize) -> HugeSlice<T> {
    let array = std::alloc::Layout::array::<T>(n).expect("the table fits the address space");
    let align = if array.size() >= HUGE { HUGE } else { array.align() };
    let layout = array.align_to(align).expect("a power of two alignment");
    if layout.size() == 0 {
        return HugeSlice { ptr: std::ptr::NonNull::dangling(), len: n, layout };
    }
    // SAFETY: the layout has a non-zero size.
    let raw = unsafe { std::alloc::alloc(layout) }.cast::<T>();
    let Some(ptr) = std::ptr::NonNull::new(raw) else { std::alloc::handle_alloc_error(layout) };
    advise_range(raw as usize, layout.size());
    // SAFETY: `raw` is valid for writes of `n` elements (just allocated for them).
    unsafe { std::ptr::write_bytes(raw, 0, n) };
    HugeSlice { ptr, len: n, layout }
}

/// The owner of a [`zeroed_huge_slice`]: a boxed slice whose allocation may be aligned to a
/// huge page (a `Box<[T]>` would free it with the alignment of `T`, not the one it was
/// allocated with).
pub struct HugeSlice<T> {
    ptr: std::ptr::NonNull<T>,
    len: usize,
    layout: std::alloc::Layout,
}

// SAFETY: a `HugeSlice<T>` owns its elements as a `Box<[T]>` does.
unsafe impl<T: Send> Send for HugeSlice<T> {}
// SAFETY: shared access only gives `&[T]`, as for a `Box<[T]>`.
unsafe impl<T: Sync> Sync for HugeSlice<T> {}

impl<T> std::ops::Deref for HugeSlice<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points at `len` initialised elements (zeroed when made) owned by self,
        // or is dangling with a zero-size layout, which is valid for an empty or ZST slice.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> std::ops::DerefMut for HugeSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for HugeSlice<T> {
    fn drop(&mut self) {
        // SAFETY: the elements are initialised and owned here; the memory was allocated with
        // `self.layout` (when its size is not zero) and is freed once.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ));
            if self.layout.size() != 0 {
                std::alloc::dealloc(self.ptr.as_ptr().cast(), self.layout);
            }
        }
    }
}

impl<T> std::fmt::Debug for HugeSlice<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HugeSlice")
            .field("len", &self.len)
            .field("layout", &self.layout)
            .finish_non_exhaustive()
    }
}

/// Asks the kernel to back the 2 MiB-aligned part of `v` with transparent huge pages
/// (`madvise(MADV_HUGEPAGE)`), when `v` spans at least 2 MiB: the retrograde engine reads and
/// writes layers of up to gigabytes at random ranks, and a search probes its transposition
/// table at random keys; with 4 KiB pages most of those accesses miss the TLB. A hint only:
/// where the kernel refuses (or off Linux) nothing changes.
pub fn advise_huge_pages<T>(v: &[T]) {
    advise_range(v.as_ptr() as usize, std::mem::size_of_val(v));
}

/// [`advise_huge_pages`] for the `bytes` bytes of one allocation at address `start`.
fn advise_range(start: usize, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        if bytes < HUGE {
            return;
        }
        let (from, to) = (start.next_multiple_of(HUGE), (start + bytes) / HUGE * HUGE);
        if to > from {
            // SAFETY: `from..to` lies inside the allocation; MADV_HUGEPAGE only changes how the
            // kernel backs those pages, never their contents, and its result is a hint.
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_slices_are_zeroed_writable_and_aligned_to_a_huge_page_from_2_mib() {
        for n in [0usize, 1, 1000, (2 << 20) / 8, (5 << 20) / 8 + 3] {
            let mut v = zeroed_huge_slice::<u64>(n);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == 0));
            if n * 8 >= HUGE {
                assert_eq!(v.as_ptr() as usize % HUGE, 0, "{n} elements");
            }
            for (i, x) in v.iter_mut().enumerate() {
                *x = i as u64;
            }
            assert_eq!(v.iter().sum::<u64>(), (n as u64) * (n as u64).saturating_sub(1) / 2);
        }
    }

    #[test]
    fn huge_slices_drop_their_elements() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static DROPS: AtomicUsize = AtomicUsize::new(0);
        #[repr(transparent)]
        struct Counted(u32);
        // SAFETY: a `u32` of zero is a valid `Counted`.
        unsafe impl Zeroable for Counted {}
        impl Drop for Counted {
            fn drop(&mut self) {
                DROPS.fetch_add(1, Ordering::Relaxed);
            }
        }
        drop(zeroed_huge_slice::<Counted>(17));
        assert_eq!(DROPS.load(Ordering::Relaxed), 17);
    }
}
