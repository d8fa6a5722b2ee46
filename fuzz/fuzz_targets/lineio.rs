#![no_main]
//! cargo-fuzz target `lineio`: bitsolve's fuzz target `lineio` (see `src/fuzzing.rs`).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let target = bitsolve::fuzzing::target("lineio").expect("a library target");
    (target.run)(data);
});
