//! Command-line parsing and dispatch: every command runs generic code through `with_game!`.

//!
//! Layout, by job: `args.rs` (argument types and helpers shared by the commands), `batch/`
//! (solve, score, compare, merge, the parallel study: positions in, result rows out),
//! `report/` (tables and plots from result rows), one folder per game with commands of its own
//! (`ataxx/` with the table command, `geography/`, `gauss/`, `gipf/`, `szochy/`), and the tools
//! `bench.rs`, `perft.rs`, `dataset.rs`, `fuzz.rs`.

mod args;
mod ataxx;
mod batch;
mod bench;
mod dataset;
mod fuzz;
mod gauss;
mod geography;
mod gipf;
mod perft;
mod report;
mod szochy;
mod table;

use batch::{compare, merge, parallel, solve};

use std::process::ExitCode;

use bitsolve::GameKind;
use clap::{Parser, Subcommand};

/// Solves and plays two-player perfect-information board games.
#[derive(Parser, Debug)]
#[command(name = "bitsolve", version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("BITSOLVE_GIT"), ")"))]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Counts move paths to a fixed depth (move-generator test).
    Perft(perft::PerftArgs),
    /// Solves one position (--position) or every position of dataset files.
    Solve(solve::SolveArgs),
    /// Runs a fixed suite and prints its node-count signature.
    Bench(bench::BenchArgs),
    /// Runs several solvers and thread counts on the same positions and compares them.
    Compare(compare::CompareArgs),
    /// Joins result files (e.g. the shards of a cluster run) into one.
    Merge(merge::MergeArgs),
    /// Scaling study of the parallel solvers: nodes per thread count, search overhead, and on
    /// request wall-clock speedups at 1 and 2 threads
    ParallelStudy(parallel::ParallelStudyArgs),
    /// Turns result files into tables (md, csv, tex) and SVG plots.
    Report(report::ReportArgs),
    /// Generates random mid-game positions (seeded playouts), optionally labelled by a solver.
    Dataset(dataset::DatasetArgs),
    /// The GIPF command interpreter: reads commands on stdin, answers on stdout.
    Gipf(gipf::GipfArgs),
    /// The Ataxx player: arbiter protocol, UAI, match referee, openings.
    #[command(subcommand)]
    Ataxx(ataxx::AtaxxArgs),
    /// Szochy: the official test format or one instance, by maximum matching.
    Szochy(szochy::SzochyArgs),
    /// Undirected edge geography: contest client, server and tournaments.
    Geography(geography::GeographyArgs),
    /// Gauss: play against the engine, engine matches, pictures, random positions.
    Gauss(gauss::GaussArgs),
    /// The stable fuzz driver (see `scripts/fuzz.sh`).
    #[command(hide = true)]
    Fuzz(fuzz::FuzzArgs),
    /// Strong solves of whole boards as table files (indexed retrograde), and lookups.
    #[command(subcommand)]
    Table(table::TableArgs),
    /// Describes a game: rules summary and notation.
    Info {
        /// The game.
        #[arg(long, short)]
        game: GameKind,
    },
}

/// Parses the arguments, runs the command and turns errors into a message and exit code 1.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::ParallelStudy(args) => parallel::run(&args),
        Command::Report(args) => report::run(&args),
        Command::Dataset(args) => dataset::run(&args),
        Command::Gipf(args) => gipf::run(&args),
        Command::Ataxx(args) => ataxx::run(&args),
        Command::Szochy(args) => szochy::run(&args),
        Command::Geography(args) => geography::run(&args),
        Command::Gauss(args) => gauss::run(&args),
        Command::Fuzz(args) => fuzz::run(&args),
        Command::Table(args) => table::run(&args),
        Command::Info { game } => {
            println!("{game}\n{}", game.description());
            if let Some(start) = game.start_position() {
                println!("Start position: {start}");
            }
            let options =
                bitsolve::with_game!(game, G => <G as bitsolve::Game>::CAPABILITIES.options);
            for o in options {
                println!(
                    "Game option `{}` (--game-option {}=VALUE; solve default `{}`): {}",
                    o.name, o.name, o.solve_default, o.help
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
