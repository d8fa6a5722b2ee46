//! Table files: a solved Ataxx board on disk, and the checkpoints of a run.
//!
//! # Table file format (version 1)
//!
//! All integers little-endian.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `BSTABLE1` |
//! | 8 | 1 | rules: 0 standard, 1 Polish |
//! | 9 | 1 | width |
//! | 10 | 1 | height |
//! | 11 | 1 | number of valid squares `n` |
//! | 12 | 4 | reserved, 0 |
//! | 16 | 8 | valid squares, stride-8 bitboard (`8 * rank + file`) |
//! | 24 | 8 (n + 1) | number of positions of each layer `k = 0..=n`: `C(n, k) 2^k` |
//! | 32 + 8n | ... | values, layer 0 first |
//!
//! Layer `k` holds the positions with `k` stones, ranked as in
//! [`AtaxxIndex`] (stones relative to the side to
//! move). Its values take `ceil(size / 32)` 64-bit words; the value of rank `i` is bits
//! `2 (i % 32) ..= 2 (i % 32) + 1` of word `i / 32`: 1 win, 2 loss, 3 draw for the side to
//! move, 0 for a position left out of the solve (a table built from a start holds only the
//! positions reachable from it, either side to move). Distances are not stored.
//!
//! Readers ([`TableFile`], and through it the table solver `--solver table --table FILE`,
//! [`super::table`]) memory-map the file and check it before any lookup: the magic, the rules
//! byte, the board size, valid squares inside the board and matching the count, each layer
//! size equal to `C(n, k) 2^k`, and the file length equal to the header's (a truncated or
//! longer file is refused with both lengths).
//!
//! # Checkpoints
//!
//! A run writes into the directory `FILE.parts`: `layer-K.val` (the words of layer `K`),
//! `layer-K.tally` (its reachable positions by value, one line `positions wins draws
//! losses`) and `layer-K.cells` (the 16-bit cells with distances, kept only for the last
//! layer finished, which the next layer needs). Each file is written under a temporary name
//! and renamed, so a killed run leaves only whole files; a resumed run starts below the
//! lowest layer whose three files are present. The layer that holds the start also writes
//! `start.cell` (the start's cell, 16 bits), so that its value and distance outlive the cells.
//!
//! # Sharded builds
//!
//! A build split over processes (or Slurm tasks, `scripts/slurm-table.sh`) shares the same
//! directory on a shared file system:
//!
//! * `reach-K.bits`: the positions of layer `K` reachable from the start (2 bits per rank,
//!   bit 0 with the first player to move, bit 1 with the second; little-endian words), written
//!   by the reach step for every layer (0 bytes below the start's layer);
//! * `layer-K.part-S-of-N`: the scan of shard `S` of `N` of layer `K` (the ranks
//!   [`crate::search::retro::solve::shard_range`]): its 16-bit cells, then its 8-bit counters;
//! * then, as above, `layer-K.val`, `layer-K.tally`, `layer-K.cells` once the parts of layer `K`
//!   are merged (the parts are removed).
//!
//! Solved layers can be read through a memory map of their `.cells` file ([`MappedCells`])
//! instead of memory.

use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use rayon::prelude::*;

use crate::games::ataxx::index::AtaxxIndex;

use super::layers::KeptCells;
use super::solve::Scanned;
use super::values::{PackedValues, cell};

/// Magic bytes of a table file.
pub const MAGIC: &[u8; 8] = b"BSTABLE1";

/// The header of a table file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Polish rules (else standard).
    pub polish: bool,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// Valid squares (stride 8).
    pub valid: u64,
    /// Positions per layer.
    pub layer_sizes: Vec<u64>,
}

impl Header {
    /// Bytes of the header.
    pub fn len(&self) -> u64 {
        24 + 8 * self.layer_sizes.len() as u64
    }

    /// Whether the header has no layer (never for a valid table).
    pub fn is_empty(&self) -> bool {
        self.layer_sizes.is_empty()
    }

    /// Byte offset of the values of `layer`.
    pub fn layer_offset(&self, layer: usize) -> u64 {
        self.len() + self.layer_sizes[..layer].iter().map(|s| s.div_ceil(32) * 8).sum::<u64>()
    }

    /// The header as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        b.extend([
            u8::from(self.polish),
            self.width as u8,
            self.height as u8,
            (self.layer_sizes.len() - 1) as u8,
        ]);
        b.extend(0u32.to_le_bytes());
        b.extend(self.valid.to_le_bytes());
        for s in &self.layer_sizes {
            b.extend(s.to_le_bytes());
        }
        b
    }

    /// Reads and checks the header at the start of `bytes` (the whole file or its first
    /// bytes): magic, rules, board size, valid squares inside the board, and each layer's
    /// size `C(n, k) 2^k`.
    ///
    /// # Errors
    /// [`io::ErrorKind::InvalidData`] with what is wrong, for a header that is cut short or
    /// is not a table's.
    pub fn parse(bytes: &[u8]) -> io::Result<Header> {
        let bad = |what: String| io::Error::new(io::ErrorKind::InvalidData, what);
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(bad(format!(
                "not a bitsolve table (bad magic at byte 0: expected {:?})",
                std::str::from_utf8(MAGIC).unwrap_or_default()
            )));
        }
        if bytes.len() < 24 {
            return Err(bad(format!("table header cut short: {} of 24 bytes", bytes.len())));
        }
        let (rules, width, height, n) = (bytes[8], bytes[9], bytes[10], bytes[11]);
        let valid = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
        if rules > 1 {
            return Err(bad(format!("bad rules byte {rules} at byte 8 (0 standard, 1 polish)")));
        }
        if !(1..=7).contains(&width) || !(1..=7).contains(&height) {
            return Err(bad(format!("bad board size {width}x{height} at bytes 9..11")));
        }
        let rect = (0..u32::from(height)).fold(0u64, |a, r| a | ((1u64 << width) - 1) << (8 * r));
        if valid & !rect != 0 || !AtaxxIndex::<false>::fits(valid) {
            return Err(bad("the valid squares (bytes 16..24) are not on the board".to_string()));
        }
        if valid.count_ones() != u32::from(n) {
            return Err(bad(format!(
                "the square count {n} (byte 11) does not match the {} valid squares",
                valid.count_ones()
            )));
        }
        let end = 24 + 8 * (n as usize + 1);
        if bytes.len() < end {
            return Err(bad(format!("table header cut short: {} of {end} bytes", bytes.len())));
        }
        let layer_sizes: Vec<u64> = bytes[24..end]
            .chunks(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        for (k, &size) in layer_sizes.iter().enumerate() {
            let want = binomial(u64::from(n), k as u64) << k;
            if size != want {
                return Err(bad(format!(
                    "layer {k} has {size} positions in the header (byte {}), expected {want}",
                    24 + 8 * k
                )));
            }
        }
        Ok(Header {
            polish: rules == 1,
            width: u32::from(width),
            height: u32::from(height),
            valid,
            layer_sizes,
        })
    }

    /// Reads and checks the header of `file` ([`Header::parse`]).
    ///
    /// # Errors
    /// On a read error or a header that is not a table's.
    pub fn read(file: &File) -> io::Result<Header> {
        let len = file.metadata()?.len().min(24 + 8 * 41) as usize;
        let mut head = vec![0u8; len];
        file.read_exact_at(&mut head, 0)?;
        Header::parse(&head)
    }
}

/// `C(n, k)` (small arguments: `n <= 40`).
fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// A table file opened for lookups: memory-mapped, the values are read in place (pages come
/// from the file as they are touched, never loaded whole).
#[derive(Debug)]
pub struct TableFile {
    map: Mmap,
    header: Header,
}

impl TableFile {
    /// Opens `path`, maps it and checks its header and length.
    ///
    /// # Errors
    /// If the file cannot be read or is not a whole table (bad magic, bad header, truncated or
    /// too long), with what is wrong.
    pub fn open(path: &Path) -> io::Result<TableFile> {
        let file = File::open(path)?;
        let header = Header::read(&file)?;
        let want = header.layer_offset(header.layer_sizes.len());
        let have = file.metadata()?.len();
        if have != want {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "table file of {have} bytes, its header says {want}{}",
                    if have < want { " (truncated)" } else { "" }
                ),
            ));
        }
        // SAFETY: the map is read-only and private to this process. Table files are written
        // under a temporary name and renamed into place ([`Parts::assemble`]), never changed
        // in place, so the mapped bytes do not change while they are read (a user who
        // rewrites the file in place while it is open gets wrong values, not unsoundness in
        // this code's own invariants: every read is a plain byte copy bounded by the length
        // checked above).
        let map = unsafe { Mmap::map(&file)? };
        if map.len() as u64 != want {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "table file changed size"));
        }
        Ok(TableFile { map, header })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The 2-bit value of rank `index` in `layer` ([`super::values`] codes, 0: not in the
    /// table).
    ///
    /// # Errors
    /// For a rank out of range.
    pub fn value(&self, layer: usize, index: u64) -> io::Result<u8> {
        if layer >= self.header.layer_sizes.len() || index >= self.header.layer_sizes[layer] {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "rank out of range"));
        }
        let at = (self.header.layer_offset(layer) + index / 32 * 8) as usize;
        let word = u64::from_le_bytes(self.map[at..at + 8].try_into().expect("8 bytes"));
        Ok((word >> (2 * (index % 32)) & 3) as u8)
    }
}

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

    /// Stores the scan of shard `shard` of `shards` of `layer`.
    ///
    /// # Errors
    /// On a write error, or for a scan with hidden edges (models with hidden moves are not
    /// sharded).
    pub fn save_part(
        &self,
        layer: usize,
        shard: u64,
        shards: u64,
        scan: &Scanned,
    ) -> io::Result<()> {
        if !scan.hidden.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "a scan with hidden moves cannot be stored as a part",
            ));
        }
        let mut bytes: Vec<u8> = scan.cells.par_iter().flat_map_iter(|c| c.to_le_bytes()).collect();
        bytes.extend_from_slice(&scan.counts);
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
            if bytes.len() != 3 * n {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}: {} bytes, expected {}", path.display(), bytes.len(), 3 * n),
                ));
            }
            let (cells, counts) = bytes.split_at(2 * n);
            all.append(Scanned {
                cells: cells.chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect(),
                counts: counts.to_vec(),
                hidden: Vec::new(),
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

    /// Stores the start's cell.
    ///
    /// # Errors
    /// On a write error.
    pub fn save_start(&self, c: u16) -> io::Result<()> {
        write_atomic(&self.dir.join("start.cell"), &c.to_le_bytes())
    }

    /// The start's cell, if stored.
    pub fn start(&self) -> Option<u16> {
        let b = std::fs::read(self.dir.join("start.cell")).ok()?;
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

    /// The lowest layer finished in an unbroken run from the top whose cells are stored.
    pub fn resume_layer(&self, layers: usize) -> Option<usize> {
        let mut lowest = None;
        for l in (0..layers).rev() {
            if self.path(l, "val").exists() && self.tally(l).is_some() {
                lowest = Some(l);
            } else {
                break;
            }
        }
        lowest.filter(|&l| self.path(l, "cells").exists())
    }

    /// Stores a finished layer: its 2-bit values, its tally, its cells; drops the cells of
    /// the layer above.
    ///
    /// # Errors
    /// On a write error.
    pub fn save(&self, layer: usize, cells: &[u16], tally: [u64; 4]) -> io::Result<()> {
        write_atomic(&self.path(layer, "val"), &pack(cells))?;
        let t = tally.map(|x| x.to_string()).join(" ");
        write_atomic(&self.path(layer, "tally"), format!("{t}\n").as_bytes())?;
        let bytes: Vec<u8> = cells.par_iter().flat_map_iter(|c| c.to_le_bytes()).collect();
        write_atomic(&self.path(layer, "cells"), &bytes)?;
        let above = self.path(layer + 1, "cells");
        if above.exists() {
            std::fs::remove_file(above)?;
        }
        Ok(())
    }

    /// The tally of a finished layer, if stored.
    pub fn tally(&self, layer: usize) -> Option<[u64; 4]> {
        let text = std::fs::read_to_string(self.path(layer, "tally")).ok()?;
        let v: Vec<u64> = text.split_whitespace().filter_map(|w| w.parse().ok()).collect();
        v.try_into().ok()
    }

    /// The lowest layer finished in an unbroken run from the top (`layers - 1` down), with
    /// its cells, if any layer is finished.
    ///
    /// # Errors
    /// On a read error of the cells file, or cells of the wrong size.
    pub fn resume(&self, layer_sizes: &[u64]) -> io::Result<Option<(usize, Vec<u16>)>> {
        let Some(l) = self.resume_layer(layer_sizes.len()) else { return Ok(None) };
        let path = self.path(l, "cells");
        let bytes = std::fs::read(path)?;
        if bytes.len() as u64 != 2 * layer_sizes[l] {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "cells file of the wrong size"));
        }
        Ok(Some((l, bytes.chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect())))
    }

    /// Writes the table file `table` from the finished layers, then removes the directory.
    ///
    /// # Errors
    /// On a read or write error.
    pub fn assemble(&self, header: &Header, table: &Path) -> io::Result<()> {
        let tmp = table.with_extension("tmp");
        {
            let mut out = io::BufWriter::new(File::create(&tmp)?);
            out.write_all(&header.to_bytes())?;
            for l in 0..header.layer_sizes.len() {
                let mut f = File::open(self.path(l, "val"))?;
                io::copy(&mut f, &mut out)?;
            }
            out.into_inner().map_err(io::IntoInnerError::into_error)?.sync_all()?;
        }
        std::fs::rename(tmp, table)?;
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
