//! GIPF on the one retrograde driver: the [`Strong`] adapter [`GipfStrong`] of a root, and
//! the table files' locator ([`Tablebase`]).
//!
//! A GIPF table keeps the positions reachable from its root (classes of them under the
//! board's symmetries with `symmetry=1`): per layer a [`KeySet`] of ranks and one 16-bit cell
//! (value and distance) per rank of the set. Its description: `game=gipf`, `params` (`S K GW
//! GB`), `totals` (each side's pieces, board and reserve, at the root), `symmetry` (0 or 1)
//! and `root` (the position it was built from, in one-line form). Values do not depend on the
//! root: any position of the same parameters whose totals are at most the table's is in its
//! index, and is in the table when the root reaches it. A position whose white parameters
//! exceed its black ones (`GW > GB`) is looked up as its colour-swapped position, as retro2
//! solves it.

use super::sparse::{self, KeySet, ReachRun, ReachStop, SparseModel};
use super::{GipfModel, Spilling, positions_of};
use crate::game::capability::{Locator, Tablebase};
use crate::games::gipf::Gipf;
use crate::notation::Notation;
use crate::search::retro::file::{CellFormat, Description, Form, TableError, TableFile};
use crate::search::retro::layers::Tally;
use crate::search::retro::model::LayerModel;
use crate::search::retro::store::Parts;
use crate::search::retro::strong::{ReachLimits, Strong, StrongError};
use crate::search::retro::values::{DRAW, LOSS, PackedValues, WIN, cell};

/// A GIPF root strongly solved over the positions it reaches.
#[derive(Clone, Debug)]
pub struct GipfStrong {
    model: GipfModel,
    root: Gipf,
    spilling: Spilling,
}

impl GipfStrong {
    /// The adapter of `root` (its colour-swapped position when `GW > GB`), on classes under
    /// the board's symmetries with `symmetry`.
    ///
    /// # Errors
    /// Boards of more than 64 cells (`S >= 6`).
    pub fn new(root: &Gipf, symmetry: bool, spilling: Spilling) -> Result<Self, StrongError> {
        let [_, _, gw, gb] = root.params();
        let root = if gw > gb { root.colour_swapped() } else { root.clone() };
        let model = GipfModel::new(&root).ok_or_else(|| {
            StrongError::Other("retro2 indexes GIPF boards of at most 64 cells (S <= 5)".into())
        })?;
        let model = if symmetry { model.with_symmetry() } else { model };
        Ok(GipfStrong { model, root, spilling })
    }

    /// The model.
    pub fn model(&self) -> &GipfModel {
        &self.model
    }

    /// The root (colour-swapped when `GW > GB`).
    pub fn root_position(&self) -> &Gipf {
        &self.root
    }

    /// The positions the classes of `sets` stand for (the sum of their orbits under the
    /// board's symmetries; the number of classes without symmetry).
    pub fn positions(&self, sets: &[KeySet]) -> u64 {
        positions_of(&self.model, sets)
    }
}

impl Strong for GipfStrong {
    type Set = KeySet;
    type Solving<'a> = SparseModel<'a>;

    fn layers(&self) -> usize {
        self.model.layers_index().index.layer_count()
    }

    fn indexed(&self) -> u64 {
        self.model.layers_index().index.total_size()
    }

    fn cell_format(&self) -> CellFormat {
        CellFormat::Cells16
    }

    fn form(&self) -> Form {
        Form::Keys
    }

    fn description(&self) -> Description {
        let st = self.root.state();
        let [s, k, gw, gb] = self.root.params();
        Description::default()
            .with("game", "gipf")
            .with("params", format!("{s} {k} {gw} {gb}"))
            .with(
                "totals",
                format!(
                    "{} {}",
                    st.board.first.count() + st.reserve.first,
                    st.board.second.count() + st.reserve.second
                ),
            )
            .with("symmetry", u8::from(self.model.symmetric()).to_string())
            .with("root", self.root.format_position())
    }

    fn reach(
        &self,
        parts: Option<&Parts>,
        limits: &ReachLimits<'_>,
    ) -> Result<Vec<KeySet>, StrongError> {
        let root = self.model.rank_of(&self.root).expect("the root is in its own index");
        let stopped = || {
            if let Some(p) = limits.control.progress {
                p(0);
            }
            limits.control.stopped()
        };
        let run = ReachRun {
            cap: limits.cap,
            budget: limits.budget,
            stopped: &stopped,
            log: limits.log,
            checkpoint: parts.map(Parts::dir),
        };
        sparse::reach(&self.model, root, &run).map_err(|e| match e {
            ReachStop::Stopped => {
                StrongError::Engine(crate::search::retro::solve::EngineError::Stopped)
            }
            ReachStop::TooMany(n) => StrongError::TooMany(n, limits.cap),
            ReachStop::Budget(b) => StrongError::Budget(b, limits.budget),
            ReachStop::Io(e) => StrongError::Io(format!("writing a checkpoint: {e}")),
        })
    }

    fn load_reach(&self, parts: &Parts) -> Result<Vec<KeySet>, StrongError> {
        sparse::load_reach(parts.dir(), self.layers()).ok_or_else(|| {
            StrongError::Other(format!(
                "{}: no reachable sets (run `table reach` first)",
                parts.dir().display()
            ))
        })
    }

    fn save_reach(&self, parts: &Parts, sets: &[KeySet]) -> Result<(), StrongError> {
        sparse::save_reach(parts.dir(), sets).map_err(StrongError::from)
    }

    fn solving<'a>(&'a self, sets: &'a [KeySet]) -> SparseModel<'a> {
        SparseModel { model: &self.model, sets }
    }

    fn only<'s>(&self, _set: &'s KeySet) -> Option<&'s PackedValues> {
        None
    }

    fn is_empty(&self, set: &KeySet) -> bool {
        set.is_empty()
    }

    fn set_bytes(&self, set: &KeySet) -> Vec<u8> {
        let mut bytes = Vec::new();
        set.write_to(&mut bytes).expect("writing to memory");
        bytes
    }

    fn tally(&self, cells: &[u16], _set: &KeySet) -> Tally {
        let mut t = Tally { positions: cells.len() as u64, ..Tally::default() };
        for &c in cells {
            match cell::value(c) {
                WIN => t.wins += 1,
                LOSS => t.losses += 1,
                DRAW => t.draws += 1,
                _ => {}
            }
        }
        t
    }

    fn root(&self, sets: &[KeySet]) -> (usize, u64) {
        let (l, r) = self.model.rank_of(&self.root).expect("the root is in its own index");
        (l, u64::from(sets[l].find(r).expect("the root is reachable")))
    }

    /// The sets, and for the layer being solved 2 bytes of cell and 1 byte of counter per
    /// position (8 bytes per hidden edge are not known before the layer is scanned); with the
    /// solved layers in memory, 2 bytes per reachable position. Before the reachability pass:
    /// nothing (that pass has its own budget).
    fn memory(&self, sets: Option<&[KeySet]>, mapped: bool) -> u64 {
        let Some(sets) = sets else { return 0 };
        let keys: u64 = sets.iter().map(KeySet::bytes).sum();
        let reachable: u64 = sets.iter().map(|s| s.len() as u64).sum();
        let largest = sets.iter().map(|s| s.len() as u64).max().unwrap_or(0);
        keys + if mapped { 0 } else { 2 * reachable } + 3 * largest
    }

    fn spilling(&self) -> Option<(u64, u64)> {
        Some((self.spilling.from, self.spilling.range))
    }
}

impl Tablebase for Gipf {
    /// Checks the description (game, parameters, symmetry) and that every layer holds a set.
    fn locator(table: &TableFile) -> Result<Locator<Self>, TableError> {
        let desc = table.description();
        let game = desc.require("game")?;
        if game != "gipf" {
            return Err(TableError::Mismatch(format!(
                "the table is of {game}, the position of gipf"
            )));
        }
        let root = Gipf::parse_position(desc.require("root")?)
            .map_err(|e| TableError::Bad(format!("the table's root: {e}")))?;
        let symmetry = desc.require("symmetry")? == "1";
        let model = GipfModel::new(&root)
            .ok_or_else(|| TableError::Bad("the table's root is not on an indexed board".into()))?;
        let model = if symmetry { model.with_symmetry() } else { model };
        let layers = table.layers();
        if layers.len() != model.layers()
            || layers.iter().any(|e| e.form != Form::Keys)
            || table.format() != CellFormat::Cells16
        {
            return Err(TableError::Bad(format!(
                "{} layers of cells by key expected, the file has another layout",
                model.layers()
            )));
        }
        let params = root.params();
        let layers = model.layers_index().clone();
        let position = Box::new(move |layer, rank| layers.gipf(&layers.index.unrank(layer, rank)));
        let locate = Box::new(move |pos: &Gipf| {
            let swapped;
            let pos = if pos.params() == params {
                pos
            } else {
                let [s, k, gw, gb] = pos.params();
                if [s, k, gb, gw] != params {
                    return Err(TableError::Mismatch(format!(
                        "the table is of S K GW GB = {params:?}, the position of {:?}",
                        pos.params()
                    )));
                }
                swapped = pos.colour_swapped();
                &swapped
            };
            model.rank_of(pos).ok_or_else(|| {
                TableError::Mismatch("the position has more pieces than the table's root".into())
            })
        });
        Ok(Locator { locate, position })
    }
}
