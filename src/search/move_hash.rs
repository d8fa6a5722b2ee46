//! A fast hash of a game's generic move, for the history tables of the alpha-beta solver and the
//! playing engine (both know moves only through `Hash` and `Eq`).

use std::hash::{Hash, Hasher};

/// A small multiplicative hasher for moves (not for untrusted input).
#[derive(Default)]
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// The hash of `mv`, with a final avalanche so that the low bits used as a table index depend
/// on every input bit.
pub fn move_hash<M: Hash>(mv: &M) -> u64 {
    let mut h = MoveHasher::default();
    mv.hash(&mut h);
    let x = h.finish();
    (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (x >> 32)
}
