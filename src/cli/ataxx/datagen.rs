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
//! # File format (little-endian)
//!
//! A 48-byte header (56 bytes in version 2), then 24-byte records, games in index order, each
//! game's records in the order played. Version 2 is written only with `--max-opening-score`, so
//! files made without it stay version 1 and resume as before.
//!
//! | bytes | header field |
//! |-------|--------------|
//! | 0..8 | magic `BSAXDATA` |
//! | 8..12 | format version (`u32`, [`VERSION`]) |
//! | 12..16 | record size (`u32`, 24) |
//! | 16..24 | seed (`u64`) |
//! | 24..32 | nodes per move (`u64`, 0 = no limit) |
//! | 32..36 | depth per move (`u32`, 0 = no limit) |
//! | 36..40 | least random plies (`u32`) |
//! | 40..44 | most random plies (`u32`) |
//! | 44..48 | evaluation: 0 the hand-made one, else the low 32 bits of the net's FNV-1a hash |
//! | 48..52 | version 2 only: most opening score (`u32`, `--max-opening-score`) |
//! | 52..56 | version 2 only: reserved, 0 |
//!
//! | bytes | record field |
//! |-------|--------------|
//! | 0..8 | stones of `x` (the first player), stride-8 squares: `8 * rank + file`, a1 = bit 0 |
//! | 8..16 | stones of `o` |
//! | 16..18 | search score (`i16`) from the side to move's view, engine units (a stone ~ 100) |
//! | 18 | side to move: 0 = `x`, 1 = `o` |
//! | 19 | game result from the side to move's view (`i8`): 1 win, 0 draw, -1 loss |
//! | 20..24 | game index (`u32`) |
//!
//! Positions whose score is a proven result are not written (the game is adjudicated there).
//!
//! # Resume
//!
//! Run again with the same arguments (a larger `--games` to extend): the header must match;
//! a partial record at the end is cut off, the last game in the file is written again (it may
//! be incomplete after a crash; games are deterministic, so it comes out the same), and the
//! run goes on from there up to `--games` games in total.

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

use super::players::{BuiltIn, Rng};

/// Version of the data format written without an opening filter.
pub const VERSION: u32 = 1;
/// Version of the data format written with `--max-opening-score` (a longer header).
pub const VERSION_FILTERED: u32 = 2;
/// Bytes of the version 2 header.
pub const HEADER_SIZE_FILTERED: usize = 56;
/// Openings drawn at most per game under `--max-opening-score` (the last is kept whatever its
/// score).
pub const OPENING_TRIES: u32 = 64;
/// Bytes per record.
pub const RECORD_SIZE: usize = 24;
/// Bytes of the header.
pub const HEADER_SIZE: usize = 48;
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

/// The header this run writes (and expects on resume): version 1, or version 2 with the
/// opening filter.
fn header(args: &DatagenArgs, net_tag: u32) -> Vec<u8> {
    let filtered = args.max_opening_score.is_some();
    let mut h = vec![0u8; if filtered { HEADER_SIZE_FILTERED } else { HEADER_SIZE }];
    h[0..8].copy_from_slice(b"BSAXDATA");
    let version = if filtered { VERSION_FILTERED } else { VERSION };
    h[8..12].copy_from_slice(&version.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
    h[16..24].copy_from_slice(&args.seed.to_le_bytes());
    h[24..32].copy_from_slice(&args.nodes.unwrap_or(0).to_le_bytes());
    h[32..36].copy_from_slice(&args.depth.unwrap_or(0).to_le_bytes());
    h[36..40].copy_from_slice(&args.min_plies.to_le_bytes());
    h[40..44].copy_from_slice(&args.max_plies.to_le_bytes());
    h[44..48].copy_from_slice(&net_tag.to_le_bytes());
    if let Some(max) = args.max_opening_score {
        h[48..52].copy_from_slice(&max.to_le_bytes());
    }
    h
}

/// Opens (or creates) the output, checks its header, trims it to whole games but the last,
/// and returns it positioned at the end with the index of the first game to play.
fn open_output(path: &str, want: &[u8]) -> anyhow::Result<(File, u64)> {
    let header_size = want.len();
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
    let mut got = vec![0u8; header_size];
    file.read_exact(&mut got)
        .with_context(|| format!("{path}: shorter than a header ({len} bytes)"))?;
    ensure!(
        got == want,
        "{path}: written with other arguments (header differs); use a new file or the same \
         --seed, --nodes, --depth, --min-plies, --max-plies, --max-opening-score and --net"
    );
    let records = (len - header_size as u64) / RECORD_SIZE as u64;
    if records == 0 {
        file.set_len(header_size as u64)?;
        file.seek(SeekFrom::End(0))?;
        return Ok((file, 0));
    }
    let game_at = |file: &mut File, k: u64| -> anyhow::Result<u32> {
        let mut rec = [0u8; RECORD_SIZE];
        file.seek(SeekFrom::Start(header_size as u64 + k * RECORD_SIZE as u64))?;
        file.read_exact(&mut rec)?;
        Ok(u32::from_le_bytes([rec[20], rec[21], rec[22], rec[23]]))
    };
    let last = game_at(&mut file, records - 1)?;
    // The first record of the last game: binary search (games are in index order).
    let (mut lo, mut hi) = (0, records - 1);
    while lo < hi {
        let mid = u64::midpoint(lo, hi);
        if game_at(&mut file, mid)? < last {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    file.set_len(header_size as u64 + lo * RECORD_SIZE as u64)?;
    file.seek(SeekFrom::End(0))?;
    Ok((file, u64::from(last)))
}

/// The seed of game `index`'s opening.
fn game_seed(seed: u64, index: u64) -> u64 {
    Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// The standard position after a random number of random plies (`--min-plies..=--max-plies`).
fn random_opening(args: &DatagenArgs, rng: &mut Rng) -> GameRecord<false> {
    let span = args.max_plies.saturating_sub(args.min_plies) as usize + 1;
    let plies = args.min_plies as usize + rng.below(span);
    let mut game = GameRecord::new(AtaxxStandard::startpos());
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
    let limits = SearchLimits { nodes: args.nodes, depth: args.depth, ..SearchLimits::default() };
    let mut tries = 0;
    let mut game = loop {
        let game = random_opening(args, &mut rng);
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
    let mut out = Vec::with_capacity(samples.len() * RECORD_SIZE);
    for s in &samples {
        let points = result.points(s.side);
        let wdl: i8 = if points > 0.75 {
            1
        } else if points < 0.25 {
            -1
        } else {
            0
        };
        out.extend_from_slice(&s.stones[0].to_le_bytes());
        out.extend_from_slice(&s.stones[1].to_le_bytes());
        out.extend_from_slice(&s.score.to_le_bytes());
        out.push(u8::from(s.side == Player::Second));
        out.push(wdl as u8);
        out.extend_from_slice(&(index as u32).to_le_bytes());
    }
    out
}

/// Runs the data generation.
pub fn run(args: &DatagenArgs) -> anyhow::Result<ExitCode> {
    ensure!(args.min_plies <= args.max_plies, "--min-plies exceeds --max-plies");
    ensure!(u32::try_from(args.games).is_ok(), "--games must fit in 32 bits");
    let net: Option<&'static Network> = match args.net.as_deref() {
        None => None,
        Some("default") => Some(Network::embedded()),
        Some(path) => Some(Box::leak(Box::new(
            Network::load_file(path).map_err(|e| anyhow::anyhow!("{path}: {e}"))?,
        ))),
    };
    let tag = net.map_or(0, |n| (n.fingerprint() as u32).max(1));
    let (mut file, first) = open_output(&args.out, &header(args, tag))?;
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
                let options = EngineOptions { threads: 1, hash_mib: args.hash as usize };
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
                positions += (records.len() / RECORD_SIZE) as u64;
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
