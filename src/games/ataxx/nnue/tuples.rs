//! The *tuples* net (file format versions 2, 3 and 4): 2x2 windows of the board as inputs, one
//! perspective, evaluated from scratch; version 3 adds one input per blocked square, version 4
//! output buckets as well.
//!
//! # Shape
//!
//! `2916 -> H -> 1`, from the side to move's view only. The 7x7 board has 36 windows of 2x2
//! squares, `w = 6 * r + f` for the window whose lower left square is rank `r`, file `f`
//! (`r, f` in `0..6`). A window's *state* is `d0 + 3 d1 + 9 d2 + 27 d3` over its squares
//! `(r, f)`, `(r, f + 1)`, `(r + 1, f)`, `(r + 1, f + 1)`, with digit 0 for an empty (or
//! blocked) square, 1 for a stone of the side to move and 2 for one of the other side.
//! Feature `81 w + state` is on for each window, so exactly 36 of the 2916 inputs are on.
//! The hidden layer (`H` units, a multiple of 16 up to [`MAX_HIDDEN`]) goes through `SCReLU`
//! to one output logit, as in the squares net.
//!
//! A version-3 net has [`BLOCKED_INPUTS`] = 2965 inputs: the 2916 above, then feature
//! `2916 + 7 r + f` on for each blocked square `(r, f)` (the windows still see a blocked square
//! as an empty one; these inputs tell the net which empty squares can never be filled). On a
//! board without blocked squares it computes what a version-2 net with the same first 2916
//! rows computes, so a version-2 net extended by 49 zero rows plays exactly as before.
//!
//! A version-4 net has the version-3 inputs and `B` *output buckets* (1 to [`MAX_BUCKETS`]):
//! `B` sets of output weights and biases, of which the position's [`bucket`] (by its number of
//! empty playable squares, so by the stage of the game) picks one. The hidden layer is shared;
//! only the last layer differs from stage to stage. A version-3 net whose output layer is
//! copied into every bucket evaluates every position as before.
//!
//! Windows see how stones touch, which is what captures are made of; the squares net sees each
//! stone alone. The price is that a move changes up to 16 windows, so instead of keeping an
//! accumulator up to date the net sums its 36 rows at every evaluation.
//!
//! # File format (`.nnue`, little-endian), versions 2, 3 and 4
//!
//! | bytes | field |
//! |-------|-------|
//! | 0..8 | magic `BSAXNNUE` |
//! | 8..12 | version (`u32`, 2, 3 or 4) |
//! | 12..16 | inputs (`u32`, [`INPUTS`] = 2916; versions 3 and 4: [`BLOCKED_INPUTS`] = 2965) |
//! | 16..20 | hidden units `H` (`u32`) |
//! | 20..24 | `QA` (`u32`, 255) |
//! | 24..28 | `QB` (`u32`, 64) |
//! | 28..32 | scale (`i32`, engine units per logit, 1..=10000) |
//! | 32..36 | version 4 only: output buckets `B` (`u32`, 1..=[`MAX_BUCKETS`]); `B` = 1 otherwise |
//! | .. | input weights: `INPUTS` rows of `H` `i16` |
//! | | input biases: `H` `i16` |
//! | | output weights: `B` sets of `H` `i16`, bucket 0 first, each within `±127` |
//! | | output biases: `B` `i32` |
//!
//! The quantisation is that of the squares net: the evaluation is
//! `(sum(clamp(acc, 0, QA)^2 * w) / QA + bias) * scale / (QA * QB)`.

use super::{HEADER_BYTES, MAGIC, MAX_OUTPUT_WEIGHT, NetError, QA, QB, Reader};
use crate::games::ataxx::Ataxx;

/// File format version of a tuples net.
pub const VERSION: u32 = 2;
/// File format version of a tuples net with blocked-square inputs.
pub const BLOCKED_VERSION: u32 = 3;
/// File format version of a tuples net with blocked-square inputs and output buckets.
pub const BUCKETS_VERSION: u32 = 4;
/// Most output buckets a version-4 file may have.
pub const MAX_BUCKETS: usize = 16;
/// Windows of 2x2 squares on the 7x7 board.
pub const WINDOWS: usize = 36;
/// States of one window (3 per square).
pub const STATES: usize = 81;
/// Inputs: one per window and state.
pub const INPUTS: usize = WINDOWS * STATES;
/// Squares of the board, each a blocked-square input of a version-3 net.
pub const SQUARES: usize = 49;
/// Inputs of a version-3 net: the window states, then one per blocked square.
pub const BLOCKED_INPUTS: usize = INPUTS + SQUARES;
/// The 49 squares of the 7x7 board in the stride-8 bitboards.
const BOARD: u64 = 0x007F_7F7F_7F7F_7F7F;
/// Most inputs on at once.
const MAX_ACTIVE: usize = WINDOWS + SQUARES;
/// Most hidden units a file may have.
pub const MAX_HIDDEN: usize = 512;

/// Bytes of a version-2 tuples net file with `hidden` units.
pub const fn file_bytes(hidden: usize) -> usize {
    file_bytes_with(INPUTS, hidden)
}

/// Bytes of a tuples net file with `inputs` inputs and `hidden` units.
pub const fn file_bytes_with(inputs: usize, hidden: usize) -> usize {
    HEADER_BYTES + 2 * (inputs * hidden + 2 * hidden) + 4
}

/// Bytes of a version-4 file (blocked-square inputs) with `hidden` units and `buckets` output
/// buckets.
pub const fn file_bytes_bucketed(hidden: usize, buckets: usize) -> usize {
    HEADER_BYTES + 4 + 2 * (BLOCKED_INPUTS * hidden + hidden + buckets * hidden) + 4 * buckets
}

/// The output bucket of a position with `empties` empty playable squares in a net with
/// `buckets` buckets: `empties * buckets / 50`, at most `buckets - 1` (so bucket 0 holds the
/// last stage of the game, the highest bucket the start).
#[inline]
pub fn bucket(empties: u32, buckets: usize) -> usize {
    (empties as usize * buckets / 50).min(buckets.saturating_sub(1))
}

/// `STATE[u | t << 4]`: the state of a window whose squares of the side to move are the bits
/// of `u` and those of the other side the bits of `t` (square `i` of the window is digit `i`
/// of the base-3 state: 1 for `u`, 2 for `t`; a square in both never occurs).
const STATE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut k = 0;
    while k < 256 {
        let (mut v, mut p, mut i) = (0, 1, 0);
        while i < 4 {
            v += p * ((k >> i & 1) + 2 * (k >> (i + 4) & 1));
            p *= 3;
            i += 1;
        }
        t[k] = v as u8;
        k += 1;
    }
    t
};

/// `SPREAD[row]`: the 7 bits of a board row (file `f` at bit `f`) moved to bit `4 f`, so that
/// four rows interleave into one nibble per file.
const SPREAD: [u32; 128] = {
    let mut t = [0u32; 128];
    let mut row = 0;
    while row < 128 {
        let mut f = 0;
        while f < 7 {
            t[row] |= ((row as u32 >> f) & 1) << (4 * f);
            f += 1;
        }
        row += 1;
    }
    t
};

/// `PAIR_STATE[n0 | n1 << 4]`: the state of a window from the nibbles of its two files, each
/// nibble holding the file's squares on the window's two ranks as bits 0 (lower rank, side to
/// move), 1 (upper rank, side to move), 2 (lower rank, other side) and 3 (upper rank, other
/// side): the same base-3 state as [`STATE`], its digits in the order lower left, lower right,
/// upper left, upper right.
const PAIR_STATE: [u8; 256] = {
    /// The digit of the square on the lower (`upper` 0) or upper (1) rank of a file's nibble.
    const fn digit(nibble: usize, upper: usize) -> usize {
        (nibble >> upper & 1) + 2 * (nibble >> (upper + 2) & 1)
    }
    let mut t = [0u8; 256];
    let mut k = 0;
    while k < 256 {
        let (left, right) = (k & 15, k >> 4);
        t[k] = (digit(left, 0) + 3 * digit(right, 0) + 9 * digit(left, 1) + 27 * digit(right, 1))
            as u8;
        k += 1;
    }
    t
};

/// The 36 input indices of the position with `us` and `them` (stride-8 bitboards) for the
/// side owning `us`: per pair of ranks, the four rows are interleaved into one nibble per file
/// (a table), and each window's state is read from two neighbouring nibbles
/// (a table of 256).
#[inline]
pub fn features(us: u64, them: u64) -> [u16; WINDOWS] {
    let row = |b: u64, r: usize| SPREAD[(b >> (8 * r)) as usize & 0x7F];
    let mut out = [0u16; WINDOWS];
    for r in 0..6 {
        let files = row(us, r) | row(us, r + 1) << 1 | row(them, r) << 2 | row(them, r + 1) << 3;
        for f in 0..6 {
            let w = 6 * r + f;
            out[w] =
                (STATES * w) as u16 + u16::from(PAIR_STATE[(files >> (4 * f)) as usize & 0xFF]);
        }
    }
    out
}

/// [`features`] the plain way, window by window through a table of 256 (the tests' reference).
pub fn features_by_window(us: u64, them: u64) -> [u16; WINDOWS] {
    let mut out = [0u16; WINDOWS];
    for r in 0..6 {
        for f in 0..6 {
            let sq = 8 * r + f;
            // The window's squares `sq, sq + 1, sq + 8, sq + 9` as bits 0..4.
            let window = |b: u64| (b >> sq) & 0b11 | (b >> (sq + 6)) & 0b1100;
            let w = 6 * r + f;
            let key = (window(us) | window(them) << 4) as usize;
            out[w] = (STATES * w) as u16 + u16::from(STATE[key]);
        }
    }
    out
}

/// The inputs that are on for the side owning `us` against `them`: the 36 window states of
/// [`features`], then (with `blocked_inputs`) one per square of `blocked`, all stride-8
/// bitboards.
#[inline]
pub fn active_inputs(
    us: u64,
    them: u64,
    blocked: u64,
    blocked_inputs: bool,
) -> arrayvec::ArrayVec<u16, MAX_ACTIVE> {
    let mut out = arrayvec::ArrayVec::<u16, MAX_ACTIVE>::new();
    out.try_extend_from_slice(&features(us, them)).expect("36 fit");
    if blocked_inputs {
        let mut b = blocked & BOARD;
        while b != 0 {
            let sq = b.trailing_zeros() as usize;
            b &= b - 1;
            out.push((INPUTS + 7 * (sq / 8) + sq % 8) as u16);
        }
    }
    out
}

/// The first `N` values of `slice` as an array (the caller keeps `N` within it).
#[inline]
fn array<const N: usize>(slice: &[i16]) -> [i16; N] {
    let mut out = [0i16; N];
    out.copy_from_slice(&slice[..N]);
    out
}

/// A quantised tuples net (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TupleNet {
    /// The file format version (2, 3 or 4).
    version: u32,
    hidden: usize,
    /// Whether the net has the blocked-square inputs (versions 3 and 4).
    blocked_inputs: bool,
    /// Output buckets (1 but in version 4).
    buckets: usize,
    /// `INPUTS` (versions 3 and 4: `BLOCKED_INPUTS`) rows of `hidden` weights, row after row.
    input_weights: Vec<i16>,
    input_bias: Vec<i16>,
    /// `buckets` sets of `hidden` weights.
    output_weights: Vec<i16>,
    /// One per bucket.
    output_bias: Vec<i32>,
    pub(super) scale: i32,
    pub(super) fingerprint: u64,
}

impl TupleNet {
    /// Parses a version-2, 3 or 4 file whose magic and version were checked.
    pub(super) fn parse(bytes: &[u8], fingerprint: u64) -> Result<TupleNet, NetError> {
        let version = Reader(&bytes[8..]).u32();
        let blocked_inputs = version != VERSION;
        let want = if blocked_inputs { BLOCKED_INPUTS } else { INPUTS };
        let mut r = Reader(&bytes[12..]);
        let inputs = i64::from(r.u32());
        if inputs != want as i64 {
            return Err(NetError::Shape("inputs", inputs, want as i64));
        }
        let hidden = r.u32() as usize;
        if hidden == 0 || !hidden.is_multiple_of(16) || hidden > MAX_HIDDEN {
            return Err(NetError::Hidden(hidden as i64));
        }
        let scale = r.quantisation()?;
        let buckets = if version == BUCKETS_VERSION {
            if bytes.len() < HEADER_BYTES + 4 {
                return Err(NetError::Length(bytes.len(), file_bytes_bucketed(hidden, 1)));
            }
            let b = r.u32() as usize;
            if b == 0 || b > MAX_BUCKETS {
                return Err(NetError::Buckets(b as i64));
            }
            b
        } else {
            1
        };
        let size = if version == BUCKETS_VERSION {
            file_bytes_bucketed(hidden, buckets)
        } else {
            file_bytes_with(want, hidden)
        };
        if bytes.len() != size {
            return Err(NetError::Length(bytes.len(), size));
        }
        let mut input_weights = vec![0i16; want * hidden];
        r.i16s(&mut input_weights);
        let mut input_bias = vec![0i16; hidden];
        r.i16s(&mut input_bias);
        let mut output_weights = vec![0i16; buckets * hidden];
        r.i16s(&mut output_weights);
        let output_bias = (0..buckets).map(|_| r.i32()).collect();
        if let Some(i) =
            output_weights.iter().position(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16)
        {
            return Err(NetError::OutputWeight(i));
        }
        Ok(TupleNet {
            version,
            hidden,
            blocked_inputs,
            buckets,
            input_weights,
            input_bias,
            output_weights,
            output_bias,
            scale,
            fingerprint,
        })
    }

    /// The net file of this net.
    pub fn to_bytes(&self) -> Vec<u8> {
        let version = self.version;
        let inputs = if self.blocked_inputs { BLOCKED_INPUTS } else { INPUTS };
        let mut out = Vec::with_capacity(file_bytes_bucketed(self.hidden, self.buckets));
        out.extend_from_slice(MAGIC);
        for v in [version, inputs as u32, self.hidden as u32, QA as u32, QB as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.scale.to_le_bytes());
        if version == BUCKETS_VERSION {
            out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        }
        let weights = self.input_weights.iter().chain(&self.input_bias);
        for w in weights.chain(&self.output_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Whether the net has the blocked-square inputs (file format versions 3 and 4).
    pub fn blocked_inputs(&self) -> bool {
        self.blocked_inputs
    }

    /// Output buckets (more than 1 only in file format version 4).
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The output bucket of `pos` (see [`bucket`]).
    #[inline]
    pub fn bucket_of<const POLISH: bool>(&self, pos: &Ataxx<POLISH>) -> usize {
        let stones = pos.stones(pos.side_to_move()).0 | pos.stones(!pos.side_to_move()).0;
        bucket((pos.valid().0 & BOARD & !stones).count_ones(), self.buckets)
    }

    /// The inputs that are on in `pos`.
    #[inline]
    fn active<const POLISH: bool>(
        &self,
        pos: &Ataxx<POLISH>,
    ) -> arrayvec::ArrayVec<u16, MAX_ACTIVE> {
        let side = pos.side_to_move();
        let blocked = BOARD & !pos.valid().0;
        active_inputs(pos.stones(side).0, pos.stones(!side).0, blocked, self.blocked_inputs)
    }

    /// The evaluation of `pos` (engine units, side to move's view).
    pub fn evaluate<const POLISH: bool>(&self, pos: &Ataxx<POLISH>) -> i32 {
        let bucket = self.bucket_of(pos);
        let sum = self.output_sum(&self.active(pos), bucket);
        let raw = sum / i64::from(QA) + i64::from(self.output_bias[bucket]);
        (raw * i64::from(self.scale) / i64::from(QA * QB)).clamp(-20_000, 20_000) as i32
    }

    /// `sum clamp(acc, 0, QA)^2 * w` over the hidden units, with the accumulator summed from
    /// the bias and the rows of `active` and `w` the output weights of `bucket`: in blocks of
    /// hidden units, each block's accumulator kept in registers over the rows and put through
    /// the output at once. The widest [`Kernel`] the processor has (checked at run time) does
    /// it; every kernel gives the same sum (integer arithmetic, no overflow).
    ///
    /// # Panics
    /// An input of `active` beyond the net's inputs.
    #[inline]
    pub(super) fn output_sum(&self, active: &[u16], bucket: usize) -> i64 {
        self.output_sum_with(Kernel::best(), active, bucket).expect("the best kernel is there")
    }

    /// [`Self::output_sum`] by `kernel`; `None` if the processor lacks it.
    ///
    /// # Panics
    /// An input of `active` beyond the net's inputs, or a bucket beyond the net's.
    pub(super) fn output_sum_with(
        &self,
        kernel: Kernel,
        active: &[u16],
        bucket: usize,
    ) -> Option<i64> {
        let h = self.hidden;
        let rows = self.input_weights.len() / h;
        // The kernels read rows without bounds checks: every input must be a row.
        let top = active.iter().fold(0, |m, &f| m.max(usize::from(f)));
        assert!(active.is_empty() || top < rows, "input {top} beyond the net's {rows}");
        let output = &self.output_weights[bucket * h..][..h];
        match kernel {
            Kernel::Portable => Some(self.output_sum_in::<64>(active, bucket)),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if Kernel::Avx2.available() => {
                // SAFETY: the processor has AVX2 (just checked); every row of `active` is in
                // `input_weights` (asserted above), `input_bias` and `output` hold `h` values,
                // and `h` is a multiple of 16 (checked when the net was read).
                Some(unsafe {
                    simd::sum_avx2(&self.input_weights, &self.input_bias, output, active, 0)
                })
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 if Kernel::Avx512.available() => {
                // SAFETY: as for AVX2, with AVX-512 F and BW (just checked).
                Some(unsafe {
                    simd::sum_avx512(&self.input_weights, &self.input_bias, output, active)
                })
            }
            _ => None,
        }
    }

    /// [`Self::output_sum`] in blocks of `B` hidden units while they fit, then of 16.
    #[inline]
    pub(super) fn output_sum_in<const B: usize>(&self, active: &[u16], bucket: usize) -> i64 {
        let h = self.hidden;
        let output = &self.output_weights[bucket * h..][..h];
        let mut sum = 0i64;
        let mut start = 0;
        while start + B <= h {
            sum += self.block::<B>(active, output, start);
            start += B;
        }
        while start < h {
            sum += self.block::<16>(active, output, start);
            start += 16;
        }
        sum
    }

    /// [`Self::output_sum`] over the `N` hidden units from `start`, with the output weights
    /// `output` (one bucket's).
    #[inline]
    fn block<const N: usize>(&self, active: &[u16], output: &[i16], start: usize) -> i64 {
        let h = self.hidden;
        let mut acc: [i16; N] = array(&self.input_bias[start..]);
        for &f in active {
            let row: [i16; N] = array(&self.input_weights[usize::from(f) * h + start..]);
            for (a, w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(w);
            }
        }
        let out: [i16; N] = array(&output[start..]);
        // Chunks of 64 fit an `i32` (at most `64 * QA^2 * 127` in magnitude).
        let mut sum = 0i64;
        for (a, w) in acc.chunks(64).zip(out.chunks(64)) {
            let mut part = 0i32;
            for (&a, &w) in a.iter().zip(w) {
                let v = a.clamp(0, QA as i16);
                // Exact in `i16`: `v <= 255` and `|w| <= 127` (checked when the net is read).
                part += i32::from(v * w) * i32::from(v);
            }
            sum += i64::from(part);
        }
        sum
    }

    /// The same evaluation in floating point from the dequantised weights.
    pub fn evaluate_float<const POLISH: bool>(&self, pos: &Ataxx<POLISH>) -> f64 {
        let h = self.hidden;
        let mut sums: Vec<f64> = self.input_bias.iter().map(|&b| f64::from(b)).collect();
        for f in self.active(pos) {
            let row = &self.input_weights[usize::from(f) * h..][..h];
            for (s, &w) in sums.iter_mut().zip(row) {
                *s += f64::from(w);
            }
        }
        let bucket = self.bucket_of(pos);
        let mut y = f64::from(self.output_bias[bucket]) / f64::from(QA * QB);
        for (s, &w) in sums.iter().zip(&self.output_weights[bucket * h..]) {
            let v = (s / f64::from(QA)).clamp(0.0, 1.0);
            y += v * v * f64::from(w) / f64::from(QB);
        }
        y * f64::from(self.scale)
    }
}

/// The code that sums a tuples net's hidden layer (the sum of [`TupleNet::evaluate`]); all give
/// the same sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain Rust in blocks of 64 hidden units, for every processor.
    Portable,
    /// AVX2: blocks of 128 units in eight 256-bit registers.
    Avx2,
    /// AVX-512 (F and BW): blocks of 256 units in eight 512-bit registers, the rest by AVX2.
    Avx512,
}

impl Kernel {
    /// Every kernel, the portable one first.
    pub const ALL: [Kernel; 3] = [Kernel::Portable, Kernel::Avx2, Kernel::Avx512];

    /// Whether this processor can run the kernel (checked at run time).
    pub fn available(self) -> bool {
        match self {
            Kernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx2")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The widest kernel this processor runs.
    #[inline]
    pub fn best() -> Kernel {
        // Looked up once: the feature checks are cached, but this is on every evaluation.
        static BEST: std::sync::OnceLock<Kernel> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| {
            [Kernel::Avx512, Kernel::Avx2]
                .into_iter()
                .find(|k| k.available())
                .unwrap_or(Kernel::Portable)
        })
    }
}

/// The x86-64 kernels of [`TupleNet::output_sum`], written with the processor's vector
/// instructions (each compiled for its instruction set and run only where the processor has it).
#[cfg(target_arch = "x86_64")]
mod simd {
    use std::arch::x86_64::{
        __m256i, __m512i, _mm256_add_epi16, _mm256_add_epi32, _mm256_loadu_si256,
        _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16,
        _mm256_set1_epi16, _mm256_setzero_si256, _mm256_storeu_si256, _mm512_add_epi16,
        _mm512_add_epi32, _mm512_loadu_si512, _mm512_madd_epi16, _mm512_max_epi16,
        _mm512_min_epi16, _mm512_mullo_epi16, _mm512_set1_epi16, _mm512_setzero_si512,
        _mm512_storeu_si512,
    };

    use super::QA;

    /// Registers of a block: its accumulators stay in registers over all the rows.
    const REGS: usize = 8;

    /// A block of `R` registers' worth of hidden units from `start`, by one instruction set.
    /// Each `i32` lane of the output sum adds at most `R` products pairs of at most
    /// `2 * 255^2 * 127` (16.5M): no overflow for `R <= 8`.
    macro_rules! block {
        ($name:ident, $features:literal, $vec:ty, $lanes:expr, $zero:ident, $load:ident,
         $store:ident, $add16:ident, $max16:ident, $min16:ident, $set1:ident, $mullo:ident,
         $madd:ident, $add32:ident) => {
            /// One block (see the module docs of [`super::simd`]).
            ///
            /// # Safety
            /// The processor has the instruction set; `start + R * lanes <= hidden`, where
            /// `hidden = bias.len() = output.len()`; every row of `active` is in `input`.
            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn $name<const R: usize>(
                input: &[i16],
                bias: &[i16],
                output: &[i16],
                active: &[u16],
                start: usize,
            ) -> i64 {
                let hidden = bias.len();
                let mut acc: [$vec; R] = [$zero(); R];
                // SAFETY: every pointer below lies within its slice, by the caller's contract.
                unsafe {
                    for (i, a) in acc.iter_mut().enumerate() {
                        *a = $load(bias.as_ptr().add(start + i * $lanes).cast());
                    }
                    for &f in active {
                        let row = input.as_ptr().add(usize::from(f) * hidden + start);
                        for (i, a) in acc.iter_mut().enumerate() {
                            *a = $add16(*a, $load(row.add(i * $lanes).cast()));
                        }
                    }
                    let (zero, qa) = ($zero(), $set1(QA as i16));
                    let mut sum = $zero();
                    for (i, &a) in acc.iter().enumerate() {
                        let v = $min16($max16(a, zero), qa);
                        let w = $load(output.as_ptr().add(start + i * $lanes).cast());
                        // `v * w` is exact in `i16` (`v <= 255`, `|w| <= 127`).
                        sum = $add32(sum, $madd($mullo(v, w), v));
                    }
                    let mut lanes = [0i32; $lanes / 2];
                    $store(lanes.as_mut_ptr().cast(), sum);
                    lanes.iter().map(|&x| i64::from(x)).sum()
                }
            }
        };
    }

    block!(
        block_avx2,
        "avx2",
        __m256i,
        16,
        _mm256_setzero_si256,
        _mm256_loadu_si256,
        _mm256_storeu_si256,
        _mm256_add_epi16,
        _mm256_max_epi16,
        _mm256_min_epi16,
        _mm256_set1_epi16,
        _mm256_mullo_epi16,
        _mm256_madd_epi16,
        _mm256_add_epi32
    );
    block!(
        block_avx512,
        "avx512f,avx512bw,avx2",
        __m512i,
        32,
        _mm512_setzero_si512,
        _mm512_loadu_si512,
        _mm512_storeu_si512,
        _mm512_add_epi16,
        _mm512_max_epi16,
        _mm512_min_epi16,
        _mm512_set1_epi16,
        _mm512_mullo_epi16,
        _mm512_madd_epi16,
        _mm512_add_epi32
    );

    /// The sum with AVX2 over the hidden units from `start`: blocks of 128, then of 16.
    ///
    /// # Safety
    /// The processor has AVX2; `bias` and `output` hold `hidden` values, a multiple of 16,
    /// and `start` is a multiple of 16; every row of `active` is in `input`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn sum_avx2(
        input: &[i16],
        bias: &[i16],
        output: &[i16],
        active: &[u16],
        mut start: usize,
    ) -> i64 {
        let hidden = bias.len();
        let mut sum = 0;
        // SAFETY: each block lies within `hidden`; the rest is the caller's contract.
        unsafe {
            while start + REGS * 16 <= hidden {
                sum += block_avx2::<REGS>(input, bias, output, active, start);
                start += REGS * 16;
            }
            while start < hidden {
                sum += block_avx2::<1>(input, bias, output, active, start);
                start += 16;
            }
        }
        sum
    }

    /// The sum with AVX-512: blocks of 256 hidden units, then of 32, then the rest (16 at
    /// most) by [`sum_avx2`].
    ///
    /// # Safety
    /// As [`sum_avx2`] from 0, with AVX-512 F and BW as well.
    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    pub(super) unsafe fn sum_avx512(
        input: &[i16],
        bias: &[i16],
        output: &[i16],
        active: &[u16],
    ) -> i64 {
        let hidden = bias.len();
        let (mut sum, mut start) = (0, 0);
        // SAFETY: each block lies within `hidden`; the rest is the caller's contract.
        unsafe {
            while start + REGS * 32 <= hidden {
                sum += block_avx512::<REGS>(input, bias, output, active, start);
                start += REGS * 32;
            }
            while start + 32 <= hidden {
                sum += block_avx512::<1>(input, bias, output, active, start);
                start += 32;
            }
            sum + sum_avx2(input, bias, output, active, start)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AtaxxStandard;
    use crate::game::Game;
    use crate::notation::Notation;

    /// The features by a slow walk over the squares.
    fn slow_features(pos: &AtaxxStandard) -> Vec<u16> {
        let side = pos.side_to_move();
        let digit = |rank: u32, file: u32| {
            let sq = 8 * rank + file;
            if pos.stones(side).0 >> sq & 1 == 1 {
                1
            } else if pos.stones(!side).0 >> sq & 1 == 1 {
                2
            } else {
                0
            }
        };
        let mut out = Vec::new();
        for r in 0..6 {
            for f in 0..6 {
                let state = digit(r, f)
                    + 3 * digit(r, f + 1)
                    + 9 * digit(r + 1, f)
                    + 27 * digit(r + 1, f + 1);
                out.push((81 * (6 * r + f) + state) as u16);
            }
        }
        out
    }

    #[test]
    fn features_match_a_slow_walk_over_random_games() {
        let mut seed = 0x1234_5678_u64;
        let mut checked = 0;
        for _ in 0..20 {
            let mut pos = AtaxxStandard::startpos();
            for _ in 0..120 {
                let mut moves = <AtaxxStandard as Game>::Moves::default();
                pos.generate_moves(&mut moves);
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                pos.play(moves[(seed >> 33) as usize % moves.len()]);
                let side = pos.side_to_move();
                let fast = features(pos.stones(side).0, pos.stones(!side).0);
                assert_eq!(fast.to_vec(), slow_features(&pos));
                assert_eq!(fast, features_by_window(pos.stones(side).0, pos.stones(!side).0));
                checked += 1;
            }
        }
        assert!(checked > 500, "only {checked}");
    }

    #[test]
    fn features_of_a_known_position() {
        // x on a1 and b2, o on g7; x to move: window a1 holds x, empty, empty, x.
        let pos = AtaxxStandard::parse_position("6o/7/7/7/7/1x5/x6 x 0 1").unwrap();
        let f = features(pos.stones(pos.side_to_move()).0, pos.stones(!pos.side_to_move()).0);
        assert_eq!(f[0], 1 + 27);
        assert_eq!(f[35], 81 * 35 + 2 * 27);
        assert!(f[1..35].iter().enumerate().all(|(i, &v)| {
            let w = i + 1;
            v as usize == 81 * w || [1, 6, 7].contains(&w)
        }));
    }
}
