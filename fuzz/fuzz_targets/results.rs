#![no_main]
//! cargo-fuzz target `results`: bitsolve's fuzz target `results` (see `src/fuzzing.rs`).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let target = bitsolve::fuzzing::target("results").expect("a library target");
    (target.run)(data);
});
