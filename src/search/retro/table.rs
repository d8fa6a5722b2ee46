//! The table solver (`--solver table --table FILE`): answers from a table file
//! ([`super::file`]) instead of searching, for every game with the
//! [`Tablebase`](crate::game::capability::Tablebase) capability (Ataxx in both rule sets,
//! GIPF).
//!
//! The value of a position is one lookup (its layer and rank, from the game's locator); a best
//! move is found by one-ply lookups: at a win, a move to a position lost for the opponent (in
//! one ply fewer when the table stores distances); at a loss, a move to a win for the opponent
//! (one ply fewer with distances, else any); at a draw, a move to a draw. Tables of 2-bit
//! values (Ataxx) have no distances, so the report has no plies; tables of 16-bit cells (GIPF)
//! give them. A position of another game, variant or board, one the table leaves out (not
//! reachable from the position it was built from), or one read from a damaged layer (its
//! checksum differs) is `unknown`, with the reason.
//!
//! The file is opened once (by the command line, [`TableFile::open`]) and shared by the
//! solvers through [`crate::search::SolverOptions::table`].

use std::sync::Arc;
use std::time::Instant;

use super::file::{CellFormat, TableError, TableFile};
use super::values::{self, DRAW, LOSS, WIN, cell};
use crate::game::capability::Locator;
use crate::game::{Game, Outcome};
use crate::search::{Limits, Report, Solver, Stats, Unknown};

/// An answer from a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer<M> {
    /// The value for the side to move.
    pub outcome: Outcome,
    /// Plies to the end with best play (tables with distances; `None` for a draw).
    pub plies: Option<u32>,
    /// A move that keeps the value (`None` at a finished position).
    pub best: Option<M>,
}

/// A table file with the locator of its game, ready for lookups.
pub struct GameTable<G: Game> {
    file: Arc<TableFile>,
    locate: Locator<G>,
}

impl<G: Game> std::fmt::Debug for GameTable<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GameTable({})", self.file.path().display())
    }
}

impl<G: Game> GameTable<G> {
    /// The table `file` read as a table of `G`.
    ///
    /// # Errors
    /// A game without tables, or a table of another game or variant.
    pub fn new(file: Arc<TableFile>) -> Result<Self, TableError> {
        let make = G::CAPABILITIES.table_locator.ok_or_else(|| {
            TableError::Mismatch("table files exist for ataxx, ataxx-polish and gipf only".into())
        })?;
        let locate = make(&file)?;
        Ok(GameTable { file, locate })
    }

    /// The file.
    pub fn file(&self) -> &TableFile {
        &self.file
    }

    /// The stored cell of `pos`.
    ///
    /// # Errors
    /// See [`TableError`].
    pub fn cell(&self, pos: &G) -> Result<u16, TableError> {
        let (layer, rank) = (self.locate.locate)(pos)?;
        self.file.cell(layer, rank)?.ok_or(TableError::NotInTable)
    }

    /// The value of `pos`, its distance if the table has them, and a move that keeps the value
    /// (one-ply lookups).
    ///
    /// # Errors
    /// See [`TableError`].
    pub fn answer(&self, pos: &G) -> Result<Answer<G::Move>, TableError> {
        let c = self.cell(pos)?;
        let v = cell::value(c);
        let outcome = values::outcome(v).ok_or(TableError::NotInTable)?;
        let distances = self.file.format() == CellFormat::Cells16;
        let plies = (distances && v != DRAW).then(|| u32::from(cell::distance(c)));
        if pos.outcome().is_some() {
            return Ok(Answer { outcome, plies, best: None });
        }
        let want = match v {
            WIN => LOSS,
            LOSS => WIN,
            _ => DRAW,
        };
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        let mut best = None;
        for &m in moves.iter() {
            let mut child = pos.clone();
            child.play(m);
            let cc = self.cell(&child)?;
            let keeps = cell::value(cc) == want
                && (!distances || want == DRAW || cell::distance(cc) + 1 == cell::distance(c));
            if keeps {
                best = Some(m);
                break;
            }
        }
        Ok(Answer { outcome, plies, best })
    }
}

/// A position drawn from a table, with its answer.
pub type Sampled<G> = (G, Answer<<G as Game>::Move>);

impl<G: Game> GameTable<G> {
    /// `count` positions of the table drawn uniformly at random (with `seed`) among those it
    /// holds, each with its answer (a damaged layer met on the way is an error).
    ///
    /// # Errors
    /// See [`TableError`]; [`TableError::NotInTable`] for a table that holds no position.
    pub fn sample(&self, count: usize, seed: u64) -> Result<Vec<Sampled<G>>, TableError> {
        let layers = self.file.layers();
        let total: u64 = layers.iter().map(|e| e.cells).sum();
        let mut state = seed;
        let mut next = move || {
            // splitmix64
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut out = Vec::with_capacity(count);
        let mut tries = 0u64;
        while out.len() < count {
            tries += 1;
            if total == 0 || (tries > 1000 && out.is_empty() && tries > 1000 * count as u64) {
                return Err(TableError::NotInTable);
            }
            let mut at = next() % total;
            let layer = layers
                .iter()
                .position(|e| {
                    let here = at < e.cells;
                    if !here {
                        at -= e.cells;
                    }
                    here
                })
                .expect("below the total");
            let rank = match self.file.check_layer(layer)? {
                Some(keys) => keys.rank(at as usize),
                None => at,
            };
            if self.file.cell(layer, rank)?.is_none() {
                continue;
            }
            let pos = (self.locate.position)(layer, rank);
            let answer = self.answer(&pos)?;
            out.push((pos, answer));
        }
        Ok(out)
    }
}

/// The table solver: one lookup and one ply of lookups per position, no search.
#[derive(Debug)]
pub struct TableSolver<G: Game> {
    table: Result<GameTable<G>, TableError>,
}

impl<G: Game> TableSolver<G> {
    /// A solver on `file` (`None`: every answer says that no table was given).
    pub fn new(file: Option<Arc<TableFile>>) -> Self {
        let table = match file {
            Some(f) => GameTable::new(f),
            None => Err(TableError::Mismatch("no table file given (--table FILE)".into())),
        };
        TableSolver { table }
    }

    /// The answer for `root`.
    ///
    /// # Errors
    /// See [`TableError`].
    pub fn lookup(&self, root: &G) -> Result<Answer<G::Move>, TableError> {
        self.table.as_ref().map_err(Clone::clone)?.answer(root)
    }
}

impl<G: Game> Solver<G> for TableSolver<G> {
    /// Looks `root` up; `unknown` with the reason if the table has no answer.
    fn solve(&mut self, root: &G, _limits: &Limits) -> Report<G::Move> {
        let start = Instant::now();
        let answer = self.lookup(root);
        let stats = Stats { nodes: 1, elapsed: start.elapsed(), ..Stats::default() };
        match answer {
            Ok(a) => Report::solved(a.outcome, a.plies, a.best, stats),
            Err(e) => Report::unknown_because(Unknown::Unsupported(format!("table: {e}")), stats),
        }
    }
}
