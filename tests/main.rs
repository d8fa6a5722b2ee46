//! The integration tests, one binary: each file of this folder is a module, so the library is
//! linked once instead of once per file (27 binaries before). `cargo test --test integration
//! NAME` runs one module's tests; the full samples of the oracle checks are `#[ignore]`d tests
//! named `..._deep` (`cargo test -- --ignored deep`, which CI runs after the tests).

mod common;

mod ataxx_datagen;
mod ataxx_protocols;
mod batch;
mod cli;
mod connect4;
mod crash_safety;
mod fuzz_smoke;
mod gauss_cli;
mod gauss_score;
mod gauss_solvers;
mod geography_cli;
mod geography_solvers;
mod geography_tournament;
mod geography_transcript;
mod gipf_official;
mod gipf_retro;
mod gipf_solvers;
mod hostile_input;
mod new_game;
mod parallel;
mod perft;
mod retro_index;
mod retro_table;
mod retro_table_files;
mod retro_table_shards;
mod solvers_agree;
mod szochy_official;
mod szochy_oracle;
mod szochy_rank;
mod zobrist;
