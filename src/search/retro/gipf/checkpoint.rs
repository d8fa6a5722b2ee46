//! retro2's files: checkpoint directories, the cells of solved layers, spilled hidden edges,
//! and solved tables found again by a later run.

#[allow(clippy::wildcard_imports)]
use super::*;

/// File that marks a checkpoint directory whose every layer is solved (one line: the root in
/// one-line form and the number of reachable positions).
pub(super) const COMPLETE: &str = "complete";

/// The start of the names of the checkpoint directories of `root`'s parameters (`gipf-sym-`
/// for tables of classes under the board's symmetries).
pub(super) fn dir_prefix(model: &GipfModel, root: &Gipf) -> String {
    let kind = if model.symmetric() { "gipf-sym" } else { "gipf" };
    format!("{kind}-reach-{:?}-", root.params())
}

/// The directory of the checkpoints of `root` under `base`.
pub(super) fn checkpoint_dir(base: &Path, model: &GipfModel, root: &Gipf) -> PathBuf {
    let key = root.exact_key().expect("the index has exact keys");
    base.join(format!("{}{key:032x}", dir_prefix(model, root)))
}

/// A table solved earlier (a checkpoint directory under `base` of the same parameters, marked
/// [`COMPLETE`]) whose positions include `root`, and its reachable sets. Values do not depend
/// on the root a table was built from, and the set is closed under moves, so the table
/// answers `root` and every position below it. The colour-swapped start of a variant is often
/// in the table of the other colour's start (on S = 2 the two sets are equal).
pub(super) fn solved_table_holding(
    base: &Path,
    model: &GipfModel,
    root: &Gipf,
) -> Option<(PathBuf, Vec<KeySet>)> {
    let prefix = dir_prefix(model, root);
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(base)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(&prefix))
                && p.join(COMPLETE).is_file()
        })
        .collect();
    dirs.sort();
    let (l0, r0) = model.rank_of(root)?;
    let count = model.layers.index.layer_count();
    dirs.into_iter().find_map(|d| {
        let sets = sparse::load_reach(&d, count)?;
        sets.get(l0)?.find(r0)?;
        log(&format!("retro2: answered from the solved table in {}", d.display()));
        Some((d, sets))
    })
}

pub(super) fn save_cells(dir: &Path, layer: usize, cells: &[u16]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!("layer-{layer}.cells"));
    let tmp = path.with_extension("tmp");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        for c in cells {
            f.write_all(&c.to_le_bytes())?;
        }
        f.into_inner().map_err(std::io::IntoInnerError::into_error)?.sync_all()?;
    }
    std::fs::rename(tmp, path)
}

/// When a layer's hidden edges are spilled: with a checkpoint directory, a layer of more than
/// `from` positions is scanned in ranges of `range` positions, its hidden edges written to a
/// file and then grouped by child ([`Hidden::Grouped`]: 4 bytes per edge instead of 8, and
/// the pairs never all in memory at once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spilling {
    /// Layers of more positions than this are spilled.
    pub from: u64,
    /// Positions per range scanned.
    pub range: u64,
}

impl Spilling {
    /// The default: layers of more than 2^26 positions, in ranges of 2^25.
    pub const DEFAULT: Spilling = Spilling { from: 1 << 26, range: 1 << 25 };
}

/// Solves `layer` (of `n` reachable positions) scanning it range by range, its hidden edges
/// spilled to `dir/layer-<layer>.hidden` and grouped; returns its cells and the number of
/// hidden edges.
pub(super) fn solve_spilled(
    model: &SparseModel<'_>,
    (layer, n, range): (usize, u64, u64),
    later: &[&[u16]],
    dir: &Path,
    control: &Control<'_>,
) -> Result<(Vec<u16>, u64), Fail> {
    let gave_up = |why: String| Fail::Unknown(Unknown::GaveUp(why));
    let path = dir.join(format!("layer-{layer}.hidden"));
    let mut spill =
        Spill::create(&path).map_err(|e| gave_up(format!("{}: {e}", path.display())))?;
    let mut cells: Vec<u16> = zeroed_huge(n as usize);
    let mut counts: Vec<u8> = zeroed_huge(n as usize);
    let mut start = 0;
    while start < n {
        let end = (start + range.max(1)).min(n);
        let part =
            scan_range(model, layer, start..end, later, None, control).map_err(Fail::Engine)?;
        let at = start as usize..end as usize;
        cells[at.clone()].copy_from_slice(&part.cells);
        counts[at].copy_from_slice(&part.counts);
        for edges in &part.hidden {
            spill.write(edges).map_err(|e| gave_up(format!("{}: {e}", path.display())))?;
        }
        start = end;
    }
    let hidden = spill.len();
    let grouped = spill.group(n).map_err(|e| gave_up(format!("{}: {e}", path.display())))?;
    let c = propagate_with(model, layer, (cells, counts, Hidden::Grouped(grouped)), control)
        .map_err(Fail::Engine)?;
    Ok((c, hidden))
}

/// How a solved layer's cells are kept: with a checkpoint directory, written to their file
/// and mapped from it; else in memory.
pub(super) fn keep_cells(
    dir: Option<&Path>,
    layer: usize,
    cells: Vec<u16>,
) -> Result<KeptCells, Fail> {
    let Some(d) = dir else {
        return Ok(Box::new(cells));
    };
    let gave_up = |why: String| Fail::Unknown(Unknown::GaveUp(why));
    save_cells(d, layer, &cells).map_err(|e| gave_up(format!("writing a checkpoint: {e}")))?;
    let n = cells.len() as u64;
    drop(cells);
    load_cells(d, layer, n).ok_or_else(|| gave_up(format!("mapping layer {layer}'s cells")))
}

/// The cells of a solved layer, mapped from its checkpoint file (`None` if it is missing or
/// of the wrong length).
pub(super) fn load_cells(dir: &Path, layer: usize, len: u64) -> Option<KeptCells> {
    MappedCells::open(&dir.join(format!("layer-{layer}.cells")), len).ok()
}
