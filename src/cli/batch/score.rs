//! `bitsolve solve --score`: exact final scores of [`Scored`] games (Gauss), one position or
//! dataset files, with the score solvers of [`bitsolve::search::score`].
//!
//! Result line: `score=<n|unknown> move=<best|none> nodes=.. time_ms=.. ...`; with files each
//! line is prefixed by the position's id, the solver and its threads, and the files go through
//! the batch engine ([`crate::cli::batch`]): rows with a `score` column, `--out`, `--resume`,
//! `--shard`, `--jobs` and the progress bar.

use std::process::ExitCode;

use anyhow::{Result, bail};
use bitsolve::search::score::make_score_solver;
use bitsolve::{GameKind, Notation, Scored, SolverKind, with_scored_game};

use crate::cli::args::SearchArgs;
use crate::cli::batch::rows::score_line;
use crate::cli::batch::{self, BatchSpec, Item, Worker};

/// What `solve --score` was asked for.
pub struct ScoreJob<'a> {
    /// The game.
    pub game: GameKind,
    /// One position, or `None` for files.
    pub position: Option<&'a str>,
    /// Moves to play from `position` first.
    pub moves: &'a [String],
    /// The solvers (`alphabeta`: alpha-beta over scores; `brute`: minimax; `pns`, `dfpn`:
    /// bisection over thresholds).
    pub solvers: &'a [SolverKind],
    /// Table size, limits.
    pub search: &'a SearchArgs,
    /// The batch over dataset files, when there are files.
    pub batch: Option<BatchSpec<'a>>,
}

/// Runs the job.
pub fn run(job: &ScoreJob<'_>) -> Result<ExitCode> {
    with_scored_game!(job.game, G => run_scored::<G>(job), {
        bail!("--score needs a game with a final score (gauss); {} has none", job.game)
    })
}

/// The workers of a score batch: `make_score_solver` per configuration.
pub fn score_workers<'a, G: Notation + Scored>(
    spec: &'a BatchSpec<'a>,
    signatures: &'a [String],
) -> impl Fn(usize) -> Worker<'a, G> + Sync + 'a {
    move |c| {
        let (kind, options) = &spec.configs[c];
        let mut solver = make_score_solver::<G>(*kind, options);
        Box::new(move |item: &Item<G>| {
            let report = solver.solve_score(&item.pos, &spec.limits);
            let solved = crate::cli::batch::solved(spec, signatures, c, item);
            (solved.score_row(&report), score_line(&item.pos, &report))
        })
    }
}

fn run_scored<G: Notation + Scored>(job: &ScoreJob<'_>) -> Result<ExitCode> {
    if let Some(spec) = &job.batch {
        let signatures = batch::signatures(spec);
        let workers = score_workers::<G>(spec, &signatures);
        let outcome = batch::run::<G>(spec, &workers)?;
        return Ok(crate::cli::batch::finish(&outcome));
    }
    let Some(text) = job.position else {
        bail!("nothing to solve: give --position or dataset files");
    };
    let options = job.search.options::<G>();
    let limits = job.search.limits();
    let pos: G = crate::cli::args::load_position(text, job.moves)?;
    println!("game {} position {}", job.game, pos.format_position());
    for &kind in job.solvers {
        let mut solver = make_score_solver::<G>(kind, &options);
        println!("solver {} score tt_mib={}", kind.name(), options.tt_mib);
        println!("{}", score_line(&pos, &solver.solve_score(&pos, &limits)));
    }
    Ok(ExitCode::SUCCESS)
}
