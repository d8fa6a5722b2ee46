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

/// A table of `n` zeroed elements whose pages are asked to be huge ones
/// ([`advise_huge_pages`]) before the zeros are written, so they are mapped as huge pages.
/// (`alloc_zeroed` cannot do that for types aligned beyond 16 bytes, such as cache-line
/// buckets: the system allocator then writes the zeros itself, with 4 KiB pages, before any
/// advice can be given.) Every page is written here, once.
///
/// # Panics
/// If `n` elements do not fit the address space; aborts if the memory cannot be allocated.
pub fn zeroed_huge_slice<T: Zeroable>(n: usize) -> Box<[T]> {
    let layout = std::alloc::Layout::array::<T>(n).expect("the table fits the address space");
    if layout.size() == 0 {
        return bytemuck::allocation::zeroed_slice_box(n);
    }
    // SAFETY: the layout has a non-zero size.
    let ptr = unsafe { std::alloc::alloc(layout) }.cast::<T>();
    if ptr.is_null() {
        std::alloc::handle_alloc_error(layout);
    }
    advise_range(ptr as usize, layout.size());
    // SAFETY: `ptr` is valid for writes of `n` elements (just allocated with their layout),
    // and all-zero bytes are a valid `T` (`Zeroable`), so the slice is initialised; the box
    // frees it with the same layout (`[T]` of length `n`).
    unsafe {
        std::ptr::write_bytes(ptr, 0, n);
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n))
    }
}

/// Asks the kernel to back the 2 MiB-aligned part of `v` with transparent huge pages
/// (`madvise(MADV_HUGEPAGE)`), when `v` spans at least 8 MiB: the retrograde engine reads and
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
        const HUGE: usize = 2 << 20;
        if bytes < 4 * HUGE {
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
