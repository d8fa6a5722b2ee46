#![no_main]
//! cargo-fuzz target `gipf_interpreter`: bitsolve's fuzz target `gipf-interpreter` (see `src/fuzzing.rs`).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let target = bitsolve::fuzzing::target("gipf-interpreter").expect("a library target");
    (target.run)(data);
});
