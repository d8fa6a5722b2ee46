//! `bitsolve solve --score`: exact final scores of [`Scored`] games (Gauss), one position or
//! dataset files, with the score solvers of [`bitsolve::search::score`].
//!
//! Result line: `score=<n|unknown> move=<best|none> nodes=.. time_ms=.. ...`; with files each
//! line is prefixed by the position's id and the solver.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use bitsolve::dataset::read_dataset;
use bitsolve::search::score::{ScoreReport, make_score_solver};
use bitsolve::{GameKind, Notation, Scored, SolverKind, with_scored_game};

use super::SearchArgs;

/// What `solve --score` was asked for.
pub struct ScoreJob<'a> {
    /// The game.
    pub game: GameKind,
    /// One position, or `None` for files.
    pub position: Option<&'a str>,
    /// Moves to play from `position` first.
    pub moves: &'a [String],
    /// Dataset files.
    pub files: &'a [PathBuf],
    /// The solvers (`alphabeta`: alpha-beta over scores; `brute`: minimax; `pns`, `dfpn`:
    /// bisection over thresholds).
    pub solvers: &'a [SolverKind],
    /// Table size, limits.
    pub search: &'a SearchArgs,
}

/// Runs the job.
pub fn run(job: &ScoreJob<'_>) -> Result<ExitCode> {
    with_scored_game!(job.game, G => run_scored::<G>(job), {
        bail!("--score needs a game with a final score (gauss); {} has none", job.game)
    })
}

/// The result line of a score solve.
pub fn score_line<G: Notation + Scored>(pos: &G, report: &ScoreReport<G::Move>) -> String {
    format!(
        "score={} move={} {}",
        report.score.map_or_else(|| "unknown".to_string(), |s| s.to_string()),
        report.best_move.map_or_else(|| "none".to_string(), |m| pos.format_move(m)),
        report.stats
    )
}

fn run_scored<G: Notation + Scored>(job: &ScoreJob<'_>) -> Result<ExitCode> {
    let options = job.search.options::<G>();
    let limits = job.search.limits();
    let mut solvers: Vec<_> =
        job.solvers.iter().map(|&k| (k, make_score_solver::<G>(k, &options))).collect();
    if let Some(text) = job.position {
        let pos: G = super::load_position(text, job.moves)?;
        println!("game {} position {}", job.game, pos.format_position());
        for (kind, solver) in &mut solvers {
            println!("solver {} score tt_mib={}", kind.name(), options.tt_mib);
            println!("{}", score_line(&pos, &solver.solve_score(&pos, &limits)));
        }
        return Ok(ExitCode::SUCCESS);
    }
    if job.files.is_empty() {
        bail!("nothing to solve: give --position or dataset files");
    }
    let mut bad = 0;
    for path in job.files {
        let text =
            fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let (entries, errors) = read_dataset(&text);
        for e in &errors {
            eprintln!("{}: {e}", path.display());
        }
        bad += errors.len();
        for entry in &entries {
            let pos = match G::parse_position(&entry.position) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("{}: line {}: {}", path.display(), entry.line, e.message);
                    bad += 1;
                    continue;
                }
            };
            for (kind, solver) in &mut solvers {
                let report = solver.solve_score(&pos, &limits);
                println!("{}\t{}\t{}", entry.id, kind.name(), score_line(&pos, &report));
            }
        }
    }
    if bad > 0 {
        eprintln!("{bad} bad line(s) skipped");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
