#![no_main]
//! cargo-fuzz target `szochy_json`: bitsolve's fuzz target `szochy-json` (see `src/fuzzing.rs`).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let target = bitsolve::fuzzing::target("szochy-json").expect("a library target");
    (target.run)(data);
});
