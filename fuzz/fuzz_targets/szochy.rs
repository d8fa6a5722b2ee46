#![no_main]
//! cargo-fuzz target `szochy`: bitsolve's fuzz target `szochy` (see `src/fuzzing.rs`).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let target = bitsolve::fuzzing::target("szochy").expect("a library target");
    (target.run)(data);
});
