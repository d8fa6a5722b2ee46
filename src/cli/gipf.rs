//! `bitsolve gipf`: the GIPF command interpreter ([`bitsolve::protocol::gipf`]) on stdin and
//! stdout, answering each command as soon as it is read. Bad input never stops it.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use bitsolve::SolverKind;
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

/// Runs the interpreter on stdin until end of input.
pub fn run(args: &GipfArgs) -> anyhow::Result<ExitCode> {
    let stdin = io::stdin();
    let lines: Vec<String> = stdin.lock().lines().map_while(Result::ok).collect();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut interp = Interpreter::new(args.tt_mib, args.solver);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        i += 1;
        if line.is_empty() {
            continue;
        }
        let text = interp.command(line, &lines, &mut i);
        out.write_all(text.as_bytes())?;
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}
