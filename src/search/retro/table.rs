//! The table solver (`--solver table --table FILE`): answers from a solved Ataxx table file
//! ([`super::store`]) instead of searching.
//!
//! The value of a position is one lookup (its layer and rank, [`AtaxxIndex`]); a best move is
//! found by one-ply lookups: at a win, a move to a position lost for the opponent; at a draw,
//! a move to a draw; at a loss, any move (every move loses). Distances are not stored in
//! table files, so the report has no plies. A position of another board or rule set, or one
//! the table left out (not reachable from the start it was built from, value 0), is
//! `unknown`, with the reason on standard error (once per solver).
//!
//! The table is opened once per process ([`install`]) and shared by every solver made after
//! it (`make_solver` takes no file name); [`TableSolver::with_table`] uses a given one.

use std::any::Any;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Instant;

use super::store::TableFile;
use super::values;
use crate::game::{Game, Outcome};
use crate::games::ataxx::index::AtaxxIndex;
use crate::games::ataxx::{Ataxx, AtaxxMove};
use crate::search::{Limits, Report, Solver, Stats, Unknown};
use crate::unmove::LayeredIndex;

/// Why a table has no answer for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// No table was opened (`--table FILE` missing).
    NoTable,
    /// The game is not Ataxx.
    NotAtaxx,
    /// The table is for the other rule set.
    OtherRules {
        /// Whether the table is for the Polish rules.
        table_polish: bool,
    },
    /// The position is on another board (size or blocked squares).
    OtherBoard,
    /// The position is not in the table (value 0: not reachable from the table's start).
    NotInTable,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::NoTable => write!(f, "no table file given (--table FILE)"),
            TableError::NotAtaxx => write!(f, "table files exist for ataxx and ataxx-polish only"),
            TableError::OtherRules { table_polish } => write!(
                f,
                "the table is for the {} rules, the position for the other rule set",
                if *table_polish { "polish" } else { "standard" }
            ),
            TableError::OtherBoard => {
                write!(f, "the position is not on the table's board (size or blocked squares)")
            }
            TableError::NotInTable => write!(
                f,
                "the position is not in the table (not reachable from the start it was built from)"
            ),
        }
    }
}

impl std::error::Error for TableError {}

/// A table file with the index of its board, ready for lookups.
#[derive(Debug)]
pub struct AtaxxTable {
    file: TableFile,
    standard: Option<AtaxxIndex<false>>,
    polish: Option<AtaxxIndex<true>>,
}

impl AtaxxTable {
    /// Opens (memory-maps) and checks the table file `path`.
    ///
    /// # Errors
    /// If it cannot be read or is not a whole table file, with what is wrong.
    pub fn open(path: &Path) -> std::io::Result<AtaxxTable> {
        Ok(AtaxxTable::new(TableFile::open(path)?))
    }

    /// The table of an opened file.
    pub fn new(file: TableFile) -> AtaxxTable {
        let h = file.header();
        let (standard, polish) = if h.polish {
            (None, Some(AtaxxIndex::new(h.width, h.height, h.valid)))
        } else {
            (Some(AtaxxIndex::new(h.width, h.height, h.valid)), None)
        };
        AtaxxTable { file, standard, polish }
    }

    /// The file.
    pub fn file(&self) -> &TableFile {
        &self.file
    }

    fn index<const POLISH: bool>(&self) -> Result<&AtaxxIndex<POLISH>, TableError> {
        let any: &dyn Any = if POLISH { &self.polish } else { &self.standard };
        any.downcast_ref::<Option<AtaxxIndex<POLISH>>>()
            .and_then(Option::as_ref)
            .ok_or(TableError::OtherRules { table_polish: self.file.header().polish })
    }

    /// The 2-bit value of `pos` ([`values`] codes; 0: not in the table).
    ///
    /// # Errors
    /// Another rule set or board.
    pub fn code<const POLISH: bool>(&self, pos: &Ataxx<POLISH>) -> Result<u8, TableError> {
        let (layer, rank) = self.index::<POLISH>()?.rank(pos).ok_or(TableError::OtherBoard)?;
        self.file.value(layer, rank).map_err(|_| TableError::OtherBoard)
    }

    /// The value of `pos` and a move that keeps it (one-ply lookups; `None` at a finished
    /// position).
    ///
    /// # Errors
    /// Another rule set or board, or a position not in the table.
    pub fn answer<const POLISH: bool>(
        &self,
        pos: &Ataxx<POLISH>,
    ) -> Result<(Outcome, Option<AtaxxMove>), TableError> {
        let v = self.code(pos)?;
        let outcome = values::outcome(v).ok_or(TableError::NotInTable)?;
        if pos.outcome().is_some() {
            return Ok((outcome, None));
        }
        let want = match v {
            values::WIN => values::LOSS,
            values::LOSS => values::WIN,
            _ => values::DRAW,
        };
        let mut moves = <Ataxx<POLISH> as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        let mut best = None;
        for &m in &moves {
            let mut child = pos.clone();
            child.play(m);
            if self.code(&child)? == want {
                best = Some(m);
                break;
            }
        }
        Ok((outcome, best))
    }
}

/// The table shared by the solvers of this process.
static CURRENT: RwLock<Option<Arc<AtaxxTable>>> = RwLock::new(None);

/// Makes `table` the one [`TableSolver::new`] uses (`None`: no table).
pub fn install(table: Option<Arc<AtaxxTable>>) {
    *CURRENT.write().unwrap_or_else(PoisonError::into_inner) = table;
}

/// The installed table.
pub fn installed() -> Option<Arc<AtaxxTable>> {
    CURRENT.read().unwrap_or_else(PoisonError::into_inner).clone()
}

/// The table solver: one lookup and one ply of lookups per position, no search.
#[derive(Debug, Default)]
pub struct TableSolver {
    table: Option<Arc<AtaxxTable>>,
}

impl TableSolver {
    /// A solver on the installed table ([`install`]), if any.
    pub fn new() -> Self {
        TableSolver { table: installed() }
    }

    /// A solver on `table`.
    pub fn with_table(table: Arc<AtaxxTable>) -> Self {
        TableSolver { table: Some(table) }
    }

    /// The answer for `root`, any game.
    ///
    /// # Errors
    /// See [`TableError`].
    pub fn lookup<G: Game>(&self, root: &G) -> Result<(Outcome, Option<G::Move>), TableError> {
        let table = self.table.as_deref().ok_or(TableError::NoTable)?;
        let any: &dyn Any = root;
        let (outcome, best) = if let Some(pos) = any.downcast_ref::<Ataxx<false>>() {
            table.answer(pos)?
        } else if let Some(pos) = any.downcast_ref::<Ataxx<true>>() {
            table.answer(pos)?
        } else {
            return Err(TableError::NotAtaxx);
        };
        let best = best.and_then(|m| (&m as &dyn Any).downcast_ref::<G::Move>().copied());
        Ok((outcome, best))
    }
}

impl<G: Game> Solver<G> for TableSolver {
    /// Looks `root` up; `unknown` with the reason if the table has no answer.
    fn solve(&mut self, root: &G, _limits: &Limits) -> Report<G::Move> {
        let start = Instant::now();
        let answer = self.lookup(root);
        let stats = Stats { nodes: 1, elapsed: start.elapsed(), ..Stats::default() };
        match answer {
            Ok((outcome, best_move)) => Report::solved(outcome, None, best_move, stats),
            Err(e) => Report::unknown_because(Unknown::Unsupported(format!("table: {e}")), stats),
        }
    }
}
