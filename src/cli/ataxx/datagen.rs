//! `bitsolve ataxx datagen`: training data for the Ataxx NNUE by self-play of the engine.
//!
//! Each game starts from the standard position with a random number of random plies (uniform
//! in `--min-plies..=--max-plies`, each ply uniform among the legal moves; with
//! `--max-opening-score N` the opening is drawn again, up to [`OPENING_TRIES`] times, while it
//! ends the game or the engine's search of it scores beyond `±N`), then the engine
//! plays both sides with a fixed node or depth budget per move (one engine per thread, cleared
//! between games, so a game depends only on the seed and its index). Every position searched
//! is written with the search score and, once the game is over, its result. A game ends by the
//! standard rules (board full, one colour left, no moves, 100 plies without a clone), by a
//! proven score (the side it favours wins) or after [`MAX_GAME_PLIES`] plies (a draw).
//!
//! With `--blocked-share F`, a share `F` of the games (drawn from the game's seed) starts from
//! a board with blocked squares: 1 to 4 squares of the lower left quadrant (never a corner),
//! each mirrored in both axes, the symmetric patterns of the community's tournament openings.
//!
//! The file format (version 3, with a CRC per game) is in [`super::datafile`].
//!
//! # Resume
//!
//! Run again with the same arguments (a larger `--games` to extend): the header must match;
//! whatever follows the last game's trailer (an incomplete game, a partial record) is cut off,
//! the last game's CRC is checked, and the run goes on from the next game up to `--games`
//! games in total. Games are deterministic (one engine per thread, cleared between games), so
//! a resumed file holds the games an uninterrupted run would have written.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};

use anyhow::{Context, bail, ensure};
use bitsolve::games::ataxx::nnue::{NetAtaxx, Network};
use bitsolve::games::ataxx::record::{GameRecord, GameResult};
use bitsolve::search::engine::{Engine, EngineOptions, SearchLimits, mate_distance};
use bitsolve::{AtaxxStandard, Player};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::datafile::{self, HEADER_SIZE, Header, RECORD_SIZE, Record};
use super::players::{BuiltIn, Rng};

/// Openings drawn at most per game under `--max-opening-score` (the last is kept whatever its
/// score).
pub const OPENING_TRIES: u32 = 64;
/// A game still going after this many plies is stopped and counted a draw.
pub const MAX_GAME_PLIES: usize = 400;
/// Scores are clamped to this before they are stored as `i16`.
const SCORE_CLAMP: i32 = 30_000;

/// Arguments of `bitsolve ataxx datagen`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// Output file (appended to and resumed when it exists).
    #[arg(long)]
    out: String,
    /// Total number of games wanted in the file.
    #[arg(long)]
    games: u64,
    /// Nodes per move.
    #[arg(long, required_unless_present = "depth")]
    nodes: Option<u64>,
    /// Depth per move.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Least random plies at the start of a game.
    #[arg(long, default_value_t = 4)]
    min_plies: u32,
    /// Most random plies at the start of a game.
    #[arg(long, default_value_t = 8)]
    max_plies: u32,
    /// Draw the random opening again while it ends the game or the engine's search of it
    /// scores beyond this (engine units, a stone ~ 100), up to 64 tries: balanced starts from
    /// wider openings.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30_000))]
    max_opening_score: Option<u32>,
    /// Share of the games started from a board with blocked squares (0 to 1).
    #[arg(long, default_value_t = 0.0)]
    blocked_share: f64,
    /// Games played at the same time (one search thread each).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Transposition table per thread in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=4096))]
    hash: u32,
    /// Evaluate with this NNUE file instead of the hand-made evaluation (`default` for the
    /// embedded net).
    #[arg(long)]
    net: Option<String>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// One position of a game, before the result is known.
struct Sample {
    stones: [u64; 2],
    score: i16,
    side: Player,
}

/// The header this run writes (and expects on resume).
fn header(args: &DatagenArgs, net_tag: u32) -> Header {
    Header {
        seed: args.seed,
        nodes: args.nodes.unwrap_or(0),
        depth: args.depth.unwrap_or(0),
        min_plies: args.min_plies,
        max_plies: args.max_plies,
        net_tag,
        max_opening_score: args.max_opening_score.unwrap_or(0),
        blocked_permille: blocked_permille(args.blocked_share),
    }
}

/// `share` in thousandths.
fn blocked_permille(share: f64) -> u32 {
    (share * 1000.0).round() as u32
}

/// Opens (or creates) the output, checks its header, cuts whatever follows the last complete
/// game, checks that game's CRC, and returns the file positioned at the end with the index of
/// the first game to play.
fn open_output(path: &str, want: &[u8; HEADER_SIZE]) -> anyhow::Result<(File, u64)> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("cannot open {path}"))?;
    let len = file.metadata()?.len();
    if len == 0 {
        file.write_all(want)?;
        return Ok((file, 0));
    }
    let mut got = [0u8; HEADER_SIZE];
    file.read_exact(&mut got)
        .with_context(|| format!("{path}: shorter than a header ({len} bytes)"))?;
    ensure!(
        got[..16] == want[..16],
        "{path}: not a version {} data file of this build (header bytes 0..16 differ); use a new file",
        datafile::VERSION
    );
    ensure!(
        got == *want,
        "{path}: written with other arguments (header differs); use a new file or the same \
         --seed, --nodes, --depth, --min-plies, --max-plies, --max-opening-score, \
         --blocked-share and --net"
    );
    // The last trailer lies within the last game: at most MAX_GAME_PLIES records before it.
    let records = (len - HEADER_SIZE as u64) / RECORD_SIZE as u64;
    let window = records.min(2 * (MAX_GAME_PLIES as u64 + 1));
    let from = HEADER_SIZE as u64 + (records - window) * RECORD_SIZE as u64;
    let mut tail = vec![0u8; (window as usize) * RECORD_SIZE];
    file.seek(SeekFrom::Start(from))?;
    file.read_exact(&mut tail)?;
    let last = tail
        .chunks_exact(RECORD_SIZE)
        .enumerate()
        .rev()
        .find_map(|(k, chunk)| datafile::trailer(chunk).map(|t| (k, t)));
    let Some((k, (count, crc, game))) = last else {
        ensure!(
            window == records,
            "{path}: no complete game in its last {window} records: damaged (bitsolve ataxx data {path})"
        );
        file.set_len(HEADER_SIZE as u64)?;
        file.seek(SeekFrom::End(0))?;
        return Ok((file, 0));
    };
    let body_start = (k + 1).checked_sub(count as usize + 1).map(|b| b * RECORD_SIZE);
    let body = body_start.map(|b| &tail[b..k * RECORD_SIZE]);
    ensure!(
        body.is_some_and(|b| datafile::crc32(b) == crc),
        "{path}: its last complete game ({game}) is damaged: check it with `bitsolve ataxx data {path}`"
    );
    file.set_len(from + (k as u64 + 1) * RECORD_SIZE as u64)?;
    file.seek(SeekFrom::End(0))?;
    Ok((file, u64::from(game) + 1))
}

/// The seed of game `index`'s opening.
fn game_seed(seed: u64, index: u64) -> u64 {
    Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// The start of game `index`: the standard position, with blocked squares for a share
/// `--blocked-share` of the games (drawn from the game's seed, apart from its openings).
fn start_position(args: &DatagenArgs, index: u64) -> AtaxxStandard {
    let mut rng = Rng::new(game_seed(args.seed, index) ^ 0xB10C_CED5_0A7A_0000);
    let mut pos = AtaxxStandard::startpos();
    let permille = blocked_permille(args.blocked_share) as usize;
    if rng.below(1000) < permille {
        for sq in blocked_pattern(&mut rng) {
            if pos.empties().contains(sq) {
                pos.block(sq);
            }
        }
    }
    pos
}

/// A random symmetric pattern of blocked squares: 1 to 4 squares of the lower left 4x4
/// quadrant other than the corner, each with its mirror images in both axes.
fn blocked_pattern(rng: &mut Rng) -> Vec<u32> {
    let mut cells: Vec<(u32, u32)> =
        (0..4).flat_map(|r| (0..4).map(move |f| (r, f))).skip(1).collect();
    let k = 1 + rng.below(4);
    let mut squares = Vec::new();
    for _ in 0..k {
        let (r, f) = cells.swap_remove(rng.below(cells.len()));
        for (rr, ff) in [(r, f), (r, 6 - f), (6 - r, f), (6 - r, 6 - f)] {
            squares.push(8 * rr + ff);
        }
    }
    squares.sort_unstable();
    squares.dedup();
    squares
}

/// `start` after a random number of random plies (`--min-plies..=--max-plies`).
fn random_opening(args: &DatagenArgs, start: &AtaxxStandard, rng: &mut Rng) -> GameRecord<false> {
    let span = args.max_plies.saturating_sub(args.min_plies) as usize + 1;
    let plies = args.min_plies as usize + rng.below(span);
    let mut game = GameRecord::new(start.clone());
    let mut picker = BuiltIn::new(false, rng.next_u64());
    for _ in 0..plies {
        if game.adjudicate().is_some() {
            break;
        }
        let Some(mv) = picker.pick(game.position()) else { break };
        if game.play(mv).is_err() {
            break;
        }
    }
    game
}

/// Plays game `index` and returns its records.
fn play_game(
    args: &DatagenArgs,
    index: u64,
    engine: &mut Engine<NetAtaxx<false>>,
    net: Option<&'static Network>,
) -> Vec<u8> {
    let mut rng = Rng::new(game_seed(args.seed, index));
    let start = start_position(args, index);
    let blocked = datafile::BOARD & !start.valid().0;
    let limits = SearchLimits { nodes: args.nodes, depth: args.depth, ..SearchLimits::default() };
    let mut tries = 0;
    let mut game = loop {
        let game = random_opening(args, &start, &mut rng);
        tries += 1;
        let Some(max) = args.max_opening_score else { break game };
        if tries >= OPENING_TRIES {
            break game;
        }
        if game.adjudicate().is_some() {
            // Random play ended the game (a side lost every stone): draw again.
            continue;
        }
        engine.clear();
        let root = NetAtaxx::new(game.position().clone(), net);
        let found = engine.search(&root, game.history(), &limits, &mut |_| {});
        if found.info.score.unsigned_abs() <= max {
            break game;
        }
    };
    engine.clear();
    let mut samples = Vec::new();
    let result = loop {
        if let Some((result, _)) = game.adjudicate() {
            break result;
        }
        if game.moves().len() >= MAX_GAME_PLIES {
            break GameResult::Draw;
        }
        let pos = game.position().clone();
        let root = NetAtaxx::new(pos.clone(), net);
        let found = engine.search(&root, game.history(), &limits, &mut |_| {});
        let Some(mv) = found.best_move else { break GameResult::Draw };
        let score = found.info.score;
        if let Some(d) = mate_distance(score) {
            let side = pos.side_to_move();
            break GameResult::win_for(if d > 0 { side } else { !side });
        }
        samples.push(Sample {
            stones: [pos.stones(Player::First).0, pos.stones(Player::Second).0],
            score: score.clamp(-SCORE_CLAMP, SCORE_CLAMP) as i16,
            side: pos.side_to_move(),
        });
        if game.play(mv).is_err() {
            break GameResult::Draw;
        }
    };
    let wdl = |side: Player| -> i8 {
        let points = result.points(side);
        if points > 0.75 {
            1
        } else if points < 0.25 {
            -1
        } else {
            0
        }
    };
    let records: Vec<Record> = samples
        .iter()
        .map(|s| Record {
            stones: s.stones,
            blocked,
            score: s.score,
            side: u8::from(s.side == Player::Second),
            wdl: wdl(s.side),
        })
        .collect();
    datafile::game_bytes(&records, index as u32, wdl(Player::First))
}

/// Runs the data generation.
pub fn run(args: &DatagenArgs) -> anyhow::Result<ExitCode> {
    ensure!(args.min_plies <= args.max_plies, "--min-plies exceeds --max-plies");
    ensure!(u32::try_from(args.games).is_ok(), "--games must fit in 32 bits");
    ensure!(
        (0.0..=1.0).contains(&args.blocked_share),
        "--blocked-share must be between 0 and 1, not {}",
        args.blocked_share
    );
    let net: Option<&'static Network> = match args.net.as_deref() {
        None => None,
        Some("default") => Some(Network::embedded()),
        Some(path) => Some(Box::leak(Box::new(
            Network::load_file(path).map_err(|e| anyhow::anyhow!("{path}: {e}"))?,
        ))),
    };
    let tag = net.map_or(0, |n| (n.fingerprint() as u32).max(1));
    let (mut file, first) = open_output(&args.out, &header(args, tag).to_bytes())?;
    if first >= args.games {
        eprintln!("{}: already holds {} games", args.out, first);
        return Ok(ExitCode::SUCCESS);
    }
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::stderr())
    };
    bar.set_style(
        ProgressStyle::with_template(
            "datagen {wide_bar} {pos}/{len} games, {msg} [{elapsed_precise} < {eta_precise}]",
        )
        .context("progress template")?,
    );
    bar.set_position(first);
    let next = Arc::new(AtomicU64::new(first));
    let (tx, rx) = mpsc::channel::<(u64, Vec<u8>)>();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..args.threads {
            let (next, tx) = (Arc::clone(&next), tx.clone());
            scope.spawn(move || {
                // The evaluation cache: the same games, about 1.35 times as fast.
                let options =
                    EngineOptions { threads: 1, hash_mib: args.hash as usize, eval_cache: true };
                let mut engine = Engine::new(&options);
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= args.games {
                        return;
                    }
                    if tx.send((index, play_game(args, index, &mut engine, net))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        // Write games in index order, so that a resumed file is always a prefix of games.
        let mut pending = BTreeMap::new();
        let mut want = first;
        let mut positions = 0u64;
        for (index, records) in rx {
            pending.insert(index, records);
            while let Some(records) = pending.remove(&want) {
                file.write_all(&records).with_context(|| format!("cannot write {}", args.out))?;
                file.flush()?;
                positions += (records.len() / RECORD_SIZE) as u64 - 1;
                want += 1;
                bar.set_position(want);
                bar.set_message(format!("{positions} positions this run"));
            }
        }
        bar.finish();
        eprintln!("{}: games {first}..{want}, {positions} positions written", args.out);
        if want < args.games {
            bail!("stopped after game {want} of {}", args.games);
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
