//! The checkpoints of a table build ([`super::driver`]), for every game alike.
//!
//! # Checkpoints
//!
//! A run writes into the directory `FILE.parts`: per finished layer `K`, `layer-K.cells` (its
//! 16-bit cells with distances), `layer-K.val` (2-bit tables: its packed values) and, last,
//! `layer-K.tally` (its reachable positions by value, one line `positions wins draws
//! losses`): a layer is finished once its tally is there. A 2-bit table drops the cells of a
//! layer once no layer left to solve moves into it; a table of 16-bit cells keeps them (they
//! are the table's bytes). Each file is written under a temporary name and renamed, so a
//! killed run leaves only whole files; a resumed run starts below the lowest layer finished
//! in an unbroken run from the top. The layer that holds the root also writes `root.cell`
//! (its cell, 16 bits). The game keeps its reachability checkpoints in the same directory
//! ([`super::strong::Strong::reach`]).
//!
//! # Sharded builds
//!
//! A build split over processes (or Slurm tasks, `scripts/slurm-table.sh`) shares the same
//! directory on a shared file system:
//!
//! * the reachable sets, written by the reach step ([`super::strong::Strong::save_reach`]);
//! * `layer-K.part-S-of-N`: the scan of shard `S` of `N` of layer `K` (the ranks
//!   [`crate::search::retro::solve::shard_range`]): its 16-bit cells, its 8-bit counters and
//!   its hidden edges;
//! * then, as above, the files of a finished layer once the parts of layer `K` are merged
//!   (the parts are removed).
//!
//! Solved layers can be read through a memory map of their `.cells` file ([`MappedCells`])
//! instead of memory.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use rayon::prelude::*;

use super::file::CellFormat;
use super::layers::KeptCells;
use super::solve::Scanned;
use super::values::{PackedValues, cell};

/// The checkpoint directory of a run writing `table`.
#[derive(Clone, Debug)]
pub struct Parts {
    dir: PathBuf,
}

/// The 2-bit values of `cells` as the little-endian words of the table format.
pub fn pack(cells: &[u16]) -> Vec<u8> {
    cells
        .par_chunks(32)
        .flat_map_iter(|chunk| {
            let word = chunk
                .iter()
                .enumerate()
                .fold(0u64, |w, (j, &c)| w | u64::from(cell::stored(c)) << (2 * j));
            word.to_le_bytes()
        })
        .collect()
}

/// Writes `bytes` to `path` through a temporary file and a rename.
fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    // `NAME.tmp-PID`: processes writing files of one directory at once (the shards of a
    // sharded build) never share a temporary name.
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(tmp, path)
}

impl Parts {
    /// Stores the bytes `bytes` under `name` in the directory (written whole or not at all).
    ///
    /// # Errors
    /// On a write error.
    pub fn save_file(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        write_atomic(&self.dir.join(name), bytes)
    }

    /// The directory `TABLE.parts` (created if missing).
    ///
    /// # Errors
    /// If it cannot be created.
    pub fn new(table: &Path) -> io::Result<Parts> {
        let mut dir = table.as_os_str().to_owned();
        dir.push(".parts");
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir)?;
        Ok(Parts { dir })
    }

    /// Removes every checkpoint (a fresh run).
    ///
    /// # Errors
    /// On a file system error.
    pub fn clear(&self) -> io::Result<()> {
        std::fs::remove_dir_all(&self.dir)?;
        std::fs::create_dir_all(&self.dir)
    }

    fn path(&self, layer: usize, ext: &str) -> PathBuf {
        self.dir.join(format!("layer-{layer}.{ext}"))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Stores the reachable set of `layer` (`reach-K.bits`).
    ///
    /// # Errors
    /// On a write error.
    pub fn save_reach(&self, layer: usize, set: &PackedValues) -> io::Result<()> {
        write_atomic(&self.dir.join(format!("reach-{layer}.bits")), &set.to_bytes())
    }

    /// The reachable set of `layer`, of `len` ranks (an empty set if the file is empty: below
    /// the start's layer).
    ///
    /// # Errors
    /// If the file is missing or of the wrong length.
    pub fn load_reach(&self, layer: usize, len: u64) -> io::Result<PackedValues> {
        let path = self.dir.join(format!("reach-{layer}.bits"));
        let bytes = std::fs::read(&path).map_err(|e| {
            io::Error::new(e.kind(), format!("{}: {e} (run `table reach` first)", path.display()))
        })?;
        if bytes.is_empty() {
            return Ok(PackedValues::new(0));
        }
        if bytes.len() as u64 != len.div_ceil(32) * 8 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}: {} bytes, expected {}",
                    path.display(),
                    bytes.len(),
                    len.div_ceil(32) * 8
                ),
            ));
        }
        let words = bytes.chunks(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")));
        Ok(PackedValues::from_words(words.collect(), len))
    }

    fn part_path(&self, layer: usize, shard: u64, shards: u64) -> PathBuf {
        self.dir.join(format!("layer-{layer}.part-{shard}-of-{shards}"))
    }

    /// Stores the scan of shard `shard` of `shards` of `layer`: its 16-bit cells, its 8-bit
    /// counters, then its hidden edges (the number of pairs as a `u64`, then each pair's child
    /// and parent as `u32`s).
    ///
    /// # Errors
    /// On a write error.
    pub fn save_part(
        &self,
        layer: usize,
        shard: u64,
        shards: u64,
        scan: &Scanned,
    ) -> io::Result<()> {
        let mut bytes: Vec<u8> = scan.cells.par_iter().flat_map_iter(|c| c.to_le_bytes()).collect();
        bytes.extend_from_slice(&scan.counts);
        let edges: u64 = scan.hidden.iter().map(|h| h.len() as u64).sum();
        bytes.extend(edges.to_le_bytes());
        for &(c, p) in scan.hidden.iter().flatten() {
            bytes.extend(c.to_le_bytes());
            bytes.extend(p.to_le_bytes());
        }
        write_atomic(&self.part_path(layer, shard, shards), &bytes)
    }

    /// The scans of the `shards` parts of `layer` joined: the scan of the whole layer, whose
    /// shard `s` covers the ranks `ranges[s]`.
    ///
    /// # Errors
    /// If a part is missing or of the wrong length.
    pub fn load_parts(&self, layer: usize, ranges: &[std::ops::Range<u64>]) -> io::Result<Scanned> {
        let shards = ranges.len() as u64;
        let mut all = Scanned::default();
        for (s, r) in ranges.iter().enumerate() {
            let path = self.part_path(layer, s as u64, shards);
            let bytes = std::fs::read(&path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            let n = (r.end - r.start) as usize;
            let wrong = |have: usize| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}: {have} bytes, not the part of {n} positions", path.display()),
                )
            };
            if bytes.len() < 3 * n + 8 {
                return Err(wrong(bytes.len()));
            }
            let (cells, rest) = bytes.split_at(2 * n);
            let (counts, rest) = rest.split_at(n);
            let edges = u64::from_le_bytes(rest[..8].try_into().expect("8 bytes"));
            let rest = &rest[8..];
            if edges.checked_mul(8) != Some(rest.len() as u64) {
                return Err(wrong(bytes.len()));
            }
            let word = |c: &[u8]| u32::from_le_bytes(c.try_into().expect("4 bytes"));
            let hidden: Vec<(u32, u32)> =
                rest.chunks(8).map(|e| (word(&e[..4]), word(&e[4..]))).collect();
            all.append(Scanned {
                cells: cells.chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect(),
                counts: counts.to_vec(),
                hidden: if hidden.is_empty() { Vec::new() } else { vec![hidden] },
            });
        }
        Ok(all)
    }

    /// Removes the part files of `layer` (after the merge).
    ///
    /// # Errors
    /// On a file system error.
    pub fn remove_parts(&self, layer: usize, shards: u64) -> io::Result<()> {
        for s in 0..shards {
            let path = self.part_path(layer, s, shards);
            if path.exists() {
                std::fs::remove_file(path)?;
            }
        }
        Ok(())
    }

    /// Stores the root's cell.
    ///
    /// # Errors
    /// On a write error.
    pub fn save_root(&self, c: u16) -> io::Result<()> {
        write_atomic(&self.dir.join("root.cell"), &c.to_le_bytes())
    }

    /// The root's cell, if stored.
    pub fn root(&self) -> Option<u16> {
        let b = std::fs::read(self.dir.join("root.cell")).ok()?;
        Some(u16::from_le_bytes(b.try_into().ok()?))
    }

    /// The cells of the finished `layer` (of `len` positions), memory-mapped from its
    /// `.cells` file ([`MappedCells`]).
    ///
    /// # Errors
    /// If the file is missing or of the wrong length.
    pub fn map_cells(&self, layer: usize, len: u64) -> io::Result<KeptCells> {
        MappedCells::open(&self.path(layer, "cells"), len)
    }

    /// The cells of the finished `layer` (of `len` positions), read into memory.
    ///
    /// # Errors
    /// If the file is missing or of the wrong length.
    pub fn read_cells(&self, layer: usize, len: u64) -> io::Result<Vec<u16>> {
        let path = self.path(layer, "cells");
        let bytes = std::fs::read(&path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        if bytes.len() as u64 != 2 * len {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {} bytes, expected {}", path.display(), bytes.len(), 2 * len),
            ));
        }
        Ok(bytes.chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect())
    }

    /// Whether `layer` is finished (its tally and the file of its table bytes are stored).
    pub fn finished(&self, layer: usize, format: CellFormat) -> bool {
        self.tally(layer).is_some() && self.payload(layer, format).exists()
    }

    /// Whether the cells of `layer` are stored.
    pub fn has_cells(&self, layer: usize) -> bool {
        self.path(layer, "cells").exists()
    }

    /// The file holding the bytes `layer` has in the table: its 2-bit values (`.val`) or
    /// its cells (`.cells`).
    pub fn payload(&self, layer: usize, format: CellFormat) -> PathBuf {
        match format {
            CellFormat::Values2 => self.path(layer, "val"),
            CellFormat::Cells16 => self.path(layer, "cells"),
        }
    }

    /// Stores a finished layer: its cells, its tally and (2-bit tables) its values. The tally
    /// is written last: a layer is finished once its tally is there.
    ///
    /// # Errors
    /// On a write error.
    pub fn save(
        &self,
        layer: usize,
        cells: &[u16],
        format: CellFormat,
        tally: [u64; 4],
    ) -> io::Result<()> {
        if format == CellFormat::Values2 {
            write_atomic(&self.path(layer, "val"), &pack(cells))?;
        }
        let bytes: Vec<u8> = cells.par_iter().flat_map_iter(|c| c.to_le_bytes()).collect();
        write_atomic(&self.path(layer, "cells"), &bytes)?;
        let t = tally.map(|x| x.to_string()).join(" ");
        write_atomic(&self.path(layer, "tally"), format!("{t}\n").as_bytes())
    }

    /// Removes the cells file of `layer` (of a 2-bit table, once no layer left needs it).
    ///
    /// # Errors
    /// On a file system error.
    pub fn drop_cells(&self, layer: usize) -> io::Result<()> {
        let p = self.path(layer, "cells");
        if p.exists() {
            std::fs::remove_file(p)?;
        }
        Ok(())
    }

    /// The tally of a finished layer, if stored.
    pub fn tally(&self, layer: usize) -> Option<[u64; 4]> {
        let text = std::fs::read_to_string(self.path(layer, "tally")).ok()?;
        let v: Vec<u64> = text.split_whitespace().filter_map(|w| w.parse().ok()).collect();
        v.try_into().ok()
    }

    /// Removes the directory (after the table file is written).
    ///
    /// # Errors
    /// On a file system error.
    pub fn remove(&self) -> io::Result<()> {
        std::fs::remove_dir_all(&self.dir)
    }
}

/// The 16-bit cells of a solved layer read in place from a memory map of its `.cells` file
/// (little-endian), so that the layer lives in the page cache, not in the heap: the kernel
/// pages it in as it is read and may drop the pages again under memory pressure.
#[derive(Debug)]
pub struct MappedCells {
    /// `None` for an empty layer (nothing to map).
    map: Option<Mmap>,
}

impl MappedCells {
    /// Maps `path`, which must hold `len` cells.
    ///
    /// # Errors
    /// If the file is missing or of the wrong length. On a big-endian machine the cells are
    /// read into memory instead (the file is little-endian).
    pub fn open(path: &Path, len: u64) -> io::Result<KeptCells> {
        let file = File::open(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let have = file.metadata()?.len();
        if have != 2 * len {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {have} bytes, expected {} ({len} cells)", path.display(), 2 * len),
            ));
        }
        if cfg!(target_endian = "big") {
            let bytes = std::fs::read(path)?;
            let cells: Vec<u16> =
                bytes.chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
            return Ok(Box::new(cells));
        }
        if len == 0 {
            return Ok(Box::new(MappedCells { map: None }));
        }
        // SAFETY: a read-only private map of a checkpoint file. The engine writes `.cells`
        // files under a temporary name and renames them into place, never in place, so the
        // mapped bytes do not change while they are read; its length was checked above.
        let map = unsafe { Mmap::map(&file)? };
        if map.len() as u64 != 2 * len || bytemuck::try_cast_slice::<u8, u16>(&map).is_err() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "cells file changed or unaligned",
            ));
        }
        Ok(Box::new(MappedCells { map: Some(map) }))
    }
}

impl AsRef<[u16]> for MappedCells {
    fn as_ref(&self) -> &[u16] {
        // The length and alignment were checked when mapping (page-aligned, even length).
        self.map.as_ref().map_or(&[], |m| bytemuck::cast_slice(m))
    }
}
