//! `bitsolve ataxx match`: plays two players against each other and reports the score.
//!
//! Games come in pairs on the same opening with colours swapped. The referee keeps both clocks
//! (time from sending a request to receiving the answer), adjudicates by the chosen rules
//! ([`GameRecord::adjudicate`]), flags illegal moves and time losses, converts notation between
//! the arbiter protocol (`<from><to>`) and UAI, writes every game as PGN, and ends with the
//! score of the first player, its Elo difference and the 95% error bar.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use bitsolve::games::ataxx::elo::Score;
use bitsolve::games::ataxx::record::{GameRecord, GameResult, Termination};
use bitsolve::{Ataxx, Player};

use super::players::{ArbiterSeat, BuiltIn, PlayerSpec, Reply, Seat, UaiSeat, opening_game};

/// Arguments of `bitsolve ataxx match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The first player (scores are its): random, greedy (most-captures),
    /// self-arbiter[:ARGS], self-uai[:ARGS], arbiter:COMMAND, uai:COMMAND.
    #[arg(long)]
    p1: String,
    /// The second player (same forms).
    #[arg(long)]
    p2: String,
    /// Rule set: polish (the assignment's) or standard (community).
    #[arg(long, default_value = "polish", value_parser = ["polish", "standard"])]
    rules: String,
    /// Number of games (colours alternate; pairs share an opening).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Time control per player: total milliseconds for the game, optionally `+increment`.
    #[arg(long, default_value = "1000+0")]
    tc: String,
    /// Openings file (one opening per line: moves from the start, or a FEN; `#` comments).
    #[arg(long)]
    openings: Option<String>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    concurrency: u16,
    /// Seed of the built-in players' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write every game here as PGN.
    #[arg(long)]
    pgn: Option<String>,
    /// Write the summary here as well as to stdout.
    #[arg(long)]
    out: Option<String>,
    /// Show the engines' stderr.
    #[arg(long)]
    show_stderr: bool,
    /// Names of the players in the PGN and summary (default: their specs).
    #[arg(long, num_args = 2, value_names = ["P1", "P2"])]
    names: Option<Vec<String>>,
}

/// A time control.
#[derive(Clone, Copy, Debug)]
struct Tc {
    total: Duration,
    increment: Duration,
}

fn parse_tc(text: &str) -> anyhow::Result<Tc> {
    let (total, inc) = text.split_once('+').unwrap_or((text, "0"));
    let ms = |t: &str| -> anyhow::Result<Duration> {
        Ok(Duration::from_millis(t.trim().parse().with_context(|| format!("bad --tc {text:?}"))?))
    };
    Ok(Tc { total: ms(total)?, increment: ms(inc)? })
}

/// One finished game.
struct Played {
    /// Colour of player 1.
    p1_colour: Player,
    result: GameResult,
    termination: Termination,
    plies: usize,
    /// Time used by player 1 and player 2.
    used: [Duration; 2],
    pgn: String,
}

/// The whole match's configuration.
struct Setup {
    specs: [PlayerSpec; 2],
    names: [String; 2],
    tc: Tc,
    openings: Vec<String>,
    seed: u64,
    show_stderr: bool,
    rules: &'static str,
}

/// Runs the match.
pub fn run(args: &MatchArgs) -> anyhow::Result<ExitCode> {
    let specs = [
        PlayerSpec::parse(&args.p1).map_err(anyhow::Error::msg)?,
        PlayerSpec::parse(&args.p2).map_err(anyhow::Error::msg)?,
    ];
    let polish = args.rules == "polish";
    let openings = match &args.openings {
        Some(path) => read_openings(path, polish)?,
        None => Vec::new(),
    };
    if specs.iter().any(PlayerSpec::is_arbiter) {
        if !polish {
            bail!("arbiter-protocol players need --rules polish (the protocol has no pass)");
        }
        if !openings.is_empty() {
            bail!("arbiter-protocol players always start from the standard start: no --openings");
        }
    }
    let names = match &args.names {
        Some(n) if n.len() == 2 => [n[0].clone(), n[1].clone()],
        _ => [args.p1.clone(), args.p2.clone()],
    };
    let setup = Setup {
        specs,
        names,
        tc: parse_tc(&args.tc)?,
        openings,
        seed: args.seed,
        show_stderr: args.show_stderr,
        rules: if polish { "polish" } else { "standard" },
    };
    let started = Instant::now();
    let games =
        if polish { play_all::<true>(&setup, args)? } else { play_all::<false>(&setup, args)? };
    let summary = summarize(&setup, args, &games, started.elapsed());
    print!("{summary}");
    if let Some(path) = &args.out {
        std::fs::write(path, &summary).with_context(|| format!("cannot write {path}"))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The openings of a file, each checked.
fn read_openings(path: &str, polish: bool) -> anyhow::Result<Vec<String>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let check = if polish {
            opening_game::<true>(line).map(|g| g.adjudicate().is_none())
        } else {
            opening_game::<false>(line).map(|g| g.adjudicate().is_none())
        };
        match check {
            Ok(true) => out.push(line.to_owned()),
            Ok(false) => bail!("{path}:{}: the opening is already a finished game", i + 1),
            Err(e) => bail!("{path}:{}: {e}", i + 1),
        }
    }
    if out.is_empty() {
        bail!("{path}: no openings");
    }
    Ok(out)
}

/// Plays every game, `concurrency` at a time; appends the PGN as games finish.
fn play_all<const POLISH: bool>(setup: &Setup, args: &MatchArgs) -> anyhow::Result<Vec<Played>> {
    let mut pgn_file = match &args.pgn {
        Some(path) => {
            Some(std::fs::File::create(path).with_context(|| format!("cannot create {path}"))?)
        }
        None => None,
    };
    let next = AtomicUsize::new(0);
    let results: Mutex<BTreeMap<usize, Played>> = Mutex::new(BTreeMap::new());
    let pgn_lock = Mutex::new(&mut pgn_file);
    let threads = usize::from(args.concurrency).min(args.games.max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= args.games {
                        break;
                    }
                    let played = play_game::<POLISH>(setup, index);
                    if let Some(file) = pgn_lock.lock().expect("pgn lock").as_mut() {
                        let _ = file.write_all(played.pgn.as_bytes());
                    }
                    let mut all = results.lock().expect("results lock");
                    if played.termination.is_forfeit() {
                        eprintln!("game {}: {}", index + 1, played.termination);
                    }
                    all.insert(index, played);
                    let done = all.len();
                    if done.is_multiple_of(10) || done == args.games {
                        let score = score_of(all.values());
                        eprintln!("{done}/{} games: {score}", args.games);
                    }
                }
            });
        }
    });
    Ok(results.into_inner().expect("results lock").into_values().collect())
}

/// Player 1's score over `games`.
fn score_of<'a>(games: impl Iterator<Item = &'a Played>) -> Score {
    let mut score = Score::default();
    for g in games {
        match g.result {
            GameResult::Draw => score.draws += 1,
            r if r == GameResult::win_for(g.p1_colour) => score.wins += 1,
            _ => score.losses += 1,
        }
    }
    score
}

/// A seat for `spec`.
fn seat<const POLISH: bool>(
    spec: &PlayerSpec,
    seed: u64,
    show_stderr: bool,
) -> Box<dyn Seat<POLISH>> {
    match spec {
        PlayerSpec::Random => Box::new(BuiltIn::new(false, seed)),
        PlayerSpec::Greedy => Box::new(BuiltIn::new(true, seed)),
        PlayerSpec::Arbiter(cmd) => Box::new(ArbiterSeat::new(cmd.clone(), show_stderr)),
        PlayerSpec::Uai(cmd) => Box::new(UaiSeat::new(cmd.clone(), show_stderr, POLISH)),
    }
}

/// Plays game number `index` (0-based): player 1 is `x` in even games.
fn play_game<const POLISH: bool>(setup: &Setup, index: usize) -> Played {
    let p1_colour = if index.is_multiple_of(2) { Player::First } else { Player::Second };
    let mut game: GameRecord<POLISH> = if setup.openings.is_empty() {
        GameRecord::new(Ataxx::startpos())
    } else {
        let line = &setup.openings[(index / 2) % setup.openings.len()];
        opening_game::<POLISH>(line).expect("openings were checked")
    };
    let seed = setup.seed.wrapping_mul(1_000_003).wrapping_add(index as u64);
    let mut seats: [Box<dyn Seat<POLISH>>; 2] = [
        seat::<POLISH>(&setup.specs[0], seed, setup.show_stderr),
        seat::<POLISH>(&setup.specs[1], seed ^ 0x5555, setup.show_stderr),
    ];
    // Seat index (0 = player 1) of each colour.
    let seat_of = |colour: Player| usize::from(colour != p1_colour);
    let mut clocks = [setup.tc.total; 2];
    let mut used = [Duration::ZERO; 2];
    let (result, termination) = loop {
        if let Some(end) = game.adjudicate() {
            break end;
        }
        let mover = game.position().side_to_move();
        let s = seat_of(mover);
        let reply = seats[s].ask(&game, mover, clocks, setup.tc.increment);
        let lose = |why| (GameResult::win_for(!mover), why);
        match reply {
            Reply::Timeout => {
                eprintln!(
                    "game {}, ply {}: no answer within the {} ms left",
                    index + 1,
                    game.moves().len() + 1,
                    clocks[mover.index()].as_millis()
                );
                break lose(Termination::TimeForfeit(mover));
            }
            Reply::Failed(why) => break lose(Termination::Disconnected(mover, why)),
            Reply::Move(text, elapsed) => {
                used[s] += elapsed;
                if elapsed > clocks[mover.index()] {
                    eprintln!(
                        "game {}, ply {}: answer after {} ms with {} ms left",
                        index + 1,
                        game.moves().len() + 1,
                        elapsed.as_millis(),
                        clocks[mover.index()].as_millis()
                    );
                    break lose(Termination::TimeForfeit(mover));
                }
                clocks[mover.index()] =
                    clocks[mover.index()].saturating_sub(elapsed) + setup.tc.increment;
                if game.play_text(&text).is_err() {
                    break lose(Termination::IllegalMove(mover, text));
                }
            }
        }
    };
    for s in &mut seats {
        s.finish();
    }
    let (black, white) = if p1_colour == Player::First { (0, 1) } else { (1, 0) };
    let round = (index + 1).to_string();
    let tc = format!("{}+{}", setup.tc.total.as_secs_f64(), setup.tc.increment.as_secs_f64());
    let tags = [
        ("Event", "bitsolve ataxx match"),
        ("Site", "local"),
        ("Round", round.as_str()),
        ("Black", setup.names[black].as_str()),
        ("White", setup.names[white].as_str()),
        ("Variant", setup.rules),
        ("TimeControl", tc.as_str()),
    ];
    let pgn = game.pgn(&tags, Some((result, &termination)));
    Played { p1_colour, result, termination, plies: game.moves().len(), used, pgn }
}

/// The closing report: setup, score, Elo, how games ended, forfeits, time used.
fn summarize(setup: &Setup, args: &MatchArgs, games: &[Played], wall: Duration) -> String {
    let mut out = String::new();
    let score = score_of(games.iter());
    let _ = writeln!(out, "# bitsolve ataxx match ({})", env!("BITSOLVE_GIT"));
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let _ = writeln!(out, "command: bitsolve {}", argv.join(" "));
    let _ = writeln!(
        out,
        "rules: {}; time control: {} ms + {} ms per player; games: {}; concurrency: {}; openings: {}",
        setup.rules,
        setup.tc.total.as_millis(),
        setup.tc.increment.as_millis(),
        games.len(),
        args.concurrency,
        if setup.openings.is_empty() {
            "none (standard start)".to_owned()
        } else {
            format!("{} from {}", setup.openings.len(), args.openings.as_deref().unwrap_or("?"))
        }
    );
    let _ = writeln!(out, "p1: {}\np2: {}", setup.names[0], setup.names[1]);
    let _ = writeln!(out, "score of p1 (wins, draws, losses): {score}");
    let as_colour = |c: Player| score_of(games.iter().filter(|g| g.p1_colour == c));
    let _ = writeln!(out, "p1 as x (moves first): {}", as_colour(Player::First));
    let _ = writeln!(out, "p1 as o: {}", as_colour(Player::Second));
    let mut endings: BTreeMap<String, usize> = BTreeMap::new();
    let mut forfeits = [[0usize; 3]; 2]; // per player: illegal, time, disconnected
    for g in games {
        let key = match &g.termination {
            Termination::IllegalMove(..) => "illegal move".to_owned(),
            Termination::TimeForfeit(_) => "time forfeit".to_owned(),
            Termination::Disconnected(..) => "disconnected".to_owned(),
            t => t.to_string(),
        };
        *endings.entry(key).or_default() += 1;
        let culprit = match &g.termination {
            Termination::IllegalMove(c, _) => Some((c, 0)),
            Termination::TimeForfeit(c) => Some((c, 1)),
            Termination::Disconnected(c, _) => Some((c, 2)),
            _ => None,
        };
        if let Some((&colour, kind)) = culprit {
            forfeits[usize::from(colour != g.p1_colour)][kind] += 1;
        }
    }
    let _ = writeln!(out, "game endings:");
    for (why, n) in &endings {
        let _ = writeln!(out, "  {why}: {n}");
    }
    for (i, f) in forfeits.iter().enumerate() {
        let _ = writeln!(
            out,
            "p{}: illegal moves {}, time losses {}, disconnections {}",
            i + 1,
            f[0],
            f[1],
            f[2]
        );
    }
    let n = games.len().max(1) as u32;
    let plies: usize = games.iter().map(|g| g.plies).sum();
    let used = |i: usize| games.iter().map(|g| g.used[i]).sum::<Duration>() / n;
    let _ = writeln!(
        out,
        "average plies per game: {:.1}; average time used per game: p1 {} ms, p2 {} ms; wall time {:.1} s",
        plies as f64 / f64::from(n),
        used(0).as_millis(),
        used(1).as_millis(),
        wall.as_secs_f64()
    );
    out
}
