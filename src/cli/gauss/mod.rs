//! `bitsolve gauss`: play Gauss against the engine, run engine matches, print positions and
//! generate random positions.
//!
//! The player searches the midgame with the generic engine ([`Engine`] over the Gauss
//! [`Evaluate`](bitsolve::search::engine::Evaluate)) and, once at most `--solve-at`
//! placements are left, solves the exact final score ([`AlphaBetaScore`]) and plays a move
//! achieving it (falling back to the engine if the solve does not finish in time).

use std::io::Write as _;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use bitsolve::games::gauss::picture::names_picture;
use bitsolve::games::gauss::{Collection, Colour, Gauss, GaussMove, GaussMoves, Rules};
use bitsolve::lineio::LineReader;
use bitsolve::search::engine::{Engine, EngineOptions, Evaluate, SearchLimits};
use bitsolve::search::score::{AlphaBetaScore, ScoreSolver};
use bitsolve::zobrist::KeyStream;
use bitsolve::{Game, Limits, Notation, Outcome, Player, SolverOptions};
use clap::{Subcommand, ValueEnum};

/// Placements left at which the player switches to the exact solve by default (typically
/// solved within a second here: see `results/gauss/solve-depth.md`).
const DEFAULT_SOLVE_AT: u32 = 9;

/// Arguments of `bitsolve gauss`.
#[derive(clap::Args, Debug)]
pub struct GaussArgs {
    #[command(subcommand)]
    command: GaussCommand,
}

#[derive(Subcommand, Debug)]
enum GaussCommand {
    /// Print the picture of a position (the start by default).
    Show {
        /// The position (one-line form, see `bitsolve info --game gauss`).
        #[arg(long)]
        position: Option<String>,
        /// Moves to play first (space- or comma-separated).
        #[arg(long, value_delimiter = ',')]
        moves: Vec<String>,
        /// Print the name of every point instead.
        #[arg(long)]
        names: bool,
    },
    /// Play against the engine: your moves on stdin, one per line (`d4r`), works from a pipe.
    Play(PlayArgs),
    /// Engine against an opponent over several games from random openings, colours swapped.
    Match(MatchArgs),
    /// Random positions with some placements left, as dataset lines `id<TAB>position`.
    Gen(GenArgs),
}

/// How the engine player thinks.
#[derive(clap::Args, Debug, Clone)]
struct PlayerArgs {
    /// Thinking time per move in seconds.
    #[arg(long, default_value_t = 1.0)]
    time: f64,
    /// Solve the exact score once at most this many placements are left.
    #[arg(long, default_value_t = DEFAULT_SOLVE_AT)]
    solve_at: u32,
    /// Node limit per move (with it, games are reproducible when time does not run out).
    #[arg(long)]
    nodes: Option<u64>,
    /// Table size in MiB of the endgame solver.
    #[arg(long, default_value_t = 64)]
    tt_mib: usize,
}

/// Who plays which colour in `gauss play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Human {
    /// You play red (first).
    Red,
    /// You play blue (second).
    Blue,
    /// You play both sides.
    Both,
    /// The engine plays both sides.
    None,
}

#[derive(clap::Args, Debug)]
struct PlayArgs {
    /// Start from this position instead of the start.
    #[arg(long)]
    position: Option<String>,
    /// Which side you play.
    #[arg(long, value_enum, default_value_t = Human::Red)]
    human: Human,
    /// Collect straight rows of four instead of connected groups (rule option).
    #[arg(long)]
    row: bool,
    #[command(flatten)]
    player: PlayerArgs,
}

/// The opponent of the engine in `gauss match`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Opponent {
    /// Uniformly random moves.
    Random,
    /// The move with the best immediate score change (ties: first generated).
    Greedy,
    /// The same engine without the exact endgame solve.
    NoSolve,
}

#[derive(clap::Args, Debug)]
struct MatchArgs {
    /// Number of openings (each is played twice, colours swapped).
    #[arg(long, default_value_t = 5)]
    openings: u32,
    /// Random placements in each opening.
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// Seed of the openings (and of the random opponent).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The opponent.
    #[arg(long, value_enum, default_value_t = Opponent::Greedy)]
    opponent: Opponent,
    #[command(flatten)]
    player: PlayerArgs,
}

#[derive(clap::Args, Debug)]
struct GenArgs {
    /// Placements left in the positions (several values: a block for each).
    #[arg(long, value_delimiter = ',', required = true)]
    remaining: Vec<u32>,
    /// Positions per value of `--remaining`.
    #[arg(long, default_value_t = 3)]
    count: u32,
    /// Seed of the random play.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs the command.
pub fn run(args: &GaussArgs) -> Result<ExitCode> {
    match &args.command {
        GaussCommand::Show { position, moves, names } => {
            if *names {
                print!("{}", names_picture());
                return Ok(ExitCode::SUCCESS);
            }
            let text = position.as_deref().unwrap_or(bitsolve::games::gauss::notation::START);
            let pos: Gauss = crate::cli::args::load_position(text, moves)?;
            println!("{}", pos.format_position());
            print!("{}", pos.picture());
            Ok(ExitCode::SUCCESS)
        }
        GaussCommand::Play(a) => play(a),
        GaussCommand::Match(a) => run_match(a),
        GaussCommand::Gen(a) => {
            let mut rng = KeyStream::new(a.seed);
            println!("# Gauss positions by random play from the start, seed {}", a.seed);
            println!("id\tposition\texpected");
            for &left in &a.remaining {
                if left > 30 {
                    bail!("--remaining {left}: a game has 30 placements");
                }
                for i in 0..a.count {
                    let pos = Gauss::random(left, Rules::default(), &mut rng);
                    println!("r{left:02}-{i}\t{}\t-", pos.format_position());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The engine player: heuristic search in the midgame, exact score in the endgame.
struct EnginePlayer {
    args: PlayerArgs,
    solve: bool,
    engine: Engine<Gauss>,
    solver: AlphaBetaScore,
}

impl EnginePlayer {
    fn new(args: &PlayerArgs, solve: bool) -> Self {
        let options = SolverOptions { tt_mib: args.tt_mib, ..SolverOptions::default() };
        EnginePlayer {
            args: args.clone(),
            solve,
            engine: Engine::new(&EngineOptions::default()),
            solver: AlphaBetaScore::new(&options),
        }
    }

    /// A move for `pos` (not over) and a note on how it was found. The exact solve may use
    /// three quarters of the time; if it does not finish, the engine gets the rest.
    fn choose(&mut self, pos: &Gauss) -> (GaussMove, String) {
        let start = Instant::now();
        let budget = Duration::from_secs_f64(self.args.time.max(0.001));
        if self.solve && pos.remaining() <= self.args.solve_at {
            let limits = Limits { nodes: self.args.nodes, time: Some(budget * 3 / 4), stop: None };
            let report = self.solver.solve_score(pos, &limits);
            if let (Some(score), Some(mv)) = (report.score, report.best_move) {
                return (mv, format!("exact score {score:+}, {} nodes", report.stats.nodes));
            }
        }
        let left = budget.saturating_sub(start.elapsed()).max(budget / 4);
        let limits = SearchLimits {
            soft_time: Some(left / 2),
            hard_time: Some(left),
            nodes: self.args.nodes,
            ..SearchLimits::default()
        };
        let result = self.engine.search(pos, &[], &limits, &mut |_| {});
        let mv = result.best_move.expect("a position that is not over has a move");
        (mv, format!("eval {:+}, depth {}", result.info.score, result.info.depth))
    }
}

/// `red 7 - blue 5: red wins` and the like.
fn final_line(pos: &Gauss) -> String {
    let tally = pos.tally();
    let red_view = match (pos.outcome(), pos.side_to_move()) {
        (Some(o), Player::First) => o,
        (Some(o), Player::Second) => o.flip(),
        (None, _) => return "game not over".into(),
    };
    let verdict = match red_view {
        Outcome::Win => "red wins",
        Outcome::Loss => "blue wins",
        Outcome::Draw => "draw",
    };
    let tie = if tally.points[0] == tally.points[1] && red_view != Outcome::Draw {
        " (on the tie-break)"
    } else {
        ""
    };
    format!("final: red {} - blue {}: {verdict}{tie}", tally.points[0], tally.points[1])
}

fn play(args: &PlayArgs) -> Result<ExitCode> {
    let rules = Rules {
        collection: if args.row { Collection::Row } else { Collection::Group },
        ..Rules::default()
    };
    let mut pos = match &args.position {
        Some(text) => crate::cli::args::load_position::<Gauss>(text, &[])?,
        None => Gauss::start(rules),
    };
    let mut engine = EnginePlayer::new(&args.player, true);
    let stdin = std::io::stdin();
    let mut lines = LineReader::new(stdin.lock());
    println!(
        "Gauss: moves are a point and a colour (`d4r`); `names` shows the point names, `quit` ends."
    );
    loop {
        print!("{}", pos.picture());
        if pos.is_over() {
            println!("{}", final_line(&pos));
            return Ok(ExitCode::SUCCESS);
        }
        let side = pos.side_to_move();
        let human = match args.human {
            Human::Both => true,
            Human::None => false,
            Human::Red => side == Player::First,
            Human::Blue => side == Player::Second,
        };
        if !human {
            let (mv, note) = engine.choose(&pos);
            println!("engine plays {} ({note})", pos.format_move(mv));
            pos.play(mv);
            continue;
        }
        let mover = Colour::of(side);
        loop {
            print!("{} to move> ", if mover == Colour::Red { "red" } else { "blue" });
            std::io::stdout().flush()?;
            let Some(line) = lines.next_line()? else {
                println!();
                bail!("input ended before the game did");
            };
            let line = match line.content {
                Ok(text) => text,
                Err(e) => {
                    println!("not a legal move: column {}: {e}", e.column());
                    continue;
                }
            };
            match line.trim() {
                "" => {}
                "quit" | "exit" => {
                    println!("bye");
                    return Ok(ExitCode::SUCCESS);
                }
                "names" | "help" | "?" => print!("{}", names_picture()),
                text => match pos.parse_move(text) {
                    Ok(mv) => {
                        pos.play(mv);
                        break;
                    }
                    Err(e) => println!("not a legal move: column {}: {}", e.column, e.message),
                },
            }
        }
    }
}

/// The greedy move: the best immediate change of the provisional score.
fn greedy(pos: &Gauss) -> GaussMove {
    let mut moves = GaussMoves::new();
    pos.generate_moves(&mut moves);
    let mut best = moves[0];
    let mut best_hint = i32::MIN;
    for &mv in &moves {
        let hint = pos.move_hint(mv);
        if hint > best_hint {
            (best, best_hint) = (mv, hint);
        }
    }
    best
}

fn random_move(pos: &Gauss, rng: &mut KeyStream) -> GaussMove {
    let mut moves = GaussMoves::new();
    pos.generate_moves(&mut moves);
    moves[(rng.next_key() % moves.len() as u64) as usize]
}

fn run_match(args: &MatchArgs) -> Result<ExitCode> {
    if args.opening_plies > 20 {
        bail!("--opening-plies {}: at most 20", args.opening_plies);
    }
    let mut player = EnginePlayer::new(&args.player, true);
    let mut other = EnginePlayer::new(&args.player, false);
    let mut rng = KeyStream::new(args.seed);
    let (mut wins, mut draws, mut losses, mut diff) = (0u32, 0u32, 0u32, 0i64);
    let start = Instant::now();
    for opening in 0..args.openings {
        let start_pos = Gauss::random(30 - args.opening_plies, Rules::default(), &mut rng);
        for engine_colour in Colour::ALL {
            let mut pos = start_pos;
            while !pos.is_over() {
                let mv = if Colour::of(pos.side_to_move()) == engine_colour {
                    player.choose(&pos).0
                } else {
                    match args.opponent {
                        Opponent::Random => random_move(&pos, &mut rng),
                        Opponent::Greedy => greedy(&pos),
                        Opponent::NoSolve => other.choose(&pos).0,
                    }
                };
                pos.play(mv);
            }
            let tally = pos.tally();
            let e = engine_colour.index();
            let red_outcome = if pos.side_to_move() == Player::First {
                pos.outcome()
            } else {
                pos.outcome().map(Outcome::flip)
            }
            .expect("over");
            let engine_outcome = if e == 0 { red_outcome } else { red_outcome.flip() };
            match engine_outcome {
                Outcome::Win => wins += 1,
                Outcome::Draw => draws += 1,
                Outcome::Loss => losses += 1,
            }
            diff += i64::from(tally.points[e] - tally.points[1 - e]);
            println!(
                "opening {opening} engine={} {} -> engine {engine_outcome}",
                if e == 0 { "red" } else { "blue" },
                final_line(&pos)
            );
        }
    }
    let games = 2 * args.openings;
    println!(
        "engine vs {:?}: {wins} wins, {draws} draws, {losses} losses in {games} games; mean \
         points difference {:+.2}; {:.1} s",
        args.opponent,
        diff as f64 / f64::from(games.max(1)),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
