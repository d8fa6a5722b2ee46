//! Large tables whose pages are all mapped when they are made.
//!
//! A zeroed allocation (`vec![0; n]`, `calloc`) gets pages the kernel maps on first use. A
//! table read before it is written (a memo probed before anything is stored) first maps the
//! shared zero page, and the first write then replaces that mapping, which in a process with
//! several running threads means a TLB shootdown: an interrupt to every other processor
//! running the process, dear in a virtual machine. Counted on geography's `s3:53` with two
//! threads: about 300k page faults and 4.1 s of system time against 0.6 s with one thread, in
//! a 12-16 s solve. Tables made here are written once, page by page, when they are made.

/// Bytes of a page of memory (the smallest on the platforms the project runs on).
pub const PAGE: usize = 4096;

/// `n` copies of `value`, written (so every page is mapped before the table is used).
pub fn filled<T: Clone>(n: usize, value: T) -> Vec<T> {
    let mut table = Vec::with_capacity(n);
    table.resize(n, value);
    touch(&mut table);
    table
}

/// Writes one element of every page of `table` with its own value (opaque to the compiler, so
/// the write stays even where the memory is known to be zero).
pub fn touch<T: Clone>(table: &mut [T]) {
    let step = (PAGE / std::mem::size_of::<T>().max(1)).max(1);
    for i in (0..table.len()).step_by(step) {
        table[i] = std::hint::black_box(table[i].clone());
    }
}
