//! `bitsolve ataxx ...`: the Ataxx player front ends (the assignment's arbiter protocol and UAI),
//! the match referee, and the opening generator.

mod arbiter;
mod datafile;
mod datagen;
mod openings;
mod players;
mod referee;

mod uai;
mod watchdog;

use std::process::ExitCode;

use bitsolve::games::ataxx::timeman::{self, DEFAULT_TIME_USE};
use bitsolve::search::engine::EngineOptions;

/// The Ataxx player commands.
#[derive(clap::Subcommand, Debug)]
pub enum AtaxxArgs {
    /// Plays one game under the assignment's arbiter protocol (Polish rules) on stdin/stdout.
    Arbiter(arbiter::ArbiterArgs),
    /// Speaks UAI (Universal Ataxx Interface) on stdin/stdout.
    Uai(uai::UaiArgs),
    /// Referee: plays two engines against each other and reports the score and Elo.
    Match(referee::MatchArgs),
    /// Writes an openings file: distinct positions reached by random plies from the start.
    Openings(openings::OpeningsArgs),
    /// Generates NNUE training data by self-play (resumable; format in `datagen.rs`).
    Datagen(datagen::DatagenArgs),
    /// Checks and summarises data files of `datagen` (checksums, games, positions, distinct
    /// positions); exit 1 if one is damaged.
    Data(datafile::DataArgs),
}

/// Runs an Ataxx command.
pub fn run(args: &AtaxxArgs) -> anyhow::Result<ExitCode> {
    match args {
        AtaxxArgs::Arbiter(a) => arbiter::run(a),
        AtaxxArgs::Uai(a) => uai::run(a),
        AtaxxArgs::Match(a) => referee::run(a),
        AtaxxArgs::Openings(a) => openings::run(a),
        AtaxxArgs::Datagen(a) => datagen::run(a),
        AtaxxArgs::Data(a) => Ok(datafile::run(a)),
    }
}

/// The fuzz target of the UAI loop (see `uai::fuzz`).
///
/// # Errors
/// The property that failed.
pub fn fuzz_uai(input: &[u8]) -> Result<(), String> {
    uai::fuzz(input)
}

/// The fuzz target of the arbiter loop (see `arbiter::fuzz`).
///
/// # Errors
/// The property that failed.
pub fn fuzz_arbiter(input: &[u8]) -> Result<(), String> {
    arbiter::fuzz(input)
}

/// Engine settings shared by the arbiter and UAI front ends.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    hash: u32,
    /// Never search deeper than this many plies (a weaker reference player).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    depth: Option<u32>,
    /// Never search more than about this many nodes per move (a weaker reference player).
    #[arg(long)]
    nodes: Option<u64>,
    /// Time per move under a clock, in percent of the default budget (100); larger values
    /// think longer early in the game and keep less for its end (`TimeUse` in UAI).
    #[arg(long, default_value_t = DEFAULT_TIME_USE, value_parser = clap::value_parser!(u32).range(10..=1000))]
    time_use: u32,
    /// Under a clock, stretch or shorten each move's soft limit by the share of the search's
    /// nodes its best move took (long when the search hesitates, short when one move is clear;
    /// `TimeByNodes` in UAI; `--time-by-nodes false` turns it off).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    time_by_nodes: bool,
    /// Under a clock, assume at most this many of our moves are left (0: no cap; the estimate
    /// is the empty squares plus 8): a cap spends more of the clock early (`TimeHorizon` in UAI).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    time_horizon: u32,
    /// Under a clock, percent of the time left always kept back (`TimeReserve` in UAI).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=90))]
    time_reserve: u32,
    /// Keep a cache of the net's evaluations (the same search node for node, faster in short
    /// searches; `EvalCache` in UAI; `--eval-cache false` turns it off;
    /// `src/search/engine/evalcache.rs`).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    eval_cache: bool,
}

impl EngineArgs {
    /// The smallest engine (one thread, 1 MiB table, default clock use), for the fuzz entries.
    fn minimal() -> Self {
        EngineArgs {
            threads: 1,
            hash: 1,
            depth: None,
            nodes: None,
            time_use: DEFAULT_TIME_USE,
            time_by_nodes: false,
            time_horizon: 0,
            time_reserve: 20,
            eval_cache: false,
        }
    }

    /// How these flags spread the clock over a game.
    fn time_plan(&self) -> timeman::TimePlan {
        timeman::TimePlan {
            time_use: self.time_use,
            horizon: self.time_horizon,
            reserve_percent: self.time_reserve,
        }
    }

    /// The engine options these flags ask for.
    fn options(&self) -> EngineOptions {
        EngineOptions {
            threads: usize::from(self.threads),
            hash_mib: self.hash as usize,
            eval_cache: self.eval_cache,
        }
    }
}
