#![no_main]
//! cargo-fuzz target `digraph`: bitsolve's fuzz target `digraph` (see `src/fuzzing.rs`).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let target = bitsolve::fuzzing::target("digraph").expect("a library target");
    (target.run)(data);
});
