//! Table files (format 2): a strongly solved game on disk, for any game the layered engine
//! solves ([`super::strong`]), with a checksum per layer.
//!
//! # Layout
//!
//! All integers little-endian; every section starts at a multiple of 8 bytes.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `BSTABLE2` |
//! | 8 | 4 | length `M` of the description |
//! | 12 | 4 | number of layers `L` |
//! | 16 | 4 | cell format: 2 (2-bit values) or 16 (16-bit cells: value and distance) |
//! | 20 | 4 | reserved, 0 |
//! | 24 | `M` | the description: UTF-8 lines `key=value` (the game and what it was built from) |
//! | then | 40 `L` | the directory: per layer its offset, the bytes of its set, its number of cells, the bytes of its cells (all `u64`), its form (`u32`), the CRC-32 of its set and cell bytes (`u32`) |
//! | then | 8 | the CRC-32 of every byte before it (`u32`), then 4 bytes 0 |
//! | then | ... | the layers, in order: the set bytes, then the cell bytes |
//!
//! A layer's **form** says which positions its cells are for: 0 (dense) one cell per rank of
//! the game's index; 1 (keys) the ranks of a [`KeySet`] written first (its form, count and
//! words, [`KeySet::write_to`]), one cell per rank of the set in increasing order (the ranks
//! left out are not in the table). **2-bit values** take `ceil(cells / 32)` words, value of
//! cell `i` at bits `2 (i % 32)` of word `i / 32`: 1 win, 2 loss, 3 draw for the side to move,
//! 0 not in the table. **16-bit cells** are [`cell`] codes (value and distance in plies:
//! the winner's shortest, the loser's longest).
//!
//! An Ataxx table's layers are dense with 2-bit values, and their cell bytes are exactly the
//! values of the first format (`BSTABLE1`, which had no checksums; `bitsolve table upgrade`
//! rewrites such a file in this format).
//!
//! # Checks
//!
//! [`TableFile::open`] checks the magic, the header's CRC, the directory (sections in order,
//! inside the file, of the sizes their counts give) and the file length. A layer's CRC is
//! checked the first time the layer is read ([`TableFile::check_layer`]), so no answer comes
//! from damaged bytes; [`TableFile::verify`] checks every layer (`bitsolve table verify`).

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use memmap2::Mmap;

use super::keyset::KeySet;
use super::values::cell;
use crate::checksum::{Crc32, crc32};

/// Magic bytes of a table file.
pub const MAGIC: &[u8; 8] = b"BSTABLE2";
/// Magic bytes of the first format (no checksums).
pub const MAGIC_V1: &[u8; 8] = b"BSTABLE1";
/// Bytes of a directory entry.
const ENTRY: u64 = 40;

/// How a table stores its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellFormat {
    /// 2-bit values ([`super::values`] codes, 0: not in the table), no distance.
    Values2,
    /// 16-bit [`cell`] codes: value and distance.
    Cells16,
}

impl CellFormat {
    /// Bytes of the cells of `n` positions.
    pub fn bytes(self, n: u64) -> u64 {
        match self {
            CellFormat::Values2 => n.div_ceil(32) * 8,
            CellFormat::Cells16 => 2 * n,
        }
    }

    fn code(self) -> u32 {
        match self {
            CellFormat::Values2 => 2,
            CellFormat::Cells16 => 16,
        }
    }
}

/// Which positions a layer's cells are for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// One cell per rank of the index.
    Dense,
    /// One cell per rank of a [`KeySet`] stored before the cells.
    Keys,
}

/// Why a table has no answer, or is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// The file is not a table of this game, or not for this position's parameters or board.
    Mismatch(String),
    /// The position is not in the table (not reachable from the position it was built from).
    NotInTable,
    /// Bytes of the file were damaged: a checksum differs.
    Damaged(String),
    /// The file cannot be read, or is not a whole table.
    Bad(String),
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableError::Mismatch(why) | TableError::Bad(why) => f.write_str(why),
            TableError::NotInTable => f.write_str(
                "the position is not in the table (not reachable from the position it was built \
                 from)",
            ),
            TableError::Damaged(why) => write!(f, "damaged table: {why}"),
        }
    }
}

impl std::error::Error for TableError {}

impl From<TableError> for io::Error {
    fn from(e: TableError) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, e.to_string())
    }
}

/// What a table's description says: `key=value` pairs in the order written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Description(pub Vec<(String, String)>);

impl Description {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The value of `key`, or an error naming it.
    ///
    /// # Errors
    /// [`TableError::Bad`] when the key is missing.
    pub fn require(&self, key: &str) -> Result<&str, TableError> {
        self.get(key)
            .ok_or_else(|| TableError::Bad(format!("the table's description has no `{key}`")))
    }

    /// Adds `key=value`.
    #[must_use]
    pub fn with(mut self, key: &str, value: impl Into<String>) -> Self {
        self.0.push((key.to_string(), value.into()));
        self
    }

    fn to_text(&self) -> String {
        let mut text = String::new();
        for (k, v) in &self.0 {
            text.push_str(k);
            text.push('=');
            text.push_str(v);
            text.push('\n');
        }
        text
    }

    fn parse(text: &str) -> Result<Description, TableError> {
        let mut pairs = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let (k, v) = line.split_once('=').ok_or_else(|| {
                TableError::Bad(format!("description line {} is not key=value: `{line}`", i + 1))
            })?;
            pairs.push((k.to_string(), v.to_string()));
        }
        Ok(Description(pairs))
    }
}

/// One layer of the directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerEntry {
    /// Byte offset of the layer's section.
    pub offset: u64,
    /// Bytes of its set (0 for a dense layer).
    pub set_len: u64,
    /// Number of cells.
    pub cells: u64,
    /// Bytes of the cells.
    pub cell_len: u64,
    /// Which positions the cells are for.
    pub form: Form,
    /// CRC-32 of the set and cell bytes.
    pub crc: u32,
}

impl LayerEntry {
    fn end(&self) -> u64 {
        self.offset + pad8(self.set_len) + pad8(self.cell_len)
    }
}

fn pad8(n: u64) -> u64 {
    n.div_ceil(8) * 8
}

/// The bytes of a header: fixed fields, description, directory and the header's CRC.
fn header_bytes(desc: &Description, format: CellFormat, layers: &[LayerEntry]) -> Vec<u8> {
    let text = desc.to_text();
    let mut b = MAGIC.to_vec();
    b.extend((text.len() as u32).to_le_bytes());
    b.extend((layers.len() as u32).to_le_bytes());
    b.extend(format.code().to_le_bytes());
    b.extend(0u32.to_le_bytes());
    b.extend(text.as_bytes());
    b.resize(pad8(b.len() as u64) as usize, 0);
    for e in layers {
        for x in [e.offset, e.set_len, e.cells, e.cell_len] {
            b.extend(x.to_le_bytes());
        }
        b.extend(u32::from(e.form == Form::Keys).to_le_bytes());
        b.extend(e.crc.to_le_bytes());
    }
    let crc = crc32(&b);
    b.extend(crc.to_le_bytes());
    b.extend(0u32.to_le_bytes());
    b
}

/// Bytes of the header of `desc` and `layers` layers.
fn header_len(desc: &Description, layers: usize) -> u64 {
    pad8(24 + desc.to_text().len() as u64) + ENTRY * layers as u64 + 8
}

/// One layer to write: its form, the bytes of its set (empty for a dense layer), its number
/// of cells and the file holding its cell bytes.
#[derive(Clone, Debug)]
pub struct LayerSource {
    /// Which positions the cells are for.
    pub form: Form,
    /// The set's bytes ([`KeySet::write_to`]; empty for [`Form::Dense`]).
    pub set: Vec<u8>,
    /// Number of cells.
    pub cells: u64,
    /// The file of the cell bytes ([`CellFormat::bytes`] of them).
    pub path: PathBuf,
}

/// Writes the table file `out` (through a temporary file and a rename) from `layers`.
///
/// # Errors
/// On a read or write error, or a cell file of the wrong length.
pub fn write_table(
    out: &Path,
    desc: &Description,
    format: CellFormat,
    layers: &[LayerSource],
) -> io::Result<()> {
    // First pass: the checksums (and lengths) of the layers.
    let mut entries = Vec::with_capacity(layers.len());
    let mut at = header_len(desc, layers.len());
    let mut buf = vec![0u8; 1 << 20];
    for (l, src) in layers.iter().enumerate() {
        let cell_len = format.bytes(src.cells);
        let mut crc = Crc32::new();
        crc.update(&src.set);
        let mut f = File::open(&src.path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", src.path.display())))?;
        let have = f.metadata()?.len();
        if have != cell_len {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {have} bytes, layer {l} needs {cell_len}", src.path.display()),
            ));
        }
        loop {
            let n = f.read(&mut buf)?;
            if n == 0 {
                break;
            }
            crc.update(&buf[..n]);
        }
        let e = LayerEntry {
            offset: at,
            set_len: src.set.len() as u64,
            cells: src.cells,
            cell_len,
            form: src.form,
            crc: crc.finish(),
        };
        at = e.end();
        entries.push(e);
    }
    let mut tmp = out.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    {
        let mut w = io::BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        w.write_all(&header_bytes(desc, format, &entries))?;
        for (src, e) in layers.iter().zip(&entries) {
            w.write_all(&src.set)?;
            w.write_all(&vec![0u8; (pad8(e.set_len) - e.set_len) as usize])?;
            let mut f = File::open(&src.path)?;
            io::copy(&mut f, &mut w)?;
            w.write_all(&vec![0u8; (pad8(e.cell_len) - e.cell_len) as usize])?;
        }
        w.into_inner().map_err(io::IntoInnerError::into_error)?.sync_all()?;
    }
    std::fs::rename(tmp, out)
}

/// A table file opened for lookups: memory-mapped, read in place; each layer's checksum is
/// checked the first time the layer is read.
#[derive(Debug)]
pub struct TableFile {
    map: Mmap,
    path: PathBuf,
    desc: Description,
    format: CellFormat,
    layers: Vec<LayerEntry>,
    /// Per layer: its checksum checked, then its set read (keys form).
    checked: Vec<OnceLock<Result<Option<KeySet>, TableError>>>,
}

fn bad(path: &Path, what: impl std::fmt::Display) -> TableError {
    TableError::Bad(format!("{}: {what}", path.display()))
}

impl TableFile {
    /// Opens `path`, maps it and checks its header (magic, CRC, directory, length).
    ///
    /// # Errors
    /// [`TableError::Bad`] for a file that cannot be read or is not a whole table of this
    /// format (a file of the first format is named as such), [`TableError::Damaged`] for a
    /// header whose checksum differs.
    pub fn open(path: &Path) -> Result<TableFile, TableError> {
        let file = File::open(path).map_err(|e| bad(path, e))?;
        let len = file.metadata().map_err(|e| bad(path, e))?.len();
        if len < 8 {
            return Err(bad(path, "not a bitsolve table (bad magic at byte 0)"));
        }
        // SAFETY: a read-only private map. Table files are written under a temporary name and
        // renamed into place ([`write_table`]), never changed in place, so the bytes do not
        // change while they are read; every read below is bounds-checked against the length.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| bad(path, e))?;
        let magic = &map[0..8];
        if magic == MAGIC && len < 24 {
            return Err(bad(path, format!("table header cut short: {len} of 24 bytes")));
        }
        if magic == MAGIC_V1 {
            return Err(bad(
                path,
                "a table of the first format, without checksums: rewrite it with `bitsolve table \
                 upgrade --table FILE`",
            ));
        }
        if magic != MAGIC {
            return Err(bad(path, "not a bitsolve table (bad magic at byte 0)"));
        }
        let u32_at = |at: usize| u32::from_le_bytes(map[at..at + 4].try_into().expect("4 bytes"));
        let u64_at = |at: usize| u64::from_le_bytes(map[at..at + 8].try_into().expect("8 bytes"));
        let (m, count, code) = (u64::from(u32_at(8)), u64::from(u32_at(12)), u32_at(16));
        let format = match code {
            2 => CellFormat::Values2,
            16 => CellFormat::Cells16,
            other => return Err(bad(path, format!("unknown cell format {other} at byte 16"))),
        };
        let dir = pad8(24 + m);
        let end = dir + ENTRY * count + 8;
        if end > len {
            return Err(bad(
                path,
                format!("table header cut short: {len} of {end} bytes (truncated)"),
            ));
        }
        let end = end as usize;
        let want = u32_at(end - 8);
        if crc32(&map[..end - 8]) != want {
            return Err(TableError::Damaged(format!(
                "{}: the header's checksum differs (bytes 0..{})",
                path.display(),
                end - 8
            )));
        }
        let text = std::str::from_utf8(&map[24..24 + m as usize])
            .map_err(|_| bad(path, "the description is not UTF-8"))?;
        let desc = Description::parse(text)?;
        let mut layers = Vec::with_capacity(count as usize);
        let mut at = end as u64;
        for l in 0..count as usize {
            let e0 = dir as usize + l * ENTRY as usize;
            let form = match u32_at(e0 + 32) {
                0 => Form::Dense,
                1 => Form::Keys,
                other => return Err(bad(path, format!("layer {l}: unknown form {other}"))),
            };
            let e = LayerEntry {
                offset: u64_at(e0),
                set_len: u64_at(e0 + 8),
                cells: u64_at(e0 + 16),
                cell_len: u64_at(e0 + 24),
                form,
                crc: u32_at(e0 + 36),
            };
            if e.offset != at || e.cell_len != format.bytes(e.cells) {
                return Err(bad(
                    path,
                    format!("layer {l}: directory entry out of order or sized wrong"),
                ));
            }
            if form == Form::Dense && e.set_len != 0 {
                return Err(bad(path, format!("layer {l}: a dense layer with a set")));
            }
            at = e.end();
            if at > len {
                return Err(bad(
                    path,
                    format!("file of {len} bytes, its header says more (truncated)"),
                ));
            }
            layers.push(e);
        }
        if at != len {
            return Err(bad(path, format!("file of {len} bytes, its header says {at}")));
        }
        let checked = (0..layers.len()).map(|_| OnceLock::new()).collect();
        Ok(TableFile { map, path: path.to_path_buf(), desc, format, layers, checked })
    }

    /// The description.
    pub fn description(&self) -> &Description {
        &self.desc
    }

    /// The cell format.
    pub fn format(&self) -> CellFormat {
        self.format
    }

    /// The directory.
    pub fn layers(&self) -> &[LayerEntry] {
        &self.layers
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn section(&self, layer: usize) -> (&[u8], &[u8]) {
        let e = &self.layers[layer];
        let s = e.offset as usize;
        let c = s + pad8(e.set_len) as usize;
        (&self.map[s..s + e.set_len as usize], &self.map[c..c + e.cell_len as usize])
    }

    /// Checks `layer`'s checksum (once; later calls return the first result) and reads its
    /// set; returns the set (`None` for a dense layer).
    ///
    /// # Errors
    /// [`TableError::Damaged`] if the checksum differs, [`TableError::Bad`] for a set that
    /// cannot be read, or a layer out of range.
    pub fn check_layer(&self, layer: usize) -> Result<Option<&KeySet>, TableError> {
        let slot = self.checked.get(layer).ok_or_else(|| {
            bad(&self.path, format!("no layer {layer} (the table has {})", self.layers.len()))
        })?;
        let got = slot.get_or_init(|| {
            let (set, cells) = self.section(layer);
            let mut crc = Crc32::new();
            crc.update(set);
            crc.update(cells);
            if crc.finish() != self.layers[layer].crc {
                return Err(TableError::Damaged(format!(
                    "{}: layer {layer} (bytes {}..{}): its checksum differs",
                    self.path.display(),
                    self.layers[layer].offset,
                    self.layers[layer].end()
                )));
            }
            if self.layers[layer].form == Form::Dense {
                return Ok(None);
            }
            let keys = KeySet::read_from(&mut &set[..])
                .map_err(|e| bad(&self.path, format!("layer {layer}'s set: {e}")))?;
            if keys.len() as u64 != self.layers[layer].cells {
                return Err(bad(
                    &self.path,
                    format!("layer {layer}: set and cells differ in length"),
                ));
            }
            Ok(Some(keys))
        });
        got.as_ref().map(Option::as_ref).map_err(Clone::clone)
    }

    /// Checks every layer's checksum.
    ///
    /// # Errors
    /// The first damaged layer ([`TableFile::check_layer`]).
    pub fn verify(&self) -> Result<(), TableError> {
        (0..self.layers.len()).try_for_each(|l| self.check_layer(l).map(|_| ()))
    }

    /// The stored cell of rank `rank` of `layer`: `Ok(None)` for a position the table leaves
    /// out; with 2-bit values the distance is 0 ([`cell::decided`] of the value).
    ///
    /// # Errors
    /// A damaged layer, or a rank beyond a dense layer.
    pub fn cell(&self, layer: usize, rank: u64) -> Result<Option<u16>, TableError> {
        let set = self.check_layer(layer)?;
        let e = &self.layers[layer];
        let id = match set {
            Some(keys) => match keys.find(rank) {
                Some(i) => u64::from(i),
                None => return Ok(None),
            },
            None if rank < e.cells => rank,
            None => {
                return Err(TableError::Mismatch(format!(
                    "rank {rank} beyond layer {layer} of {} positions",
                    e.cells
                )));
            }
        };
        let (_, cells) = self.section(layer);
        let c = match self.format {
            CellFormat::Values2 => {
                let at = (id / 32 * 8) as usize;
                let word = u64::from_le_bytes(cells[at..at + 8].try_into().expect("8 bytes"));
                let v = (word >> (2 * (id % 32)) & 3) as u8;
                if v == 0 {
                    return Ok(None);
                }
                cell::decided(v, 0)
            }
            CellFormat::Cells16 => {
                let at = 2 * id as usize;
                u16::from_le_bytes([cells[at], cells[at + 1]])
            }
        };
        Ok(Some(c))
    }
}

/// Rewrites a table of the first format (`BSTABLE1`: an Ataxx board, 2-bit values, no
/// checksums) in this format, the values unchanged; `desc` is the description the new file
/// gets (the game's adapter makes it from the old header, [`read_v1`]).
///
/// # Errors
/// On a read or write error, or a file that is not of the first format.
pub fn upgrade_v1(
    old: &Path,
    out: &Path,
    desc: &Description,
    layer_sizes: &[u64],
) -> io::Result<()> {
    let bytes = std::fs::read(old)?;
    let head = 24 + 8 * layer_sizes.len();
    let dir = out.with_extension("upgrade-parts");
    std::fs::create_dir_all(&dir)?;
    let mut at = head;
    let mut layers = Vec::new();
    for (l, &n) in layer_sizes.iter().enumerate() {
        let len = CellFormat::Values2.bytes(n) as usize;
        let path = dir.join(format!("layer-{l}.val"));
        std::fs::write(
            &path,
            bytes.get(at..at + len).ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidData, format!("{}: truncated", old.display()))
            })?,
        )?;
        at += len;
        layers.push(LayerSource { form: Form::Dense, set: Vec::new(), cells: n, path });
    }
    if at != bytes.len() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: {} bytes, its header says {at}", old.display(), bytes.len()),
        ));
    }
    write_table(out, desc, CellFormat::Values2, &layers)?;
    std::fs::remove_dir_all(dir)
}

/// The fields of a first-format header: rules byte, width, height, valid squares and layer
/// sizes (checked only for length; the game's adapter checks the rest).
///
/// # Errors
/// A file too short or without the first format's magic.
pub fn read_v1(path: &Path) -> io::Result<(u8, u32, u32, u64, Vec<u64>)> {
    let mut head = vec![0u8; 24];
    let mut f = File::open(path)?;
    f.read_exact(&mut head)?;
    if &head[..8] != MAGIC_V1 {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "not a table of the first format"));
    }
    let n = usize::from(head[11]);
    let mut sizes = vec![0u8; 8 * (n + 1)];
    f.read_exact(&mut sizes)?;
    let valid = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
    let sizes = sizes.chunks(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")));
    Ok((head[8], u32::from(head[9]), u32::from(head[10]), valid, sizes.collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::retro::values::{DRAW, LOSS, WIN};

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("bitsolve-file-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A table of two layers: one dense of 2-bit values, one of keys with 16-bit cells.
    fn sample(dir: &Path) -> (PathBuf, PathBuf) {
        let values: Vec<u8> =
            (0..40u64).flat_map(|w| w.wrapping_mul(0x9E37_79B9_7F4A_7C15).to_le_bytes()).collect();
        std::fs::write(dir.join("a.val"), &values).unwrap();
        let desc = Description::default().with("game", "test").with("board", "x");
        let out = dir.join("t2.tbl");
        let layers = [LayerSource {
            form: Form::Dense,
            set: Vec::new(),
            cells: 40 * 32 - 5,
            path: dir.join("a.val"),
        }];
        write_table(&out, &desc, CellFormat::Values2, &layers).unwrap();
        let keys = KeySet::from_sorted(vec![3, 9, 200, 201]);
        let mut set = Vec::new();
        keys.write_to(&mut set).unwrap();
        let cells: Vec<u8> = [
            cell::decided(WIN, 5),
            cell::decided(LOSS, 2),
            cell::decided(DRAW, 0),
            cell::decided(WIN, 1),
        ]
        .iter()
        .flat_map(|c| c.to_le_bytes())
        .collect();
        std::fs::write(dir.join("b.cells"), &cells).unwrap();
        let out16 = dir.join("t16.tbl");
        let layers = [LayerSource { form: Form::Keys, set, cells: 4, path: dir.join("b.cells") }];
        write_table(&out16, &desc, CellFormat::Cells16, &layers).unwrap();
        (out, out16)
    }

    #[test]
    fn tables_round_trip() {
        let dir = tmp("round");
        let (t2, t16) = sample(&dir);
        let t = TableFile::open(&t2).unwrap();
        assert_eq!(t.description().get("game"), Some("test"));
        let word = 7u64.wrapping_mul(0x9E37_79B9_7F4A_7C15).to_le_bytes();
        let w = u64::from_le_bytes(word);
        for i in 0..32u64 {
            let v = (w >> (2 * i) & 3) as u8;
            let got = t.cell(0, 7 * 32 + i).unwrap();
            assert_eq!(got.map(cell::value), (v != 0).then_some(v));
        }
        t.verify().unwrap();
        let t = TableFile::open(&t16).unwrap();
        assert_eq!(t.cell(0, 9).unwrap(), Some(cell::decided(LOSS, 2)));
        assert_eq!(t.cell(0, 201).unwrap(), Some(cell::decided(WIN, 1)));
        assert_eq!(t.cell(0, 10).unwrap(), None);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn any_flipped_byte_is_refused() {
        let dir = tmp("flip");
        let (t2, t16) = sample(&dir);
        for path in [t2, t16] {
            let good = std::fs::read(&path).unwrap();
            for at in 0..good.len() {
                let mut flipped = good.clone();
                flipped[at] ^= 0x10;
                let flipped_path = dir.join("flipped.tbl");
                std::fs::write(&flipped_path, &flipped).unwrap();
                // Either the header is refused on open, or the layer when it is checked
                // (padding bytes are the only ones nothing reads).
                let refused = match TableFile::open(&flipped_path) {
                    Err(_) => true,
                    Ok(t) => t.verify().is_err(),
                };
                let padding = {
                    let t = TableFile::open(&path).unwrap();
                    let e = t.layers()[0];
                    let set_pad = e.offset + e.set_len..e.offset + pad8(e.set_len);
                    let cell_start = e.offset + pad8(e.set_len);
                    let cell_pad = cell_start + e.cell_len..cell_start + pad8(e.cell_len);
                    let text_pad = {
                        let m = u64::from(u32::from_le_bytes(good[8..12].try_into().unwrap()));
                        24 + m..pad8(24 + m)
                    };
                    let at = at as u64;
                    set_pad.contains(&at)
                        || cell_pad.contains(&at)
                        || text_pad.contains(&at)
                        || (good.len() as u64 - e.end()..).contains(&at)
                        || at == 20
                        || at == 21
                        || at == 22
                        || at == 23
                };
                assert!(refused || padding, "{} byte {at} flipped was accepted", path.display());
            }
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn truncated_and_first_format_files_are_refused_with_the_reason() {
        let dir = tmp("trunc");
        let (t2, _) = sample(&dir);
        let good = std::fs::read(&t2).unwrap();
        let p = dir.join("cut.tbl");
        std::fs::write(&p, &good[..good.len() - 8]).unwrap();
        let e = TableFile::open(&p).unwrap_err().to_string();
        assert!(e.contains("truncated") || e.contains("says"), "{e}");
        let mut v1 = good.clone();
        v1[..8].copy_from_slice(MAGIC_V1);
        std::fs::write(&p, &v1).unwrap();
        assert!(TableFile::open(&p).unwrap_err().to_string().contains("table upgrade"));
        std::fs::write(&p, b"hello world, this is not a table").unwrap();
        assert!(TableFile::open(&p).unwrap_err().to_string().contains("magic"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
