//! The `bitsolve` command line: solve, perft, bench, info.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
