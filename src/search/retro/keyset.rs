//! A sorted set of ranks (the reachable positions of one layer of an index), with the two
//! queries the sparse engines need: the id of a rank (its place in the sorted set, `find`) and
//! the rank of an id (`rank`, a select).
//!
//! Two forms, the smaller one is kept ([`KeySet::bytes`]):
//!
//! * **List:** the sorted ranks (8 bytes each) and a directory by the high bits of the rank
//!   (about 1 byte per rank): `find` looks at one directory entry and a short sorted slice.
//!   Best when few ranks of the index are in the set.
//! * **Bits:** one bit per indexed position, with the number of set bits before each block of
//!   512 bits (1/64 byte per indexed position) and the block of every 1024th set bit:
//!   `find` is a bit test and a few popcounts, `rank` a short binary search and a scan of one
//!   block. On the GIPF tables about half of the indexed positions are reachable, so this
//!   takes about 0.3 bytes per reachable position instead of 9.

use std::io::{Read, Write};

/// Words per block of the bit form's counts.
const BLOCK: usize = 8;
/// Set bits per sample of the bit form's select index.
const SAMPLE: u64 = 1024;

/// The ranks of one layer's positions in a set (see the module).
#[derive(Clone, Default)]
pub struct KeySet {
    len: usize,
    repr: Repr,
}

#[derive(Clone, Default)]
enum Repr {
    #[default]
    Empty,
    List {
        ranks: Vec<u64>,
        /// `dir[b]` is the first position whose rank `>> shift` is at least `b`.
        dir: Vec<u32>,
        shift: u32,
    },
    Bits {
        words: Vec<u64>,
        /// `cum[b]`: set bits in the words before block `b` (one more entry than blocks).
        cum: Vec<u64>,
        /// `samples[j]`: the block holding set bit number `j * SAMPLE`.
        samples: Vec<u32>,
    },
}

impl std::fmt::Debug for KeySet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let form = match self.repr {
            Repr::Empty => "empty",
            Repr::List { .. } => "list",
            Repr::Bits { .. } => "bits",
        };
        write!(f, "KeySet({} ranks, {form}, {} bytes)", self.len, self.bytes())
    }
}

/// Two sets are equal when they hold the same ranks, whatever their forms.
impl PartialEq for KeySet {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl Eq for KeySet {}

/// Bytes of the list form of `len` ranks.
fn list_bytes(len: usize) -> u64 {
    len as u64 * 9
}

/// Bytes of the bit form over ranks below `end`.
fn bits_bytes(end: u64) -> u64 {
    let words = end.div_ceil(64);
    words * 8 + (words.div_ceil(BLOCK as u64) + 1) * 8
}

/// The position of set bit number `k` (from 0) of `w`, which has more than `k` set bits.
#[inline]
fn select_in_word(mut w: u64, mut k: u32) -> u32 {
    let mut at = 0;
    loop {
        let c = (w & 0xff).count_ones();
        if k < c {
            break;
        }
        k -= c;
        w >>= 8;
        at += 8;
    }
    for _ in 0..k {
        w &= w - 1;
    }
    at + w.trailing_zeros()
}

impl KeySet {
    /// The set of `ranks` (sorted, without duplicates, fewer than `2^32`), in the smaller form.
    pub fn from_sorted(ranks: Vec<u64>) -> KeySet {
        debug_assert!(ranks.windows(2).all(|w| w[0] < w[1]));
        let Some(&max) = ranks.last() else { return KeySet::default() };
        if bits_bytes(max + 1) < list_bytes(ranks.len()) {
            let mut words = vec![0u64; (max / 64 + 1) as usize];
            for r in ranks {
                words[(r / 64) as usize] |= 1 << (r % 64);
            }
            return KeySet::bits(words);
        }
        KeySet::list(ranks)
    }

    /// The set of the ranks whose bit is set in `words` (bit `r % 64` of word `r / 64`), in the
    /// smaller form.
    pub fn from_words(words: Vec<u64>) -> KeySet {
        let len: u64 = words.iter().map(|w| u64::from(w.count_ones())).sum();
        let end = words.iter().rposition(|&w| w != 0).map_or(0, |i| (i as u64 + 1) * 64);
        if len == 0 {
            return KeySet::default();
        }
        if list_bytes(len as usize) <= bits_bytes(end) {
            let ranks: Vec<u64> = set_ranks(&words).collect();
            return KeySet::list(ranks);
        }
        let mut words = words;
        words.truncate((end / 64) as usize);
        words.shrink_to_fit();
        KeySet::bits(words)
    }

    fn list(ranks: Vec<u64>) -> KeySet {
        let Some(&max) = ranks.last() else { return KeySet::default() };
        // 4 to 8 positions per bucket on average: at most a byte of directory per position.
        let want = (ranks.len() / 8).max(1).next_power_of_two().trailing_zeros();
        let top = 64 - max.leading_zeros();
        let shift = top.saturating_sub(want);
        let buckets = (max >> shift) as usize + 1;
        let mut dir = Vec::with_capacity(buckets + 1);
        let mut at = 0usize;
        for b in 0..=buckets as u64 {
            while at < ranks.len() && ranks[at] >> shift < b {
                at += 1;
            }
            dir.push(at as u32);
        }
        KeySet { len: ranks.len(), repr: Repr::List { ranks, dir, shift } }
    }

    fn bits(words: Vec<u64>) -> KeySet {
        let blocks = words.len().div_ceil(BLOCK);
        let mut cum = Vec::with_capacity(blocks + 1);
        let mut samples = Vec::new();
        let mut total = 0u64;
        for (b, block) in words.chunks(BLOCK).enumerate() {
            cum.push(total);
            let here: u64 = block.iter().map(|w| u64::from(w.count_ones())).sum();
            // Samples j with total <= j * SAMPLE < total + here.
            while (samples.len() as u64) * SAMPLE < total + here {
                samples.push(b as u32);
            }
            total += here;
        }
        cum.push(total);
        if total == 0 {
            return KeySet::default();
        }
        KeySet { len: total as usize, repr: Repr::Bits { words, cum, samples } }
    }

    /// Number of ranks.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The rank of id `i` (`i < len`).
    #[inline]
    pub fn rank(&self, i: usize) -> u64 {
        match &self.repr {
            Repr::Empty => panic!("rank {i} of an empty key set"),
            Repr::List { ranks, .. } => ranks[i],
            Repr::Bits { words, cum, samples } => {
                assert!(i < self.len, "rank {i} of a key set of {}", self.len);
                let id = i as u64;
                let sample = (id / SAMPLE) as usize;
                let lo = samples[sample] as usize;
                let hi = samples.get(sample + 1).map_or(cum.len() - 2, |&b| b as usize);
                // The last block at or after `lo` whose count before it is at most `id`.
                let block = lo + cum[lo + 1..=hi + 1].partition_point(|&c| c <= id);
                let mut left = id - cum[block];
                let mut word = block * BLOCK;
                loop {
                    let ones = u64::from(words[word].count_ones());
                    if left < ones {
                        let bit = select_in_word(words[word], left as u32);
                        return word as u64 * 64 + u64::from(bit);
                    }
                    left -= ones;
                    word += 1;
                }
            }
        }
    }

    /// The id of rank `r`, if it is in the set.
    #[inline]
    pub fn find(&self, r: u64) -> Option<u32> {
        match &self.repr {
            Repr::Empty => None,
            Repr::List { ranks, dir, shift } => {
                let b = (r >> shift) as usize;
                if b + 1 >= dir.len() {
                    return None;
                }
                let (lo, hi) = (dir[b] as usize, dir[b + 1] as usize);
                let slice = &ranks[lo..hi];
                let at = slice.partition_point(|&x| x < r);
                (at < slice.len() && slice[at] == r).then_some((lo + at) as u32)
            }
            Repr::Bits { words, cum, .. } => {
                let w = (r / 64) as usize;
                let word = *words.get(w)?;
                let bit = 1u64 << (r % 64);
                if word & bit == 0 {
                    return None;
                }
                let b = w / BLOCK;
                let before: u32 = words[b * BLOCK..w].iter().map(|x| x.count_ones()).sum();
                Some((cum[b] + u64::from(before + (word & (bit - 1)).count_ones())) as u32)
            }
        }
    }

    /// The ranks from id `i` on, in order.
    pub fn iter_from(&self, i: usize) -> impl Iterator<Item = u64> + '_ {
        let (list, bits): (&[u64], &[u64]) = match &self.repr {
            Repr::Empty => (&[], &[]),
            Repr::List { ranks, .. } => (&ranks[i.min(ranks.len())..], &[]),
            Repr::Bits { words, .. } => (&[], words),
        };
        let start = if i < self.len && !bits.is_empty() { self.rank(i) } else { u64::MAX };
        let from_bits = (start != u64::MAX).then(|| {
            let w = (start / 64) as usize;
            let first = bits[w] & (u64::MAX << (start % 64));
            let mut rest = set_ranks(&bits[w + 1..]).map(move |r| r + (w as u64 + 1) * 64);
            let mut head = first;
            std::iter::from_fn(move || {
                if head != 0 {
                    let r = w as u64 * 64 + u64::from(head.trailing_zeros());
                    head &= head - 1;
                    return Some(r);
                }
                rest.next()
            })
        });
        list.iter().copied().chain(from_bits.into_iter().flatten())
    }

    /// The ranks, in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.iter_from(0)
    }

    /// Bytes of memory held.
    pub fn bytes(&self) -> u64 {
        match &self.repr {
            Repr::Empty => 0,
            Repr::List { ranks, dir, .. } => (ranks.capacity() * 8 + dir.capacity() * 4) as u64,
            Repr::Bits { words, cum, samples } => {
                (words.capacity() * 8 + cum.capacity() * 8 + samples.capacity() * 4) as u64
            }
        }
    }

    /// Writes the set (its form, its length, then its ranks or words, little-endian).
    ///
    /// # Errors
    /// Those of `out`.
    pub fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        match &self.repr {
            Repr::Empty => write_layer(out, LIST, &[]),
            Repr::List { ranks, .. } => write_layer(out, LIST, ranks),
            Repr::Bits { words, .. } => write_layer(out, BITS, words),
        }
    }

    /// Reads what [`KeySet::write_to`] or [`write_layer`] wrote.
    ///
    /// # Errors
    /// Those of `input`, and `InvalidData` for an unknown form.
    pub fn read_from(input: &mut impl Read) -> std::io::Result<KeySet> {
        Ok(KeySet::from_layer(read_layer(input)?))
    }

    /// The set of a layer read from a file (its ranks sorted).
    pub fn from_layer(layer: Layer) -> KeySet {
        match layer {
            Layer::Ranks(r) => KeySet::from_sorted(r),
            Layer::Words(w) => KeySet::from_words(w),
        }
    }
}

/// Form tag of a layer written as sorted ranks.
pub const LIST: u64 = 0;
/// Form tag of a layer written as bit words.
pub const BITS: u64 = 1;

/// One layer as read from a file: sorted ranks, or bit words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layer {
    /// The ranks, sorted.
    Ranks(Vec<u64>),
    /// Bit `r % 64` of word `r / 64` set for each rank `r`.
    Words(Vec<u64>),
}

/// Writes a layer: the form tag ([`LIST`] or [`BITS`]), the number of values, the values.
///
/// # Errors
/// Those of `out`.
pub fn write_layer(out: &mut impl Write, form: u64, values: &[u64]) -> std::io::Result<()> {
    out.write_all(&form.to_le_bytes())?;
    out.write_all(&(values.len() as u64).to_le_bytes())?;
    let mut buf = Vec::with_capacity(8 * 4096);
    for chunk in values.chunks(4096) {
        buf.clear();
        for v in chunk {
            buf.extend_from_slice(&v.to_le_bytes());
        }
        out.write_all(&buf)?;
    }
    Ok(())
}

/// Reads a layer written by [`write_layer`].
///
/// # Errors
/// Those of `input`, and `InvalidData` for an unknown form tag.
pub fn read_layer(input: &mut impl Read) -> std::io::Result<Layer> {
    let form = read_word(input)?;
    let n = read_word(input)?;
    if form > BITS {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "unknown layer form"));
    }
    let values = read_words(input, n)?;
    Ok(if form == LIST { Layer::Ranks(values) } else { Layer::Words(values) })
}

/// Reads one little-endian `u64`.
///
/// # Errors
/// Those of `input`.
pub fn read_word(input: &mut impl Read) -> std::io::Result<u64> {
    let mut b = [0u8; 8];
    input.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

/// Reads `n` little-endian `u64`s, in pieces (a corrupt length fails at the end of the file
/// instead of allocating it at once).
///
/// # Errors
/// Those of `input`.
pub fn read_words(input: &mut impl Read, n: u64) -> std::io::Result<Vec<u64>> {
    let mut values = Vec::new();
    let mut buf = vec![0u8; 8 * 4096];
    let mut left = n;
    while left > 0 {
        let take = left.min(4096) as usize;
        input.read_exact(&mut buf[..8 * take])?;
        values.extend(buf[..8 * take].chunks(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())));
        left -= take as u64;
    }
    Ok(values)
}

/// The ranks whose bit is set in `words`, in order.
pub fn set_ranks(words: &[u64]) -> impl Iterator<Item = u64> + '_ {
    words.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = u64::from(w.trailing_zeros());
                w &= w - 1;
                i as u64 * 64 + b
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sets() -> Vec<Vec<u64>> {
        let mut rng = crate::zobrist::KeyStream::new(0x4B53);
        let mut out = vec![
            vec![],
            vec![0],
            vec![5],
            vec![63, 64, 65],
            vec![1, 2, 3, 100, 1 << 40, (1 << 40) + 1, u64::MAX >> 2],
            (0..5000u64).map(|i| i * i * 7 + (i % 3)).collect::<Vec<_>>(),
        ];
        // Dense sets of several densities (kept in the bit form), with runs and gaps.
        for (n, p) in [(3000u64, 2u64), (100_000, 3), (70_000, 64), (200_000, 1000)] {
            let mut v: Vec<u64> = (0..n).filter(|_| rng.next_key().is_multiple_of(p)).collect();
            v.extend((n + 5000)..(n + 9000));
            out.push(v);
        }
        out
    }

    /// Both forms answer `find`, `rank` and the iterators as the sorted list does, and the
    /// files round trip.
    #[test]
    fn key_sets_find_their_ranks_and_nothing_else() {
        let mut forms = (0, 0);
        for ranks in sets() {
            let small = ranks.last().is_none_or(|&m| m < 1 << 30);
            let mut words = vec![
                0u64;
                if small { ranks.last().map_or(0, |&m| m / 64 + 1) } else { 0 }
                    as usize
            ];
            if small {
                for &r in &ranks {
                    words[(r / 64) as usize] |= 1 << (r % 64);
                }
            }
            let mut variants =
                vec![KeySet::from_sorted(ranks.clone()), KeySet::list(ranks.clone())];
            if small {
                variants.push(KeySet::from_words(words.clone()));
                variants.push(KeySet::bits(words));
            }
            for set in variants {
                match set.repr {
                    Repr::List { .. } => forms.0 += 1,
                    Repr::Bits { .. } => forms.1 += 1,
                    Repr::Empty => {}
                }
                assert_eq!(set.len(), ranks.len());
                for (i, &r) in ranks.iter().enumerate() {
                    assert_eq!(set.find(r), Some(i as u32), "{set:?}");
                    assert_eq!(set.rank(i), r, "{set:?}");
                    if !ranks.contains(&(r + 1)) {
                        assert_eq!(set.find(r + 1), None);
                    }
                }
                assert_eq!(set.find(u64::MAX >> 1), None);
                assert!(set.iter().eq(ranks.iter().copied()));
                for i in [0, 1, ranks.len() / 3, ranks.len().saturating_sub(1), ranks.len()] {
                    assert!(set.iter_from(i).eq(ranks.iter().skip(i).copied()), "{set:?} {i}");
                }
                let mut file = Vec::new();
                set.write_to(&mut file).unwrap();
                let back = KeySet::read_from(&mut file.as_slice()).unwrap();
                assert_eq!(back, set);
            }
        }
        assert!(forms.0 >= 10 && forms.1 >= 8, "{forms:?}");
    }

    /// The bit form takes less than a byte per rank on a half-full index, the list form about 9.
    #[test]
    fn the_smaller_form_is_kept() {
        let half: Vec<u64> = (0..1_000_000u64).filter(|r| r % 2 == 0).collect();
        let set = KeySet::from_sorted(half);
        assert!(matches!(set.repr, Repr::Bits { .. }));
        assert!(set.bytes() < 300_000, "{set:?}");
        let sparse: Vec<u64> = (0..1000u64).map(|i| i << 20).collect();
        let set = KeySet::from_sorted(sparse);
        assert!(matches!(set.repr, Repr::List { .. }));
        assert!(set.bytes() < 10_000, "{set:?}");
    }

    #[test]
    fn select_in_word_finds_each_set_bit() {
        for w in [1u64, 0x8000_0000_0000_0000, u64::MAX, 0xF0F0_1234_8000_0001] {
            let bits: Vec<u32> = (0..64).filter(|b| w >> b & 1 == 1).collect();
            for (k, &b) in bits.iter().enumerate() {
                assert_eq!(select_in_word(w, k as u32), b);
            }
        }
    }
}
