#![no_main]
//! cargo-fuzz target `ataxx_polish`: bitsolve's fuzz target `ataxx-polish` (see `src/fuzzing.rs`).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let target = bitsolve::fuzzing::target("ataxx-polish").expect("a library target");
    (target.run)(data);
});
