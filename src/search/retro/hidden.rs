//! The hidden edges of a layer ([`super::model::LayerModel::expand`]), reversed: for each
//! position of the layer, the parents whose hidden move leads to it.
//!
//! Two forms, the same parents:
//!
//! * [`Hidden::Sorted`]: the lists of `(child, parent)` pairs the scan's threads collected,
//!   each sorted by child (8 bytes per edge); a lookup is a binary search per list.
//! * [`Hidden::Grouped`]: the parents grouped by child ([`Grouped`]): 4 bytes per edge, 1 byte
//!   of count per position and a 64-bit base per 16 positions (1.5 bytes per position). It is
//!   built from a [`Spill`] file, so that the pairs never sit in memory all at once: on the
//!   largest GIPF layers there are 1 to 2 hidden edges per position, and at 8 bytes each they
//!   were the largest part of the memory. The few children with 255 parents or more (some
//!   GIPF positions of S=3 K=3 5+5 have more than 255) keep theirs in a sorted list of pairs.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU32, Ordering};

use rayon::prelude::*;

use super::values::zeroed_huge;

/// Positions per base of [`Grouped`].
const GROUP: usize = 16;
/// Bytes of the spill file read at a time.
const READ: usize = 1 << 26;
/// The count of a heavy child (255 parents or more): its parents are in [`Grouped`]'s list of
/// pairs, none in its groups.
const HEAVY: u8 = u8::MAX;

/// A child's parents in its group: none for a heavy child.
#[inline]
fn light(count: u8) -> usize {
    if count == HEAVY { 0 } else { usize::from(count) }
}

/// The hidden edges of a layer, reversed, in one of two forms (see the module).
#[derive(Debug)]
pub enum Hidden {
    /// `(child, parent)` lists, each sorted.
    Sorted(Vec<Vec<(u32, u32)>>),
    /// The parents grouped by child.
    Grouped(Grouped),
}

impl Hidden {
    /// The lists of `(child, parent)` pairs, each sorted here (in parallel).
    pub fn from_parts(mut parts: Vec<Vec<(u32, u32)>>) -> Hidden {
        for part in &mut parts {
            part.par_sort_unstable();
        }
        Hidden::Sorted(parts)
    }

    /// Number of edges.
    pub fn len(&self) -> u64 {
        match self {
            Hidden::Sorted(parts) => parts.iter().map(|p| p.len() as u64).sum(),
            Hidden::Grouped(g) => g.len(),
        }
    }

    /// Whether there is no edge.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends the parents of `child` to `out`.
    #[inline]
    pub fn extend_parents(&self, child: u32, out: &mut Vec<u64>) {
        match self {
            Hidden::Sorted(parts) => {
                for part in parts {
                    let from = part.partition_point(|&(c, _)| c < child);
                    out.extend(
                        part[from..]
                            .iter()
                            .take_while(|&&(c, _)| c == child)
                            .map(|&(_, p)| u64::from(p)),
                    );
                }
            }
            Hidden::Grouped(g) => g.extend_parents(child, out),
        }
    }
}

/// Parents grouped by child: the parents of child `i` are `parents[start(i)..][..counts[i]]`,
/// `start(i)` being the base of its group of 16 plus the counts before it in the group; a heavy
/// child (count `HEAVY`, 255) has its parents in `heavy`, sorted `(child, parent)` pairs.
#[derive(Debug)]
pub struct Grouped {
    counts: Vec<u8>,
    bases: Vec<u64>,
    parents: Vec<u32>,
    heavy: Vec<(u32, u32)>,
}

impl Grouped {
    #[inline]
    fn start(&self, i: usize) -> usize {
        let g = i / GROUP;
        let within: usize = self.counts[g * GROUP..i].iter().map(|&c| light(c)).sum();
        self.bases[g] as usize + within
    }

    /// Appends the parents of `child` to `out`.
    #[inline]
    pub fn extend_parents(&self, child: u32, out: &mut Vec<u64>) {
        let i = child as usize;
        match self.counts.get(i) {
            None | Some(0) => {}
            Some(&HEAVY) => {
                let from = self.heavy.partition_point(|&(c, _)| c < child);
                out.extend(
                    self.heavy[from..]
                        .iter()
                        .take_while(|&&(c, _)| c == child)
                        .map(|&(_, p)| u64::from(p)),
                );
            }
            Some(&n) => {
                let s = self.start(i);
                out.extend(self.parents[s..s + usize::from(n)].iter().map(|&p| u64::from(p)));
            }
        }
    }

    /// Number of edges.
    pub fn len(&self) -> u64 {
        (self.parents.len() + self.heavy.len()) as u64
    }

    /// Whether there is no edge.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Why a spill file could not be grouped.
#[derive(Debug)]
pub enum SpillError {
    /// Reading or writing the file failed.
    Io(io::Error),
    /// An edge names a position outside the layer.
    OutOfRange,
}

impl From<io::Error> for SpillError {
    fn from(e: io::Error) -> Self {
        SpillError::Io(e)
    }
}

impl std::fmt::Display for SpillError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpillError::Io(e) => write!(f, "hidden edges file: {e}"),
            SpillError::OutOfRange => write!(f, "a hidden edge lies outside its layer"),
        }
    }
}

/// A file of hidden edges (`(child, parent)` pairs, little-endian `u32`s), written as a layer
/// is scanned range by range, then grouped ([`Spill::group`]) and removed.
#[derive(Debug)]
pub struct Spill {
    file: BufWriter<File>,
    path: PathBuf,
    edges: u64,
}

impl Spill {
    /// Creates (or truncates) the file `path`.
    ///
    /// # Errors
    /// If the file cannot be created.
    pub fn create(path: &Path) -> io::Result<Spill> {
        let file = BufWriter::with_capacity(1 << 22, File::create(path)?);
        Ok(Spill { file, path: path.to_owned(), edges: 0 })
    }

    /// Appends `edges`.
    ///
    /// # Errors
    /// If the write fails.
    pub fn write(&mut self, edges: &[(u32, u32)]) -> io::Result<()> {
        let mut buf = Vec::with_capacity(8 * edges.len());
        for &(c, p) in edges {
            buf.extend_from_slice(&c.to_le_bytes());
            buf.extend_from_slice(&p.to_le_bytes());
        }
        self.edges += edges.len() as u64;
        self.file.write_all(&buf)
    }

    /// Number of edges written.
    pub fn len(&self) -> u64 {
        self.edges
    }

    /// Whether no edge was written.
    pub fn is_empty(&self) -> bool {
        self.edges == 0
    }

    /// Calls `f(block)` on the file's edges, a block of whole edges at a time.
    fn for_each_block(
        path: &Path,
        mut f: impl FnMut(&[u8]) -> Result<(), SpillError>,
    ) -> Result<(), SpillError> {
        let mut file = File::open(path)?;
        let mut buf = vec![0u8; READ];
        loop {
            let mut n = 0;
            while n < READ {
                match file.read(&mut buf[n..])? {
                    0 => break,
                    k => n += k,
                }
            }
            if n % 8 != 0 {
                return Err(SpillError::Io(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "a hidden edges file ends inside an edge",
                )));
            }
            if n == 0 {
                return Ok(());
            }
            f(&buf[..n])?;
            if n < READ {
                return Ok(());
            }
        }
    }

    /// The edges grouped by child for a layer of `size` positions (two parallel passes over
    /// the file: counts, then placement; a count stops at `HEAVY`, 255); the file is removed.
    ///
    /// # Errors
    /// See [`SpillError`].
    pub fn group(self, size: u64) -> Result<Grouped, SpillError> {
        let Spill { file, path, edges } = self;
        file.into_inner().map_err(io::IntoInnerError::into_error)?.sync_all()?;
        let size = size as usize;
        let edge = |b: &[u8]| {
            let c = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
            let p = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
            (c, p)
        };
        // 1. Counts.
        let counts: Vec<AtomicU8> = zeroed_huge(size);
        Self::for_each_block(&path, |block| {
            block.par_chunks(8).try_for_each(|b| {
                let (c, _) = edge(b);
                let slot = counts.get(c).ok_or(SpillError::OutOfRange)?;
                // Saturating: a failed update is a count already at HEAVY.
                // (`then`, not `then_some`: `n + 1` must not be evaluated at HEAVY = 255.)
                let _ = slot.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                    (n < HEAVY).then(|| n + 1)
                });
                Ok(())
            })
        })?;
        let counts: Vec<u8> = counts.into_iter().map(AtomicU8::into_inner).collect();
        let mut bases = Vec::with_capacity(size.div_ceil(GROUP));
        let mut total = 0u64;
        for group in counts.chunks(GROUP) {
            bases.push(total);
            total += group.iter().map(|&c| light(c) as u64).sum::<u64>();
        }
        // 2. Placement: each child's parents in the order the threads reach them; a heavy
        // child's pairs to a list, sorted after.
        let parents: Vec<AtomicU32> = zeroed_huge(total as usize);
        let grouped = Grouped { counts, bases, parents: Vec::new(), heavy: Vec::new() };
        let fill: Vec<AtomicU8> = zeroed_huge(size);
        let heavy = Mutex::new(Vec::new());
        Self::for_each_block(&path, |block| {
            block.par_chunks(8).for_each(|b| {
                let (c, p) = edge(b);
                if grouped.counts[c] == HEAVY {
                    heavy
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push((c as u32, p));
                    return;
                }
                let at = grouped.start(c) + usize::from(fill[c].fetch_add(1, Ordering::Relaxed));
                parents[at].store(p, Ordering::Relaxed);
            });
            Ok(())
        })?;
        drop(fill);
        std::fs::remove_file(&path)?;
        let parents = parents.into_iter().map(AtomicU32::into_inner).collect();
        let mut heavy = heavy.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
        heavy.sort_unstable();
        debug_assert_eq!(total + heavy.len() as u64, edges);
        Ok(Grouped { parents, heavy, ..grouped })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Grouped from a spill file, the parents of every child are those of the sorted lists.
    #[test]
    fn grouped_parents_equal_the_sorted_lists() {
        let size = 1000u32;
        let mut rng = crate::zobrist::KeyStream::new(5);
        let edges: Vec<(u32, u32)> = (0..5000)
            .map(|_| {
                ((rng.next_key() % 997) as u32 % size, (rng.next_key() % u64::from(size)) as u32)
            })
            .collect();
        let dir = std::env::temp_dir().join(format!("bitsolve-hidden-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("layer.hidden");
        let mut spill = Spill::create(&path).unwrap();
        for part in edges.chunks(777) {
            spill.write(part).unwrap();
        }
        assert_eq!(spill.len(), 5000);
        let grouped = Hidden::Grouped(spill.group(u64::from(size)).unwrap());
        assert!(!path.exists(), "the spill file is removed");
        let sorted = Hidden::from_parts(vec![edges[..2500].to_vec(), edges[2500..].to_vec()]);
        assert_eq!(grouped.len(), sorted.len());
        for child in 0..size + 3 {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            grouped.extend_parents(child, &mut a);
            sorted.extend_parents(child, &mut b);
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "child {child}");
        }
        // Heavy children (255 parents or more) beside light ones, in the same groups.
        let mut many: Vec<(u32, u32)> = (0..300).map(|p| (3, p)).collect();
        many.extend((0..254).map(|p| (4, 1000 + p)));
        many.extend((0..255).map(|p| (5, 2000 + p)));
        many.extend([(2, 7), (6, 8), (6, 9)]);
        let mut spill = Spill::create(&path).unwrap();
        for part in many.chunks(100) {
            spill.write(part).unwrap();
        }
        let grouped = Hidden::Grouped(spill.group(10).unwrap());
        assert_eq!(grouped.len(), many.len() as u64);
        for child in 0..12 {
            let mut a = Vec::new();
            grouped.extend_parents(child, &mut a);
            a.sort_unstable();
            let b: Vec<u64> =
                many.iter().filter(|e| e.0 == child).map(|e| u64::from(e.1)).collect();
            assert_eq!(a, b, "child {child}");
        }
        let mut spill = Spill::create(&path).unwrap();
        spill.write(&[(10, 1)]).unwrap();
        assert!(matches!(spill.group(10), Err(SpillError::OutOfRange)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
