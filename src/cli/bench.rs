//! `bitsolve bench`: a fixed suite whose total node count is a signature of the code's
//! behaviour (the same number on every machine), plus its speed on this one.
//!
//! The expected signature is pinned in `benches/SIGNATURE`; `bitsolve bench --check
//! benches/SIGNATURE` (run by `.ci/run`) fails when the suite's total differs from it, so a
//! change of search behaviour is seen and the file is updated on purpose, with its reason.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bitsolve::search::score::make_score_solver;
use bitsolve::{
    GameKind, Limits, Notation, Perft, Scored, SolverKind, SolverOptions, make_solver, with_game,
    with_scored_game,
};

/// Arguments of `bitsolve bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// A file holding the expected signature (`benches/SIGNATURE`): exit with an error when the
    /// suite's signature differs from it.
    #[arg(long, value_name = "FILE")]
    check: Option<PathBuf>,
}

/// One item of the suite.
enum Task {
    Perft(u32, u64),
    Solve(SolverKind, &'static str),
    /// The exact final score by the alpha-beta score solver on one thread (games with a final
    /// score: Gauss, Connect Four).
    Score(i32),
    /// A fixed-depth search of the playing engine with the embedded net, one thread (Ataxx,
    /// standard rules): pins the engine's pruning, extensions and ordering.
    Engine(u32),
}

/// The suite: (game, position, task). Perft items assert their published counts; solve items
/// assert their known results, so a broken build cannot print a good-looking signature.
const SUITE: &[(GameKind, &str, Task)] = &[
    (GameKind::Ataxx, "x5o/7/7/7/7/7/o5x x 0 1", Task::Perft(5, 4_752_668)),
    (GameKind::Ataxx, "7/7/7/2x1o2/7/7/7 x 0 1", Task::Perft(4, 168_317)),
    (GameKind::Ataxx, "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", Task::Perft(4, 86_528)),
    (GameKind::Ataxx, "x1o/3/o1x x 0 1", Task::Solve(SolverKind::Alphabeta, "win")),
    (GameKind::Ataxx, "x1o/3/o1x x 0 1", Task::Solve(SolverKind::Pns, "win")),
    (GameKind::Ataxx, "x1o/3/o1x x 0 1", Task::Solve(SolverKind::Dfpn, "win")),
    (GameKind::AtaxxPolish, "x2o/o2x x 0 1", Task::Solve(SolverKind::Dfpn, "loss")),
    (GameKind::Digraph, DIGRAPH, Task::Solve(SolverKind::Alphabeta, "draw")),
    (GameKind::Digraph, DIGRAPH, Task::Solve(SolverKind::Dfpn, "draw")),
    (GameKind::Gipf, GIPF_S2, Task::Solve(SolverKind::Alphabeta, "loss")),
    (GameKind::Gipf, GIPF_S2, Task::Solve(SolverKind::Dfpn, "loss")),
    (GameKind::Gipf, GIPF_S3, Task::Solve(SolverKind::Alphabeta, "win")),
    (GameKind::Gipf, GIPF_S3, Task::Solve(SolverKind::Pns, "win")),
    (GameKind::Gipf, GIPF_S3, Task::Solve(SolverKind::Dfpn, "win")),
    (GameKind::Digraph, DIGRAPH, Task::Solve(SolverKind::Retro, "draw")),
    (GameKind::Gipf, GIPF_S2_DRAW, Task::Solve(SolverKind::Retro, "draw")),
    (GameKind::Gipf, GIPF_K3_DRAW, Task::Solve(SolverKind::Auto, "draw")),
    (GameKind::Szochy, SZOCHY_5X5, Task::Solve(SolverKind::Matching, "win")),
    (GameKind::Szochy, SZOCHY_3X3, Task::Solve(SolverKind::Dfpn, "win")),
    (GameKind::Geography, GEOGRAPHY_K6, Task::Solve(SolverKind::Alphabeta, "win")),
    (GameKind::Geography, GEOGRAPHY_K6, Task::Solve(SolverKind::Dfpn, "win")),
    (GameKind::Gauss, GAUSS_START, Task::Perft(3, 47_184)),
    (GameKind::Gauss, GAUSS_6_LEFT, Task::Solve(SolverKind::Alphabeta, "win")),
    (GameKind::Gauss, GAUSS_9_LEFT, Task::Score(3)),
    (GameKind::Ataxx, ATAXX_ENGINE, Task::Engine(12)),
    (GameKind::Connect4, "-", Task::Perft(8, 5_673_234)),
    (GameKind::Connect4, CONNECT4_13, Task::Solve(SolverKind::Alphabeta, "win")),
    (GameKind::Connect4, CONNECT4_MIDDLE, Task::Solve(SolverKind::Dfpn, "win")),
    (GameKind::Connect4, CONNECT4_MIDDLE, Task::Score(2)),
];

/// Connect Four, `datasets/connect4/L2_R1.tsv` (a win in 13 plies).
const CONNECT4_13: &str = "6747764666633337222322312";
/// Connect Four, `datasets/connect4/L2_R2.tsv` L2_R2-019: Pons' score 2.
const CONNECT4_MIDDLE: &str = "566755555642113";

/// Ataxx after `g2 a1a3 f2` (standard rules): a quiet opening for the engine item.
const ATAXX_ENGINE: &str = "x5o/7/7/7/o6/5xx/6x o 0 2";

/// Szochy 5x5 with a hole, king, knight and rook (12,144 positions): a first-player win.
const SZOCHY_5X5: &str = "5 5|3,2|k1,1 n3,3 r5,5";
/// Szochy official test 15: a first-player win.
const SZOCHY_3X3: &str = "3 3|2,1 2,2 2,3|k3,3 n3,1";
/// Undirected edge geography on the complete graph K6 (odd cycles: no bipartite shortcut).
const GEOGRAPHY_K6: &str = "6 0 15 0 1 0 2 0 3 0 4 0 5 1 2 1 3 1 4 1 5 2 3 2 4 2 5 3 4 3 5 4 5";
/// Gauss: the empty start position.
const GAUSS_START: &str = "..../...../....../......./....../...../.... r 10/5 5/10 0/0 0/0";
/// Gauss with 6 placements left (`datasets/gauss/endgames.tsv` r06-0): a win.
const GAUSS_6_LEFT: &str = "..b./.r.r./bb..bb/r.r..../.b..../...../..b. r 3/0 0/3 7/4 1/1";

/// Gauss with 9 placements left (`datasets/gauss/endgames.tsv` r09-0): the mover scores 3.
const GAUSS_9_LEFT: &str = "...r/.br../r.r.br/...rb.b/br..r./..b../rrr. b 4/0 0/5 0/4 0/0";

/// GIPF S=2, K=2, 8+8 pieces, the initial position: a draw (23,132 reachable positions).
const GIPF_S2_DRAW: &str = "2 2 8 8/5 5 W/WB/B_W/WB";
/// GIPF S=2, K=3, 7+7 pieces in mid-game: a draw (1,083 reachable positions) that df-pn alone
/// does not prove within a minute; `auto` proves it in its first retrograde round.
const GIPF_K3_DRAW: &str = "2 3 7 7/3 3 W/_B/WWB/W_";
/// GIPF S=2, K=3, empty board, 2+2 pieces in reserve (the README example): a loss.
const GIPF_S2: &str = "2 3 4 4/2 2 W/__/___/__";
/// GIPF S=3, K=4 after 2 random plies (`datasets/gipf/random-small.tsv` d2-1): a win in 3.
const GIPF_S3: &str = "3 4 6 5/2 1 W/W_B/____/B___W/__B_/BWW";

/// A small graph with cycles, draws and wins.
const DIGRAPH: &str = "0|1 2 3;2 4;0 5;6 1;3;7 4;5 2;;";

/// Runs the suite, then compares its signature with the pinned one if asked.
pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    // Read the pinned value first, so a bad file fails before the suite runs.
    let pinned = match &args.check {
        Some(path) => {
            let bytes = std::fs::read(path)
                .with_context(|| format!("reading the signature file {}", path.display()))?;
            let value = parse_signature(&bytes).with_context(|| format!("{}", path.display()))?;
            Some((path, value))
        }
        None => None,
    };
    let mut total_nodes = 0u64;
    let start = Instant::now();
    for (game, position, task) in SUITE {
        let nodes = match task {
            Task::Score(expected) => run_score(*game, position, *expected)?,
            Task::Engine(depth) => run_engine(position, *depth)?,
            _ => with_game!(*game, G => run_task::<G>(*game, position, task))?,
        };
        total_nodes += nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    println!("bench time {secs:.3}s {:.0} nodes/s", total_nodes as f64 / secs.max(1e-9));
    println!("signature {total_nodes}");
    if let Some((path, expected)) = pinned {
        if total_nodes != expected {
            bail!(
                "signature {total_nodes} differs from {expected} pinned in {}: the search \
                 behaviour changed (update the file only for an intended change, saying why)",
                path.display()
            );
        }
        println!("signature matches {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The signature in the text of a signature file: one line holding a decimal number; blank
/// lines and lines starting with `#` are comments.
fn parse_signature(bytes: &[u8]) -> Result<u64> {
    let mut found: Option<(usize, u64)> = None;
    for line in bitsolve::lineio::lines_of(bytes) {
        if let Some(err) = line.describe_error() {
            bail!("{err}");
        }
        let text = line.text().unwrap_or_default();
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let column = text.len() - text.trim_start().len() + 1;
        let value: u64 = trimmed.parse().map_err(|_| {
            anyhow::anyhow!(
                "line {}, column {column}: `{trimmed}` is not a signature (a decimal number)",
                line.number
            )
        })?;
        if let Some((first, _)) = found {
            bail!(
                "line {}, column {column}: a second signature (the first is on line {first})",
                line.number
            );
        }
        found = Some((line.number, value));
    }
    found.map(|(_, v)| v).context("no signature in the file (one line with a decimal number)")
}

/// Solves the exact score of `position` on one thread (so the node count is the same on every
/// machine) and checks it; for games with a final score only.
fn run_score(game: GameKind, position: &str, expected: i32) -> Result<u64> {
    with_scored_game!(game, G => score_task::<G>(game, position, expected), {
        bail!("bench score items need a game with a final score; {game} has none")
    })
}

fn score_task<G: Notation + Scored>(game: GameKind, position: &str, expected: i32) -> Result<u64> {
    let pos = G::parse_position(position).with_context(|| format!("bench position {position}"))?;
    let start = Instant::now();
    let options = SolverOptions { threads: 1, tt_mib: 16, ..SolverOptions::default() };
    let report =
        make_score_solver::<G>(SolverKind::Alphabeta, &options).solve_score(&pos, &Limits::none());
    if report.score != Some(expected) {
        bail!("{game} score of {position} = {:?}, expected {expected}", report.score);
    }
    let nodes = report.stats.nodes;
    print_item(game, position, &format!("score alphabeta {expected}"), nodes, start);
    Ok(nodes)
}

/// Searches the Ataxx `position` to `depth` with the engine and the embedded net on one
/// thread; checks that it found a move.
fn run_engine(position: &str, depth: u32) -> Result<u64> {
    use bitsolve::AtaxxStandard;
    use bitsolve::games::ataxx::nnue::{NetAtaxx, Network};
    use bitsolve::search::engine::{Engine, EngineOptions, SearchLimits};
    let pos = AtaxxStandard::parse_position(position)
        .with_context(|| format!("bench position {position}"))?;
    let start = Instant::now();
    let mut engine = Engine::new(&EngineOptions { threads: 1, hash_mib: 16, eval_cache: false });
    let root = NetAtaxx::new(pos, Some(Network::embedded()));
    let limits = SearchLimits { depth: Some(depth), ..SearchLimits::default() };
    let found = engine.search(&root, &[], &limits, &mut |_| {});
    if found.best_move.is_none() || found.info.depth != depth {
        bail!("ataxx engine search of {position} to depth {depth} found no move");
    }
    let nodes = found.info.nodes;
    print_item(GameKind::Ataxx, position, &format!("engine depth {depth}"), nodes, start);
    Ok(nodes)
}

/// Prints one item's line: game, position, what was run, nodes and time.
fn print_item(game: GameKind, position: &str, label: &str, nodes: u64, start: Instant) {
    println!(
        "{game:<13} {position:<34} {label:<22} {nodes:>10} nodes {:>8.3}s",
        start.elapsed().as_secs_f64()
    );
}

fn run_task<G: Notation + Perft>(game: GameKind, position: &str, task: &Task) -> Result<u64> {
    let pos = G::parse_position(position).with_context(|| format!("bench position {position}"))?;
    let start = Instant::now();
    let (label, nodes) = match task {
        Task::Perft(depth, expected) => {
            let n = pos.perft(*depth);
            if n != *expected {
                bail!("{game} perft({depth}) of {position} = {n}, expected {expected}");
            }
            (format!("perft {depth}"), n)
        }
        Task::Solve(kind, expected) => {
            // Each game's own defaults, as `bitsolve solve` uses them.
            let options = SolverOptions::for_game::<G>();
            let report = make_solver::<G>(*kind, &options).solve(&pos, &Limits::none());
            let got = report.outcome.map_or("unknown", bitsolve::Outcome::as_str);
            if got != *expected {
                bail!("{game} {} on {position} = {got}, expected {expected}", kind.name());
            }
            (format!("solve {} {got}", kind.name()), report.stats.nodes)
        }
        Task::Score(_) | Task::Engine(_) => {
            bail!("score and engine items have their own runners, not {game} tasks")
        }
    };
    print_item(game, position, &label, nodes, start);
    Ok(nodes)
}

#[cfg(test)]
mod tests {
    use super::parse_signature;

    #[test]
    fn signature_file_is_one_number_with_comments() {
        assert_eq!(parse_signature(b"# pinned\n\n  5137297 \r\n# end").unwrap(), 5_137_297);
        assert_eq!(parse_signature(b"42").unwrap(), 42);
    }

    #[test]
    fn bad_signature_files_name_line_and_column() {
        let err = |text: &[u8]| format!("{:#}", parse_signature(text).unwrap_err());
        assert!(err(b"# only a comment\n").contains("no signature"));
        assert!(err(b"1\n  x2\n").contains("line 2, column 3"), "{}", err(b"1\n  x2\n"));
        assert!(err(b"1\n2\n").contains("line 2, column 1: a second signature"));
        assert!(err(b"1\n\xff\n").contains("line 2, column 1"));
        assert!(err(b"-5").contains("not a signature"));
    }
}
