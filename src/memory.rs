//! Large tables whose pages are all mapped when they are made, and the process's memory for
//! progress lines ([`in_use`]).
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
