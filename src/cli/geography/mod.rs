//! `bitsolve geography`: the contest client, a random client, the server and tournaments.

mod client;
mod load;
mod player;
mod server;
mod swiss;
#[cfg(test)]
mod tests;
mod tournament;

use std::io::Write;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};
use bitsolve::zobrist::KeyStream;
use bitsolve::{Game, Geography, Notation};
use clap::Subcommand;

use client::GameEnd;
use player::{EnginePlayer, PlainPlayer, Strategy};
pub use server::fuzz_lines as fuzz_server_lines;

/// Arguments of `bitsolve geography`.
#[derive(clap::Args, Debug)]
pub struct GeographyArgs {
    #[command(subcommand)]
    command: GeographyCommand,
}

#[derive(Subcommand, Debug)]
enum GeographyCommand {
    /// Plays one game on a contest server with the solver and engine (or, with `--engine
    /// plain`, plain alpha-beta on mobility). Exit status: 0 won, 3 lost, 1 error.
    Client {
        #[command(flatten)]
        connect: Connect,
        /// Time per move in milliseconds, as the server counts it (we think for at most
        /// 0.75 x this - 30 ms from the arrival of the server's message).
        #[arg(long, default_value_t = 2000)]
        time_ms: u64,
        /// Move choice: `full` (exact solver when it can finish, else the engine) or `plain`
        /// (iterative-deepening plain alpha-beta on mobility, no reductions: a baseline).
        #[arg(long, value_enum, default_value_t = EngineKind::Full)]
        engine: EngineKind,
        /// Depth limit in plies for `--engine plain` (default: deepen until the time is up).
        #[arg(long)]
        depth: Option<u32>,
        /// Reductions and search guidance of the exact solver, a comma-separated union such as
        /// `default,bridges,chains` (see `Reductions::from_str`: none, default, basic,
        /// bridges, chains, all, ordering, pn-hint, guided, parity-set, parity-win, traps,
        /// ...). The default adds the move ordering, the proof-number hints, the parity-set
        /// rule and the leaf traps: on 13 contest positions of 176 to 202 component edges
        /// df-pn needed 3.94M nodes with them against 123.5M with the default reductions
        /// alone, which left two unsolved at 60 s (`results/geography/reach-hard.md`).
        #[arg(long, default_value = bitsolve::games::geography::SOLVE_REDUCTIONS)]
        reductions: String,
    },
    /// Plays one game with uniformly random moves (for tests and tournaments). Exit status as
    /// for `client`.
    Random {
        #[command(flatten)]
        connect: Connect,
        /// Seed of the moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Prints the position reached by playing `--moves` from `--position` under the plain rules
    /// (the reductions may call a position decided that is not over yet).
    Replay {
        /// Start position (`<n> <token> <m> <a1> <b1> ...`).
        #[arg(long)]
        position: String,
        /// Moves (target vertices), space- or comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "")]
        moves: Vec<String>,
    },
    /// Serves games: pairs connections in accept order; the first to connect moves first.
    Serve {
        /// TCP port (0: any free port; the first line printed names it).
        #[arg(long)]
        port: u16,
        /// Address to bind.
        #[arg(long, default_value = "127.0.0.1")]
        bind: String,
        /// Vertices per graph.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u16).range(8..=128))]
        gsize: u16,
        /// Seconds per move (fractions allowed).
        #[arg(long, default_value_t = 2.0)]
        time: f64,
        /// Seed (default: from the clock; printed so the games can be replayed).
        #[arg(long)]
        seed: Option<u64>,
        /// Append one tab-separated line per game to this file.
        #[arg(long)]
        games_log: Option<PathBuf>,
        /// Stop after this many games.
        #[arg(long)]
        games: Option<u64>,
    },
    /// Tournament of client commands on our server (Swiss by default, or round robin); writes
    /// standings and games.
    Tournament {
        /// Client commands, comma-separated; `--host H --port P` is appended (or `{host}`,
        /// `{port}` replaced); `{seed}` becomes each game's seed.
        #[arg(long, value_delimiter = ',', required = true)]
        players: Vec<String>,
        /// Pairing system.
        #[arg(long, value_enum, default_value_t = tournament::Format::Swiss)]
        format: tournament::Format,
        /// Swiss: rounds (default ceil(log2(players))). Round robin: games per pair, colours
        /// alternating (default 2).
        #[arg(long)]
        rounds: Option<u32>,
        /// Tournament seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Vertices per graph.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u16).range(8..=128))]
        gsize: u16,
        /// Seconds per move.
        #[arg(long, default_value_t = 1.0)]
        time: f64,
        /// Output folder.
        #[arg(long, default_value = "results/geography/tournament")]
        out: PathBuf,
    },
    /// Load test of the server: `--games` games at once on loopback between well-behaved and
    /// hostile clients (garbage, floods, split and doubled lines, silence, disconnects); checks
    /// that every game record arrives and agrees with the clients, prints a Markdown summary with
    /// the peak memory, and exits 1 on any problem.
    Load {
        /// Games played at once (twice as many clients).
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Seconds per move.
        #[arg(long, default_value_t = 1.5)]
        time: f64,
        /// Vertices per graph.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u16).range(8..=128))]
        gsize: u16,
        /// Seed of the graphs and the clients' moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// The client's move choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum EngineKind {
    /// Exact solver when it can finish in time, else the playing engine with the evaluation.
    Full,
    /// Plain iterative-deepening alpha-beta on mobility (a baseline opponent).
    Plain,
}

/// Where the server is.
#[derive(clap::Args, Debug)]
struct Connect {
    /// Server host.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Server port.
    #[arg(long)]
    port: u16,
}

/// A positive, finite number of seconds.
fn seconds(s: f64) -> Result<Duration> {
    if !(s.is_finite() && s > 0.0 && s < 1e6) {
        bail!("a time must be a positive number of seconds, not {s}");
    }
    Ok(Duration::from_secs_f64(s))
}

fn play(connect: &Connect, mut strategy: Strategy) -> Result<ExitCode> {
    let addr = format!("{}:{}", connect.host, connect.port);
    let mut log = std::io::stderr();
    let end = client::play(&addr, &mut strategy, &mut log)?;
    let word = match end {
        GameEnd::Won => "won",
        GameEnd::WonOnTime => "won (opponent out of time)",
        GameEnd::Lost => "lost",
        GameEnd::LostOnTime => "lost (out of time)",
    };
    println!("{word}");
    Ok(if end.is_win() { ExitCode::SUCCESS } else { ExitCode::from(3) })
}

/// Runs the command.
pub fn run(args: &GeographyArgs) -> Result<ExitCode> {
    match &args.command {
        GeographyCommand::Client { connect, time_ms, engine, depth, reductions } => {
            let reductions: bitsolve::games::geography::Reductions =
                reductions.parse().map_err(|e: String| anyhow::anyhow!("--reductions: {e}"))?;
            // Keep a margin for the network, the scheduler and the server's clock.
            let budget = Duration::from_millis(*time_ms).mul_f64(0.75);
            let budget = budget.saturating_sub(Duration::from_millis(30));
            if budget.is_zero() {
                bail!("--time-ms {time_ms} leaves no time to think");
            }
            let strategy = match engine {
                EngineKind::Full => Strategy::Engine(Box::new(
                    EnginePlayer::new(budget).with_reductions(reductions),
                )),
                EngineKind::Plain => Strategy::Plain(PlainPlayer::new(budget, *depth)),
            };
            play(connect, strategy)
        }
        GeographyCommand::Random { connect, seed } => {
            play(connect, Strategy::Random(KeyStream::new(*seed)))
        }
        GeographyCommand::Replay { position, moves } => {
            let mut pos = Geography::parse_position(position)
                .map_err(|e| anyhow::anyhow!("invalid position `{position}`: {e}"))?
                .plain();
            for (i, word) in moves.iter().flat_map(|m| m.split_whitespace()).enumerate() {
                let mv =
                    pos.parse_move(word).map_err(|e| anyhow::anyhow!("move {}: {e}", i + 1))?;
                pos.play(mv);
            }
            println!("{}", pos.format_position());
            Ok(ExitCode::SUCCESS)
        }
        GeographyCommand::Serve { port, bind, gsize, time, seed, games_log, games } => {
            let seed = seed.unwrap_or_else(|| {
                SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
            });
            let config = server::ServerConfig {
                gsize: usize::from(*gsize),
                time: seconds(*time)?,
                seed,
                max_games: *games,
            };
            let listener = TcpListener::bind((bind.as_str(), *port))
                .with_context(|| format!("binding {bind}:{port}"))?;
            let addr = listener.local_addr().context("reading the bound address")?;
            println!("listening on {addr} seed {seed} gsize {gsize} time {time}");
            let _ = std::io::stdout().flush();
            let (tx, rx) = mpsc::channel();
            let log_path = games_log.clone();
            let logger = std::thread::spawn(move || log_games(&rx, log_path.as_deref()));
            server::serve(&listener, &config, &tx);
            drop(tx);
            logger.join().map_err(|_| anyhow::anyhow!("the log thread failed"))??;
            Ok(ExitCode::SUCCESS)
        }
        GeographyCommand::Load { games, time, gsize, seed } => {
            let config = load::LoadConfig {
                games: *games,
                time: seconds(*time)?,
                gsize: usize::from(*gsize),
                seed: *seed,
            };
            let report = load::run(&config).context("starting the load test")?;
            print!("{}", report.markdown());
            Ok(if report.problems.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        GeographyCommand::Tournament { players, format, rounds, seed, gsize, time, out } => {
            let config = tournament::TournamentConfig {
                players: players.clone(),
                format: *format,
                rounds: *rounds,
                seed: *seed,
                gsize: usize::from(*gsize),
                time: seconds(*time)?,
            };
            let standings = tournament::run(&config, out)?;
            print!("{standings}");
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Prints every finished game and appends it to the games log.
fn log_games(
    rx: &mpsc::Receiver<server::ServerEvent>,
    path: Option<&std::path::Path>,
) -> Result<()> {
    let mut file = match path {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("opening {}", p.display()))?,
        ),
        None => None,
    };
    for event in rx {
        if let server::ServerEvent::Finished(record) = event {
            let line = record.tsv();
            println!("{line}");
            if let Some(f) = file.as_mut() {
                writeln!(f, "{line}").context("writing the games log")?;
            }
        }
    }
    Ok(())
}
