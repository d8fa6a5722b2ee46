//! Ataxx on the one retrograde driver: [`AtaxxModel`] (the engine's view of one board: layer
//! `k` holds the positions with `k` stones, [`AtaxxIndex`]), the [`Strong`] adapter
//! [`AtaxxStrong`] of a board's four-corner start, and the table files' locator
//! ([`Tablebase`]).
//!
//! A table of an Ataxx board is dense (every rank of the index has a cell) with 2-bit values;
//! the positions not reachable from the start, either side to move, have value 0 (not in the
//! table). Its description: `game` (`ataxx` or `ataxx-polish`), `board` (`RxC`), `width`,
//! `height`, `valid` (the valid squares, stride-8 bitboard in hex) and `root` (the start).

use super::driver::Hooks;
use super::file::{CellFormat, Description, Form, TableError, TableFile};
use super::layers::{Tally, reachable};
use super::model::{LayerModel, Propagation};
use super::store::Parts;
use super::strong::{ReachLimits, Strong, StrongError};
use super::values::PackedValues;
use crate::game::Outcome;
use crate::game::capability::{Locator, Tablebase};
use crate::games::ataxx::index::AtaxxIndex;
use crate::games::ataxx::{Ataxx, unmove};
use crate::notation::Notation;
use crate::unmove::LayeredIndex;

/// Ataxx on one board: layer `k` holds the positions with `k` stones ([`AtaxxIndex`]).
#[derive(Clone, Debug)]
pub struct AtaxxModel<const POLISH: bool> {
    index: AtaxxIndex<POLISH>,
    propagation: Propagation,
}

impl<const POLISH: bool> AtaxxModel<POLISH> {
    /// The model of the board of `index`.
    pub fn new(index: AtaxxIndex<POLISH>) -> Self {
        AtaxxModel { index, propagation: Propagation::Buckets }
    }

    /// The same model with the propagation `propagation` (buckets by default, the faster on
    /// Ataxx; sweeps to check one against the other).
    #[must_use]
    pub fn with_propagation(self, propagation: Propagation) -> Self {
        AtaxxModel { propagation, ..self }
    }

    /// The index.
    pub fn index(&self) -> &AtaxxIndex<POLISH> {
        &self.index
    }
}

impl<const POLISH: bool> LayerModel for AtaxxModel<POLISH> {
    /// The mover's stones and the opponent's.
    type Pos = (u64, u64);

    fn propagation(&self) -> Propagation {
        self.propagation
    }

    fn layers(&self) -> usize {
        self.index.squares() as usize + 1
    }

    fn layer_size(&self, layer: usize) -> u64 {
        self.index.layer_len(layer as u32)
    }

    fn scan(&self, layer: usize, start: u64, end: u64, mut f: impl FnMut(u64, (u64, u64))) {
        if start >= end {
            return;
        }
        let k = layer as u32;
        let full = 1u64 << k;
        let mut pattern = start & (full - 1);
        let mut occ = self.index.colex_unrank(k, start >> k);
        for i in start..end {
            let own = self.index.deposit(pattern, occ);
            f(i, (own, occ ^ own));
            pattern += 1;
            if pattern == full {
                pattern = 0;
                if i + 1 < end {
                    occ = self.index.next_combination(occ);
                }
            }
        }
    }

    fn position(&self, layer: usize, index: u64) -> (u64, u64) {
        self.index.unrank_stones(layer as u32, index)
    }

    #[inline]
    fn outcome(&self, (own, opp): (u64, u64)) -> Option<Outcome> {
        unmove::outcome::<POLISH>(own, opp, self.index.valid())
    }

    #[inline]
    fn for_each_next_child(&self, (own, opp): (u64, u64), mut f: impl FnMut(u64)) {
        unmove::for_each_clone_child(own, opp, self.index.valid(), |a, b| {
            f(self.index.rank_in_layer(a, b));
        });
    }

    #[inline]
    fn for_each_layer_child(&self, (own, opp): (u64, u64), mut f: impl FnMut(u64)) {
        unmove::for_each_layer_child::<POLISH>(own, opp, self.index.valid(), |a, b| {
            f(self.index.rank_in_layer(a, b));
        });
    }

    #[inline]
    fn layer_children(&self, (own, opp): (u64, u64)) -> u32 {
        unmove::layer_children::<POLISH>(own, opp, self.index.valid())
    }

    /// One colex rank per un-jump square pair: the converted stones only change the
    /// pattern bits, and `pext` is linear, so each subset of them is one XOR.
    #[inline]
    fn for_each_layer_parent(&self, (own, opp): (u64, u64), mut f: impl FnMut(u64)) {
        unmove::for_each_layer_parent_group::<POLISH>(
            own,
            opp,
            self.index.valid(),
            |mover, other, flippable| {
                let occ = mover | other;
                let base = self.index.colex_rank(occ) << occ.count_ones();
                let pattern = self.index.pattern(mover, occ);
                let flips = self.index.pattern(flippable, occ);
                let mut s = 0u64;
                loop {
                    if other != 0 || s != 0 {
                        f(base | (pattern ^ s));
                    }
                    s = s.wrapping_sub(flips) & flips;
                    if s == 0 {
                        break;
                    }
                }
            },
        );
    }
}

/// Peak bytes of a run on the layers `sizes`: all reachability sets (2 bits per position),
/// then per layer its cells and counters, bucket entries (estimated at one per position of
/// the layer) and, unless `mapped` (read through a memory map of its file), the next layer's
/// cells.
pub fn memory_estimate(sizes: &[u64], mapped: bool) -> u64 {
    let total: u64 = sizes.iter().sum();
    let reach = total / 4;
    let next = if mapped { 0 } else { 2 };
    let layer = (0..sizes.len())
        .map(|k| sizes[k] * (2 + 1 + 4) + sizes.get(k + 1).copied().unwrap_or(0) * next)
        .max()
        .unwrap_or(0);
    reach + layer
}

/// The name of a rule set in a table's description.
const fn game_name(polish: bool) -> &'static str {
    if polish { "ataxx-polish" } else { "ataxx" }
}

/// The description of the table of a board (`width`, `height`, valid squares) and its start.
fn board_description(
    polish: bool,
    (width, height, valid): (u32, u32, u64),
    root: String,
) -> Description {
    Description::default()
        .with("game", game_name(polish))
        .with("board", format!("{height}x{width}"))
        .with("width", width.to_string())
        .with("height", height.to_string())
        .with("valid", format!("{valid:#x}"))
        .with("root", root)
}

/// A board of Ataxx strongly solved from its four-corner start.
#[derive(Clone, Debug)]
pub struct AtaxxStrong<const POLISH: bool> {
    model: AtaxxModel<POLISH>,
    start: Ataxx<POLISH>,
    ranks: u32,
    files: u32,
    sizes: Vec<u64>,
}

impl<const POLISH: bool> AtaxxStrong<POLISH> {
    /// The board of `ranks` by `files` squares (2..=7 each, at most
    /// [`crate::games::ataxx::index::MAX_INDEXED`] squares).
    ///
    /// # Errors
    /// A board out of range.
    pub fn new(ranks: u32, files: u32) -> Result<Self, StrongError> {
        if !(2..=7).contains(&ranks) || !(2..=7).contains(&files) {
            return Err(StrongError::Other(format!(
                "board sides must be 2..=7, got {ranks}x{files}"
            )));
        }
        let max = crate::games::ataxx::index::MAX_INDEXED;
        if ranks * files > max {
            return Err(StrongError::Other(format!("{ranks}x{files} has more than {max} squares")));
        }
        let start = Ataxx::<POLISH>::start(files, ranks);
        let index = AtaxxIndex::<POLISH>::for_position(&start);
        let model = AtaxxModel::new(index);
        let sizes = (0..model.layers()).map(|l| model.layer_size(l)).collect();
        Ok(AtaxxStrong { model, start, ranks, files, sizes })
    }

    /// The model.
    pub fn model(&self) -> &AtaxxModel<POLISH> {
        &self.model
    }

    /// The layer sizes.
    pub fn sizes(&self) -> &[u64] {
        &self.sizes
    }

    /// The start's layer and rank.
    fn start_rank(&self) -> (usize, u64) {
        self.model.index().rank(&self.start).expect("the start is on its board")
    }

    /// Stores the reachable sets in `parts` (one file per layer, then `reach.done`).
    fn save_sets(parts: &Parts, sets: &[PackedValues]) -> Result<(), StrongError> {
        for (layer, set) in sets.iter().enumerate() {
            parts.save_reach(layer, set)?;
        }
        parts.save_file("reach.done", b"")?;
        Ok(())
    }
}

impl<const POLISH: bool> Strong for AtaxxStrong<POLISH> {
    type Set = PackedValues;
    type Solving<'a> = AtaxxModel<POLISH>;

    fn layers(&self) -> usize {
        self.sizes.len()
    }

    fn indexed(&self) -> u64 {
        self.sizes.iter().sum()
    }

    fn cell_format(&self) -> CellFormat {
        CellFormat::Values2
    }

    fn form(&self) -> Form {
        Form::Dense
    }

    fn description(&self) -> Description {
        let valid = self.model.index().valid();
        board_description(POLISH, (self.files, self.ranks, valid), self.start.format_position())
    }

    fn reach(
        &self,
        parts: Option<&Parts>,
        limits: &ReachLimits<'_>,
    ) -> Result<Vec<PackedValues>, StrongError> {
        if let Some(p) = parts
            && p.dir().join("reach.done").exists()
        {
            (limits.log)("retro: reachable sets read from the checkpoint");
            return self.load_reach(p);
        }
        let (layer, rank) = self.start_rank();
        let sets = reachable(&self.model, (layer, rank, 0), limits.control)?;
        if let Some(p) = parts {
            Self::save_sets(p, &sets)?;
        }
        Ok(sets)
    }

    fn load_reach(&self, parts: &Parts) -> Result<Vec<PackedValues>, StrongError> {
        if !parts.dir().join("reach.done").exists() {
            return Err(StrongError::Other(format!(
                "{}: no reachable sets (run `table reach` first)",
                parts.dir().display()
            )));
        }
        (0..self.sizes.len())
            .map(|l| parts.load_reach(l, self.sizes[l]).map_err(StrongError::from))
            .collect()
    }

    fn save_reach(&self, parts: &Parts, sets: &[PackedValues]) -> Result<(), StrongError> {
        Self::save_sets(parts, sets)
    }

    fn solving<'a>(&'a self, _sets: &'a [PackedValues]) -> AtaxxModel<POLISH> {
        self.model.clone()
    }

    fn only<'s>(&self, set: &'s PackedValues) -> Option<&'s PackedValues> {
        Some(set)
    }

    fn is_empty(&self, set: &PackedValues) -> bool {
        set.is_empty()
    }

    fn set_bytes(&self, _set: &PackedValues) -> Vec<u8> {
        Vec::new()
    }

    fn tally(&self, cells: &[u16], set: &PackedValues) -> Tally {
        Tally::of_layer(cells, set)
    }

    fn root(&self, _sets: &[PackedValues]) -> (usize, u64) {
        self.start_rank()
    }

    fn memory(&self, _sets: Option<&[PackedValues]>, mapped: bool) -> u64 {
        memory_estimate(&self.sizes, mapped)
    }
}

impl<const POLISH: bool> Tablebase for Ataxx<POLISH> {
    /// Checks the description (game, board, valid squares) and that every layer is dense of
    /// `C(n, k) 2^k` cells.
    fn locator(table: &TableFile) -> Result<Locator<Self>, TableError> {
        let desc = table.description();
        let game = desc.require("game")?;
        if game != game_name(POLISH) {
            return Err(TableError::Mismatch(format!(
                "the table is of {game}, the position of {}",
                game_name(POLISH)
            )));
        }
        let number = |key: &str| -> Result<u64, TableError> {
            let text = desc.require(key)?;
            let parsed = match text.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => text.parse(),
            };
            parsed.map_err(|_| TableError::Bad(format!("bad `{key}` in the description: `{text}`")))
        };
        let (width, height, valid) = (number("width")?, number("height")?, number("valid")?);
        let rect =
            (0..height.min(8)).fold(0u64, |a, r| a | ((1u64 << width.min(8)) - 1) << (8 * r));
        if !(1..=7).contains(&width)
            || !(1..=7).contains(&height)
            || valid & !rect != 0
            || !AtaxxIndex::<POLISH>::fits(valid)
        {
            return Err(TableError::Bad(
                "the board of the description is not an indexed board".into(),
            ));
        }
        let index = AtaxxIndex::<POLISH>::new(width as u32, height as u32, valid);
        let layers = table.layers();
        if layers.len() != index.layers() {
            return Err(TableError::Bad(format!(
                "{} layers, the board has {}",
                layers.len(),
                index.layers()
            )));
        }
        for (k, e) in layers.iter().enumerate() {
            if e.form != Form::Dense || e.cells != index.layer_size(k) {
                return Err(TableError::Bad(format!(
                    "layer {k} has {} cells, the board {}",
                    e.cells,
                    index.layer_size(k)
                )));
            }
        }
        if table.format() != CellFormat::Values2 {
            return Err(TableError::Bad("an Ataxx table of 16-bit cells".into()));
        }
        let unrank = index.clone();
        Ok(Locator {
            locate: Box::new(move |pos: &Ataxx<POLISH>| {
                index.rank(pos).ok_or_else(|| {
                    TableError::Mismatch(
                        "the position is not on the table's board (size or blocked squares)".into(),
                    )
                })
            }),
            position: Box::new(move |layer, rank| unrank.unrank(layer, rank)),
        })
    }
}

/// The table file's description of a first-format table's header (for `table upgrade`),
/// after checking it as its reader did: rules, board, valid squares and layer sizes.
///
/// # Errors
/// A header that is not a first-format Ataxx table's.
pub fn v1_description(path: &std::path::Path) -> std::io::Result<(Description, Vec<u64>)> {
    let bad = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidData, what);
    let (rules, width, height, valid, sizes) = super::file::read_v1(path)?;
    if rules > 1 || !(1..=7).contains(&width) || !(1..=7).contains(&height) {
        return Err(bad(format!("{}: not a first-format Ataxx table", path.display())));
    }
    let fits =
        if rules == 1 { AtaxxIndex::<true>::fits(valid) } else { AtaxxIndex::<false>::fits(valid) };
    if !fits {
        return Err(bad(format!("{}: the valid squares are not an indexed board", path.display())));
    }
    let index = AtaxxIndex::<false>::new(width, height, valid);
    let want: Vec<u64> = (0..index.layers()).map(|k| index.layer_size(k)).collect();
    if sizes != want {
        return Err(bad(format!("{}: layer sizes are not the board's", path.display())));
    }
    let polish = rules == 1;
    let start = if polish {
        Ataxx::<true>::start(width, height).format_position()
    } else {
        Ataxx::<false>::start(width, height).format_position()
    };
    Ok((board_description(polish, (width, height, valid), start), sizes))
}

/// Solves `ranks` by `files` in memory and returns every layer's cells (for small boards and
/// tests).
///
/// # Errors
/// See [`StrongError`].
pub fn solve_board<const POLISH: bool>(
    ranks: u32,
    files: u32,
) -> Result<Vec<Vec<u16>>, StrongError> {
    let strong = AtaxxStrong::<POLISH>::new(ranks, files)?;
    let options = super::driver::BuildOptions { keep_all: true, ..Default::default() };
    let control = super::solve::Control::default();
    let built =
        super::driver::build(&strong, &options, &Hooks { control: &control, log: &|_| {} })?;
    Ok(built
        .cells
        .into_iter()
        .map(|c| c.map_or_else(Vec::new, |k| (*k).as_ref().to_vec()))
        .collect())
}
