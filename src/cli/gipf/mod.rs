//! `bitsolve gipf`: the GIPF command interpreter ([`bitsolve::protocol::gipf`]) on stdin and
//! stdout, answering each command as soon as it is read. Bad input never stops it.

use std::io;
use std::process::ExitCode;

use bitsolve::SolverKind;
use bitsolve::lineio::LineReader;
use bitsolve::protocol::gipf::Interpreter;

/// Arguments of `bitsolve gipf`.
#[derive(clap::Args, Debug)]
pub struct GipfArgs {
    /// Transposition table size in MiB for the solving commands.
    #[arg(long, default_value_t = 16)]
    tt_mib: usize,
    /// The solver behind `SOLVE_GAME_STATE` and `WINNING_SEQUENCE_EXIST` (`auto`: df-pn,
    /// with retrograde rounds that prove draws).
    #[arg(long, value_enum, default_value = "auto")]
    solver: SolverKind,
}

/// Runs the interpreter on stdin until end of input, answering each command as soon as its
/// lines are read.
pub fn run(args: &GipfArgs) -> anyhow::Result<ExitCode> {
    let stdin = io::stdin();
    let mut lines = LineReader::new(stdin.lock());
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut interp = Interpreter::new(args.tt_mib, args.solver);
    interp.serve(&mut lines, &mut out)?;
    Ok(ExitCode::SUCCESS)
}
