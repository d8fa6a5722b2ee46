//! The df-pn table entry and the internal scale of proof and disproof numbers.

use crate::search::tt::TtEntry;

/// The infinite proof or disproof number (a solved node's losing side).
pub(super) const INF: u64 = 1 << 62;
/// Largest number of an unsolved node.
pub(super) const MAX_FINITE: u64 = INF - 1;
/// Largest number a table entry holds (28 bits).
pub(super) const ENTRY_MAX: u64 = (1 << 28) - 1;

/// A df-pn table entry: `phi` and `delta` of a position for its mover, and the work spent.
///
/// Bits 0..28 hold `phi`, 28..56 `delta` (a solved entry has one of them 0, the other is read as
/// infinite; unsolved numbers saturate at 2^28 - 1), 56..62 `log2(work + 1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DfpnEntry {
    /// Cost of proving the mover's goal (0: proven).
    pub phi: u32,
    /// Cost of refuting it (0: refuted).
    pub delta: u32,
    /// `log2` of the nodes spent below the position, 0 to 63.
    pub log_work: u8,
}

impl DfpnEntry {
    /// An entry for the numbers `phi` and `delta` (internal scale, `INF` for infinite) after
    /// `work` nodes.
    pub(super) fn new(phi: u64, delta: u64, work: u64) -> Self {
        let clamp = |x: u64| x.min(ENTRY_MAX) as u32;
        DfpnEntry {
            phi: if delta == 0 { ENTRY_MAX as u32 } else { clamp(phi) },
            delta: if phi == 0 { ENTRY_MAX as u32 } else { clamp(delta) },
            log_work: (64 - work.leading_zeros()).min(63) as u8,
        }
    }

    /// Whether the entry is a proof or a disproof.
    pub fn is_solved(self) -> bool {
        self.phi == 0 || self.delta == 0
    }

    /// `(phi, delta)` on the internal scale.
    pub(super) fn numbers(self) -> (u64, u64) {
        match (self.phi, self.delta) {
            (0, _) => (0, INF),
            (_, 0) => (INF, 0),
            (p, d) => (u64::from(p), u64::from(d)),
        }
    }
}

impl TtEntry for DfpnEntry {
    fn to_bits(self) -> u64 {
        u64::from(self.phi) | u64::from(self.delta) << 28 | u64::from(self.log_work) << 56
    }

    fn from_bits(bits: u64) -> Self {
        DfpnEntry {
            phi: (bits & ENTRY_MAX) as u32,
            delta: (bits >> 28 & ENTRY_MAX) as u32,
            log_work: (bits >> 56 & 63) as u8,
        }
    }

    fn priority(self) -> u32 {
        u32::from(self.log_work) + if self.is_solved() { 64 } else { 0 }
    }

    fn replaces(self, old: Self) -> bool {
        self.is_solved() || !old.is_solved()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_round_trips() {
        for (phi, delta, work) in [(0, INF, 5), (INF, 0, 0), (3, 7, 1 << 40), (1 << 40, 2, 9)] {
            let e = DfpnEntry::new(phi, delta, work);
            let back = DfpnEntry::from_bits(e.to_bits());
            assert_eq!(e, back);
            let (p, d) = back.numbers();
            assert_eq!((p == 0, d == 0), (phi == 0, delta == 0));
            assert!(p <= phi && d <= delta);
        }
        let proof = DfpnEntry::new(0, INF, 1);
        let guess = DfpnEntry::new(4, 4, 1 << 30);
        assert!(!guess.replaces(proof) && proof.replaces(guess) && guess.replaces(guess));
        assert!(proof.priority() > guess.priority());
    }
}
