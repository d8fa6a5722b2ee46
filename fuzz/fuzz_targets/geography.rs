#![no_main]
//! cargo-fuzz target `geography`: bitsolve's fuzz target `geography` (see `src/fuzzing.rs`).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let target = bitsolve::fuzzing::target("geography").expect("a library target");
    (target.run)(data);
});
