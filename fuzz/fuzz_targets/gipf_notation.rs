#![no_main]
//! cargo-fuzz target `gipf_notation`: bitsolve's fuzz target `gipf-notation` (see `src/fuzzing.rs`).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let target = bitsolve::fuzzing::target("gipf-notation").expect("a library target");
    (target.run)(data);
});
