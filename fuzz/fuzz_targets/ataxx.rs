#![no_main]
//! cargo-fuzz target `ataxx`: bitsolve's fuzz target `ataxx` (see `src/fuzzing.rs`).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let target = bitsolve::fuzzing::target("ataxx").expect("a library target");
    (target.run)(data);
});
