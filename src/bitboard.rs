//! Bitboards: sets of cells packed into one machine word.
//!
//! [`Bitboard64`] and [`Bitboard128`] come from one macro, so both have the same `const fn`
//! set API, operators (`-` is set difference) and iteration over the set cells in increasing
//! order.
//!
//! ```
//! use bitsolve::Bitboard64;
//! let b = Bitboard64::EMPTY.with(3).with(10);
//! assert_eq!(b.count(), 2);
//! assert_eq!(b.into_iter().collect::<Vec<_>>(), vec![3, 10]);
//! assert!((b - Bitboard64::from_cell(3)).contains(10));
//! ```

use std::fmt;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

macro_rules! bitboard {
    ($(#[$doc:meta])* $name:ident, $word:ty, $iter:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
        pub struct $name(pub $word);

        impl $name {
            /// The empty set.
            pub const EMPTY: Self = Self(0);
            /// Every cell the word can hold.
            pub const FULL: Self = Self(!0);
            /// Number of cells the word can hold.
            pub const CAPACITY: u32 = <$word>::BITS;

            /// The set holding only `cell`.
            ///
            /// # Panics
            /// If `cell` is not below [`Self::CAPACITY`].
            #[inline]
            #[must_use]
            #[track_caller]
            pub const fn from_cell(cell: u32) -> Self {
                assert!(cell < Self::CAPACITY, "cell out of range");
                Self(1 << cell)
            }
            /// Whether `cell` is in the set (cells out of range are never in it).
            #[inline]
            #[must_use]
            pub const fn contains(self, cell: u32) -> bool {
                cell < Self::CAPACITY && (self.0 >> cell) & 1 != 0
            }
            /// The set with `cell` added.
            #[inline]
            #[must_use]
            #[track_caller]
            pub const fn with(self, cell: u32) -> Self {
                Self(self.0 | Self::from_cell(cell).0)
            }
            /// The set with `cell` removed.
            #[inline]
            #[must_use]
            #[track_caller]
            pub const fn without(self, cell: u32) -> Self {
                Self(self.0 & !Self::from_cell(cell).0)
            }
            /// Number of cells in the set.
            #[inline]
            #[must_use]
            pub const fn count(self) -> u32 {
                self.0.count_ones()
            }
            /// Whether the set is empty.
            #[inline]
            #[must_use]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }
            /// Whether every cell of `self` is in `other`.
            #[inline]
            #[must_use]
            pub const fn is_subset(self, other: Self) -> bool {
                self.0 & !other.0 == 0
            }
            /// Whether the two sets share a cell.
            #[inline]
            #[must_use]
            pub const fn intersects(self, other: Self) -> bool {
                self.0 & other.0 != 0
            }
            /// The lowest cell, if any.
            #[inline]
            #[must_use]
            pub const fn first(self) -> Option<u32> {
                if self.0 == 0 { None } else { Some(self.0.trailing_zeros()) }
            }
            /// Removes and returns the lowest cell, if any.
            #[inline]
            pub const fn pop_first(&mut self) -> Option<u32> {
                if self.0 == 0 {
                    None
                } else {
                    let cell = self.0.trailing_zeros();
                    self.0 &= self.0 - 1;
                    Some(cell)
                }
            }
            /// Set union (a `const` form of `|`).
            #[inline]
            #[must_use]
            pub const fn union(self, other: Self) -> Self {
                Self(self.0 | other.0)
            }
            /// Set intersection (a `const` form of `&`).
            #[inline]
            #[must_use]
            pub const fn intersection(self, other: Self) -> Self {
                Self(self.0 & other.0)
            }
            /// Set difference (a `const` form of `-`).
            #[inline]
            #[must_use]
            pub const fn difference(self, other: Self) -> Self {
                Self(self.0 & !other.0)
            }
        }

        /// Iterator over the cells of a set, lowest first.
        #[derive(Clone, Debug)]
        pub struct $iter($name);

        impl Iterator for $iter {
            type Item = u32;
            #[inline]
            fn next(&mut self) -> Option<u32> {
                self.0.pop_first()
            }
            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.0.count() as usize;
                (n, Some(n))
            }
        }

        impl ExactSizeIterator for $iter {}

        impl IntoIterator for $name {
            type Item = u32;
            type IntoIter = $iter;
            #[inline]
            fn into_iter(self) -> $iter {
                $iter(self)
            }
        }

        impl FromIterator<u32> for $name {
            fn from_iter<I: IntoIterator<Item = u32>>(iter: I) -> Self {
                iter.into_iter().fold(Self::EMPTY, Self::with)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({:#x})", stringify!($name), self.0)
            }
        }

        impl Not for $name {
            type Output = Self;
            #[inline]
            fn not(self) -> Self {
                Self(!self.0)
            }
        }

        impl Sub for $name {
            type Output = Self;
            #[inline]
            fn sub(self, rhs: Self) -> Self {
                Self(self.0 & !rhs.0)
            }
        }

        impl SubAssign for $name {
            #[inline]
            fn sub_assign(&mut self, rhs: Self) {
                self.0 &= !rhs.0;
            }
        }

        bitboard!(@op $name, BitAnd, bitand, BitAndAssign, bitand_assign, &);
        bitboard!(@op $name, BitOr, bitor, BitOrAssign, bitor_assign, |);
        bitboard!(@op $name, BitXor, bitxor, BitXorAssign, bitxor_assign, ^);
    };
    (@op $name:ident, $tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for $name {
            type Output = Self;
            #[inline]
            fn $f(self, rhs: Self) -> Self {
                Self(self.0 $op rhs.0)
            }
        }
        impl $tra for $name {
            #[inline]
            fn $fa(&mut self, rhs: Self) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bitboard!(
    /// A set of up to 64 cells (Ataxx and other grid games up to 8x8, stride 8).
    Bitboard64,
    u64,
    Bitboard64Iter
);
bitboard!(
    /// A set of up to 128 cells (hex boards up to side 7, graphs up to 128 vertices).
    Bitboard128,
    u128,
    Bitboard128Iter
);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn iteration_matches_contains(word: u128) {
            let b = Bitboard128(word);
            let cells: Vec<u32> = b.into_iter().collect();
            prop_assert_eq!(cells.len() as u32, b.count());
            for c in 0..128 {
                prop_assert_eq!(b.contains(c), cells.contains(&c));
            }
            prop_assert_eq!(cells.into_iter().collect::<Bitboard128>(), b);
        }

        #[test]
        fn set_algebra_holds(a: u64, b: u64) {
            let (x, y) = (Bitboard64(a), Bitboard64(b));
            prop_assert_eq!((x - y) | (x & y), x);
            prop_assert!((x - y).is_subset(x));
            prop_assert_eq!(x.intersects(y), !(x & y).is_empty());
            prop_assert_eq!(x.union(y), x | y);
        }
    }

    #[test]
    fn pop_first_and_first_agree() {
        let mut b = Bitboard64::EMPTY.with(63).with(0).with(17);
        assert_eq!(b.first(), Some(0));
        assert_eq!(b.pop_first(), Some(0));
        assert_eq!(b.pop_first(), Some(17));
        assert_eq!(b.pop_first(), Some(63));
        assert_eq!(b.pop_first(), None);
        assert!(!Bitboard64::FULL.contains(64));
    }
}

/// Portable `pext` and `pdep` on 64-bit words (no BMI2 needed): one 64 KiB table per
/// operation, indexed by a byte of mask and a byte of value, applied byte by byte over the
/// low `bytes` bytes of the mask. The combinatorial indexes of the retrograde engine
/// (Ataxx, GIPF) use it to pack a colour pattern over the occupied cells and back.
///
/// ```
/// use bitsolve::bitboard::BytePext;
/// let t = BytePext::get();
/// // The bits of 0b1010_0110 at the mask's cells 1, 2, 5 and 7: 1, 1, 1, 0 from the low end.
/// assert_eq!(t.pext(0b0110_0110, 0b1010_0110, 1), 0b0111);
/// assert_eq!(t.pdep(0b0111, 0b1010_0110, 1), 0b0010_0110);
/// ```
#[derive(Debug)]
pub struct BytePext {
    /// `pext(value, mask)` of one byte at `mask << 8 | value`.
    extract: Box<[u8]>,
    /// `pdep(value, mask)` of one byte at `mask << 8 | value`.
    deposit: Box<[u8]>,
}

impl BytePext {
    /// The tables, built once.
    pub fn get() -> &'static BytePext {
        static TABLES: std::sync::OnceLock<BytePext> = std::sync::OnceLock::new();
        TABLES.get_or_init(|| {
            let mut extract = vec![0u8; 1 << 16].into_boxed_slice();
            let mut deposit = vec![0u8; 1 << 16].into_boxed_slice();
            for mask in 0..256usize {
                for value in 0..256usize {
                    let (mut ext, mut dep, mut j) = (0u8, 0u8, 0);
                    for i in 0..8 {
                        if mask >> i & 1 != 0 {
                            ext |= ((value >> i & 1) as u8) << j;
                            dep |= ((value >> j & 1) as u8) << i;
                            j += 1;
                        }
                    }
                    extract[mask << 8 | value] = ext;
                    deposit[mask << 8 | value] = dep;
                }
            }
            BytePext { extract, deposit }
        })
    }

    /// `pext(value, mask)`: the bits of `value` at the set bits of `mask`, packed from bit 0,
    /// over the low `bytes` bytes of `mask` (the bits of `mask` above them must be clear).
    #[inline]
    pub fn pext(&self, value: u64, mask: u64, bytes: u32) -> u64 {
        let (mut out, mut shift) = (0u64, 0u32);
        for r in 0..bytes {
            let m = (mask >> (8 * r) & 0xFF) as usize;
            let v = (value >> (8 * r) & 0xFF) as usize;
            out |= u64::from(self.extract[m << 8 | v]) << shift;
            shift += m.count_ones();
        }
        out
    }

    /// `pdep(value, mask)`: the low bits of `value` spread over the set bits of `mask`, over
    /// the low `bytes` bytes of `mask` (the bits of `mask` above them must be clear).
    #[inline]
    pub fn pdep(&self, mut value: u64, mask: u64, bytes: u32) -> u64 {
        let mut out = 0u64;
        for r in 0..bytes {
            let m = (mask >> (8 * r) & 0xFF) as usize;
            out |= u64::from(self.deposit[m << 8 | (value & 0xFF) as usize]) << (8 * r);
            value >>= m.count_ones();
        }
        out
    }
}

#[cfg(test)]
mod pext_tests {
    use super::BytePext;

    /// Bit-by-bit `pext` and `pdep`, the reference.
    fn slow(value: u64, mask: u64) -> (u64, u64) {
        let (mut ext, mut dep, mut j) = (0u64, 0u64, 0);
        for i in 0..64 {
            if mask >> i & 1 != 0 {
                ext |= (value >> i & 1) << j;
                dep |= (value >> j & 1) << i;
                j += 1;
            }
        }
        (ext, dep)
    }

    #[test]
    fn byte_tables_equal_bit_by_bit_on_random_words() {
        let t = BytePext::get();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let value = x.rotate_left(29);
            let bytes = (x % 8) as u32 + 1;
            let mask = if bytes == 8 { x } else { x & ((1u64 << (8 * bytes)) - 1) };
            assert_eq!((t.pext(value, mask, bytes), t.pdep(value, mask, bytes)), slow(value, mask));
        }
    }
}
