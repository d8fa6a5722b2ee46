#![no_main]
//! cargo-fuzz target `dataset`: bitsolve's fuzz target `dataset` (see `src/fuzzing.rs`).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let target = bitsolve::fuzzing::target("dataset").expect("a library target");
    (target.run)(data);
});
