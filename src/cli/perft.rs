//! `bitsolve perft`: move-path counts, optionally split by first move.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Result, anyhow};
use bitsolve::{GameKind, Notation, Perft, with_game};

/// Arguments of `bitsolve perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// The game.
    #[arg(long, short)]
    game: GameKind,
    /// Depth in plies.
    #[arg(long, short)]
    depth: u32,
    /// Start position (default: the game's start position).
    #[arg(long, visible_alias = "fen")]
    position: Option<String>,
    /// Moves to play from the position first (space- or comma-separated).
    #[arg(long, value_delimiter = ',')]
    moves: Vec<String>,
    /// Print the count below each first move before the total.
    #[arg(long)]
    split: bool,
}

/// Runs the command.
pub fn run(args: &PerftArgs) -> Result<ExitCode> {
    let text = match (&args.position, args.game.start_position()) {
        (Some(p), _) => p.clone(),
        (None, Some(start)) => start.to_string(),
        (None, None) => {
            return Err(anyhow!("{} has no start position: give --position", args.game));
        }
    };
    with_game!(args.game, G => perft::<G>(&text, args))?;
    Ok(ExitCode::SUCCESS)
}

fn perft<G: Notation + Perft>(text: &str, args: &PerftArgs) -> Result<()> {
    let pos: G = crate::cli::args::load_position(text, &args.moves)?;
    let start = Instant::now();
    let total = if args.split && args.depth > 0 {
        let mut rows: Vec<(String, u64)> =
            pos.split_perft(args.depth).into_iter().map(|(m, n)| (pos.format_move(m), n)).collect();
        rows.sort();
        for (mv, n) in &rows {
            println!("{mv} {n}");
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        pos.perft(args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "depth {} time {:.3}s {:.0} nodes/s",
        args.depth,
        secs,
        if secs > 0.0 { total as f64 / secs } else { 0.0 }
    );
    println!("{total}");
    Ok(())
}
