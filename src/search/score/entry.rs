//! The transposition-table entry of [`super::AlphaBetaScore`]: a lower and an upper bound on the exact score, the best move's index and the work below.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Table entry of [`AlphaBetaScore`].
///
/// ```text
/// bits  0..16  lower  i16  lower bound on the exact score
/// bits 16..32  upper  i16  upper bound on the exact score
/// bits 32..40  move   u8   index of the best move found (0xFF: none)
/// bits 40..48  work   u8   log2 of the nodes searched below (replacement priority)
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ScoreEntry {
    pub(super) lower: i16,
    pub(super) upper: i16,
    pub(super) move_index: u8,
    pub(super) work: u8,
}

pub(super) const NO_MOVE: u8 = u8::MAX;

impl TtEntry for ScoreEntry {
    fn to_bits(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.move_index) << 32
            | u64::from(self.work) << 40
    }

    fn from_bits(bits: u64) -> Self {
        ScoreEntry {
            lower: (bits as u16).cast_signed(),
            upper: ((bits >> 16) as u16).cast_signed(),
            move_index: (bits >> 32) as u8,
            work: (bits >> 40) as u8,
        }
    }

    fn priority(self) -> u32 {
        u32::from(self.work) + if self.lower == self.upper { 64 } else { 0 }
    }
}
