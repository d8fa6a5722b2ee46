#![no_main]
//! cargo-fuzz target `gauss`: bitsolve's fuzz target `gauss` (see `src/fuzzing.rs`).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let target = bitsolve::fuzzing::target("gauss").expect("a library target");
    (target.run)(data);
});
