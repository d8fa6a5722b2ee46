//! What a game gives the one retrograde driver ([`super::driver`]) to be strongly solved: the
//! [`Strong`] adapter of a root.
//!
//! An adapter says how to find the positions reachable from its root, layer by layer (the
//! game's own reachability pass, with its checkpoints), and shows the engine
//! ([`super::solve`]) those positions as a [`LayerModel`]; the driver does the rest for every
//! game alike: the layer loop, checkpoints and resume, memory budget, sharded steps, the table
//! file and its checks. Ataxx ([`super::ataxx`]) keeps every rank of its index (dense
//! layers, 2-bit values); GIPF ([`super::gipf`]) keeps the reachable ranks in a
//! [`super::keyset::KeySet`] per layer, with 16-bit cells (value and distance). Reading a
//! table back is the game's [`crate::game::capability::Tablebase`] capability.

use super::file::{CellFormat, Description, Form};
use super::layers::Tally;
use super::model::LayerModel;
use super::solve::Control;
use super::store::Parts;
use super::values::PackedValues;

/// Why a driver step failed.
#[derive(Debug)]
pub enum StrongError {
    /// The engine stopped or failed ([`super::solve::EngineError`]).
    Engine(super::solve::EngineError),
    /// More positions than allowed: this many were reached, the cap.
    TooMany(u64, u64),
    /// The run needs more memory than its budget: bytes needed, budget.
    Budget(u64, u64),
    /// A file could not be read or written, or was wrong.
    Io(String),
    /// Anything else, with the reason.
    Other(String),
}

impl std::fmt::Display for StrongError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StrongError::Engine(e) => write!(f, "{e}"),
            StrongError::TooMany(n, cap) => write!(f, "{n} positions reached, more than {cap}"),
            StrongError::Budget(need, budget) => write!(
                f,
                "the run needs about {:.2} GiB, over the budget of {:.2} GiB",
                *need as f64 / f64::from(1 << 30),
                *budget as f64 / f64::from(1 << 30)
            ),
            StrongError::Io(e) | StrongError::Other(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for StrongError {}

impl From<super::solve::EngineError> for StrongError {
    fn from(e: super::solve::EngineError) -> Self {
        StrongError::Engine(e)
    }
}

impl From<std::io::Error> for StrongError {
    fn from(e: std::io::Error) -> Self {
        StrongError::Io(e.to_string())
    }
}

/// Limits and hooks of a reachability pass.
pub struct ReachLimits<'a> {
    /// Most positions (more: [`StrongError::TooMany`]).
    pub cap: u64,
    /// Most bytes for the sets ([`StrongError::Budget`]).
    pub budget: u64,
    /// Progress and the stop flag.
    pub control: &'a Control<'a>,
    /// Progress lines (`--progress`).
    pub log: &'a (dyn Fn(&str) + Sync),
}

/// A root the layered engine strongly solves: everything but the layer loop.
pub trait Strong: Sync {
    /// One layer's reachable positions.
    type Set: Send + Sync;
    /// The engine's view of the reachable positions: a layer's cells are numbered as this
    /// model numbers its positions.
    type Solving<'a>: LayerModel
    where
        Self: 'a;

    /// Number of layers.
    fn layers(&self) -> usize;

    /// Positions of the whole index (for progress and the memory estimate).
    fn indexed(&self) -> u64;

    /// How the table stores its cells.
    fn cell_format(&self) -> CellFormat;

    /// How a layer's cells map to ranks in the table.
    fn form(&self) -> Form;

    /// What the table file says about its game and root (checked when the file is read back,
    /// [`crate::game::capability::Tablebase::locator`]).
    fn description(&self) -> Description;

    /// The positions reachable from the root, per layer; with `parts`, the game keeps its
    /// reachability checkpoints there and resumes from them.
    ///
    /// # Errors
    /// See [`StrongError`].
    fn reach(
        &self,
        parts: Option<&Parts>,
        limits: &ReachLimits<'_>,
    ) -> Result<Vec<Self::Set>, StrongError>;

    /// The reachable sets of a finished pass stored in `parts` (`table reach`), if there.
    ///
    /// # Errors
    /// A missing or damaged file.
    fn load_reach(&self, parts: &Parts) -> Result<Vec<Self::Set>, StrongError>;

    /// Stores the reachable sets in `parts` (`table reach` of a sharded build).
    ///
    /// # Errors
    /// A write error.
    fn save_reach(&self, parts: &Parts, sets: &[Self::Set]) -> Result<(), StrongError>;

    /// The engine's model over `sets`.
    fn solving<'a>(&'a self, sets: &'a [Self::Set]) -> Self::Solving<'a>;

    /// The positions of a layer the engine solves, among those of the model (`None`: all).
    fn only<'s>(&self, set: &'s Self::Set) -> Option<&'s PackedValues>;

    /// Whether nothing of the layer is reachable (its cells are then all skipped).
    fn is_empty(&self, set: &Self::Set) -> bool;

    /// The bytes of a layer's set in the table file (empty for a dense layer).
    fn set_bytes(&self, set: &Self::Set) -> Vec<u8>;

    /// The reachable positions of a solved layer by value.
    fn tally(&self, cells: &[u16], set: &Self::Set) -> Tally;

    /// The layer and cell number of the root in the solving model.
    fn root(&self, sets: &[Self::Set]) -> (usize, u64);

    /// Bytes of memory the layer loop needs at its peak, with the solved layers in memory or
    /// (`mapped`) read through maps of their files; before the reachability pass
    /// (`sets` `None`) an estimate from the index.
    fn memory(&self, sets: Option<&[Self::Set]>, mapped: bool) -> u64;

    /// Layers of more positions than this have their hidden edges spilled to a file while
    /// they are scanned in ranges of the second number of positions (with a checkpoint
    /// directory). Default: never.
    fn spilling(&self) -> Option<(u64, u64)> {
        None
    }
}
