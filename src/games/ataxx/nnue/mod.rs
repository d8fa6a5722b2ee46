//! A learned evaluation for the Ataxx engine: an NNUE (efficiently updatable neural network).
//!
//! Two architectures, told apart by the file's version: the *squares* net of this module
//! (version 1), whose accumulators follow the moves, and the [`tuples`] net (version 2, 3
//! with an input per blocked square, 4 with output buckets as well), whose inputs are the 36 2x2 windows of the board and which
//! is evaluated from scratch. [`Network`] reads either; [`NetAtaxx`] plays with either.
//!
//! # Shape (squares net)
//!
//! `98 -> 2 x HIDDEN -> 1`. The inputs of one *perspective* (a colour) are 49 "own stone on
//! square s" features and 49 "other stone on square s" features, `s = 7 * rank + file`
//! ([`feature`]). Both perspectives share one input layer ([`HIDDEN`] units), whose sums are
//! the two *accumulators*. The output layer reads the side to move's accumulator and then the
//! other one, each through a squared clipped `ReLU` (`SCReLU(x) = clamp(x, 0, 1)^2`), and gives a
//! logit `y` (the win probability of the side to move is about `sigmoid(y)`); the evaluation
//! is `y * scale` in engine units (a stone is about 100; `scale` is stored in the file).
//!
//! No geometric symmetry is folded in: swapping the colours is a symmetry of the rules, and
//! the colour-relative features already share it between the two perspectives.
//!
//! # Integer inference
//!
//! Input weights and biases are `i16` in units of `1 / QA` ([`QA`] = 255), so an accumulator
//! holds `QA` times the float sum and `clamp(acc, 0, QA)^2` is `QA^2` times the float `SCReLU`.
//! Output weights are `i16` in units of `1 / QB` ([`QB`] = 64), limited to `±127` (checked when
//! loading, so the `i32` sums cannot overflow); the output bias is `i32` in units of
//! `1 / (QA * QB)`. The evaluation is `(sum / QA + bias) * scale / (QA * QB)`.
//!
//! A move changes few inputs: a clone adds one stone and flips up to eight, a jump also
//! removes one. [`NetAtaxx`] keeps both accumulators next to the position and updates them in
//! [`Game::play`] from the squares that changed, so a search that
//! copies positions (copy-make) copies the accumulators with them.
//!
//! # File format of the squares net (`.nnue`, little-endian), version 1
//!
//! | bytes | field |
//! |-------|-------|
//! | 0..8 | magic `BSAXNNUE` |
//! | 8..12 | version (`u32`, [`VERSION`]) |
//! | 12..16 | inputs (`u32`, [`INPUTS`] = 98) |
//! | 16..20 | hidden units per perspective (`u32`, [`HIDDEN`]) |
//! | 20..24 | `QA` (`u32`, 255) |
//! | 24..28 | `QB` (`u32`, 64) |
//! | 28..32 | scale (`i32`, engine units per logit, 1..=10000) |
//! | 32.. | input weights: `INPUTS` rows of `HIDDEN` `i16`, row `f` for feature `f` |
//! | | input biases: `HIDDEN` `i16` |
//! | | output weights: `2 * HIDDEN` `i16`, side to move's half first, each within `±127` |
//! | | output bias: `i32` |
//!
//! Nothing may follow. `scripts/ataxx_train.py` writes this format; [`Network::to_bytes`]
//! does too.

#[cfg(test)]
mod tests;
pub mod tuples;

use std::sync::OnceLock;

use super::{Ataxx, AtaxxMove, Squares};
use crate::game::{Evaluate, Game, Outcome, Player};

/// Inputs per perspective: own and other stones on 49 squares.
pub const INPUTS: usize = 98;
/// Hidden units per perspective.
pub const HIDDEN: usize = 128;
/// Scale of input weights and accumulators (1.0 = `QA`).
pub const QA: i32 = 255;
/// Scale of output weights (1.0 = `QB`).
pub const QB: i32 = 64;
/// Largest output weight magnitude a file may hold.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
/// File format version of a squares net.
pub const VERSION: u32 = 1;
/// Magic bytes at the start of a net file.
pub const MAGIC: &[u8; 8] = b"BSAXNNUE";
/// Bytes of the header.
pub const HEADER_BYTES: usize = 32;
/// Bytes of a whole squares net file.
pub const FILE_BYTES: usize = HEADER_BYTES + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// The embedded default net (see `nets/ataxx/README.md`).
static EMBEDDED: &[u8] =
    include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/ataxx/default.nnue"));

/// Why a net file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file does not start with [`MAGIC`].
    BadMagic,
    /// A version this build does not read.
    Version(u32),
    /// A header field differs from this build's shape (field name, found, expected).
    Shape(&'static str, i64, i64),
    /// A tuples net's hidden size is not a multiple of 16 from 16 to
    /// [`tuples::MAX_HIDDEN`] (the size found).
    Hidden(i64),
    /// The scale is outside `1..=10000`.
    Scale(i32),
    /// The file has the wrong length (found, expected).
    Length(usize, usize),
    /// A version-4 tuples net's output buckets are not in `1..=`[`tuples::MAX_BUCKETS`] (the
    /// count found).
    Buckets(i64),
    /// An output weight beyond `±127` (its index).
    OutputWeight(usize),
    /// The file could not be read (the error text).
    Io(String),
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::BadMagic => write!(f, "not an Ataxx net (magic is not BSAXNNUE)"),
            NetError::Version(v) => {
                write!(
                    f,
                    "net format version {v}, this build reads {VERSION}, {}, {} and {}",
                    tuples::VERSION,
                    tuples::BLOCKED_VERSION,
                    tuples::BUCKETS_VERSION
                )
            }
            NetError::Shape(what, got, want) => write!(f, "{what} is {got}, expected {want}"),
            NetError::Hidden(h) => write!(
                f,
                "hidden is {h}, a tuples net needs a multiple of 16 from 16 to {}",
                tuples::MAX_HIDDEN
            ),
            NetError::Scale(s) => write!(f, "scale {s} outside 1..=10000"),
            NetError::Buckets(b) => {
                write!(f, "{b} output buckets, a net may have 1 to {}", tuples::MAX_BUCKETS)
            }
            NetError::Length(got, want) => {
                write!(f, "file is {got} bytes, a net of this header is {want}")
            }
            NetError::OutputWeight(i) => {
                write!(f, "output weight {i} is beyond ±{MAX_OUTPUT_WEIGHT}")
            }
            NetError::Io(e) => write!(f, "cannot read the net: {e}"),
        }
    }
}

impl std::error::Error for NetError {}

/// A net file of either architecture: the squares net of this module (version 1) or the
/// [`tuples`] net (version 2, 3 with blocked-square inputs, 4 with output buckets as well).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Network {
    /// Version 1: `98 -> 2 x HIDDEN -> 1`, accumulators kept up to date move by move.
    Squares(Box<SquareNet>),
    /// Versions 2 to 4: 2x2 windows, `2916 -> H -> 1` (and more), evaluated from scratch.
    Tuples(tuples::TupleNet),
}

/// A quantised squares net (see the [module docs](self) for the shape and the file format).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareNet {
    /// `INPUTS` rows of `HIDDEN` weights.
    input_weights: Vec<[i16; HIDDEN]>,
    input_bias: [i16; HIDDEN],
    /// The side to move's half, then the other's.
    output_weights: [[i16; HIDDEN]; 2],
    output_bias: i32,
    scale: i32,
    fingerprint: u64,
}

/// FNV-1a of `bytes`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// Reads little-endian numbers from a byte slice whose length was checked.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, tail) = self.0.split_at(N);
        self.0 = tail;
        head.try_into().unwrap_or([0; N])
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
    /// The header's `QA`, `QB` and scale fields, checked (both versions share them); the
    /// scale.
    fn quantisation(&mut self) -> Result<i32, NetError> {
        for (what, want) in [("QA", QA), ("QB", QB)] {
            let got = i64::from(self.u32());
            if got != i64::from(want) {
                return Err(NetError::Shape(what, got, want.into()));
            }
        }
        let scale = self.i32();
        if !(1..=10_000).contains(&scale) {
            return Err(NetError::Scale(scale));
        }
        Ok(scale)
    }
    fn i16s(&mut self, out: &mut [i16]) {
        for w in out {
            *w = i16::from_le_bytes(self.take());
        }
    }
}

impl Network {
    /// Parses a net file of either version.
    ///
    /// # Errors
    /// A bad magic, version, shape, scale, length or output weight ([`NetError`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err(if bytes.len() >= 8 || !MAGIC.starts_with(bytes) {
                NetError::BadMagic
            } else {
                NetError::Length(bytes.len(), FILE_BYTES)
            });
        }
        let version = Reader(&bytes[8..]).u32();
        match version {
            VERSION => SquareNet::parse(bytes, fnv1a(bytes)).map(|n| Network::Squares(Box::new(n))),
            tuples::VERSION | tuples::BLOCKED_VERSION | tuples::BUCKETS_VERSION => {
                tuples::TupleNet::parse(bytes, fnv1a(bytes)).map(Network::Tuples)
            }
            _ => Err(NetError::Version(version)),
        }
    }

    /// Reads a net file.
    ///
    /// # Errors
    /// The file cannot be read or is not a valid net.
    pub fn load_file(path: impl AsRef<std::path::Path>) -> Result<Network, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io(e.to_string()))?;
        Network::from_bytes(&bytes)
    }

    /// The net file of this net.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Network::Squares(n) => n.to_bytes(),
            Network::Tuples(n) => n.to_bytes(),
        }
    }

    /// The embedded default net, parsed once.
    pub fn embedded() -> &'static Network {
        static NET: OnceLock<Network> = OnceLock::new();
        NET.get_or_init(|| Network::from_bytes(EMBEDDED).expect("the embedded net is valid"))
    }

    /// FNV-1a hash of the file this net was read from (to name a net in logs and data).
    pub fn fingerprint(&self) -> u64 {
        match self {
            Network::Squares(n) => n.fingerprint,
            Network::Tuples(n) => n.fingerprint,
        }
    }

    /// Engine units per logit.
    pub fn scale(&self) -> i32 {
        match self {
            Network::Squares(n) => n.scale,
            Network::Tuples(n) => n.scale,
        }
    }

    /// The accumulators [`NetAtaxx`] keeps for `pos`: those of a squares net, zero for a tuples
    /// net (which keeps none).
    pub fn refresh<const POLISH: bool>(&self, pos: &Ataxx<POLISH>) -> Accumulator {
        match self {
            Network::Squares(n) => n.refresh(pos),
            Network::Tuples(_) => Accumulator { values: [[0; HIDDEN]; 2] },
        }
    }

    /// The evaluation in floating point from the dequantised weights (a reference for tests
    /// and for checking the trainer's export).
    pub fn evaluate_float<const POLISH: bool>(&self, pos: &Ataxx<POLISH>) -> f64 {
        match self {
            Network::Squares(n) => n.evaluate_float(pos),
            Network::Tuples(n) => n.evaluate_float(pos),
        }
    }
}

impl SquareNet {
    /// Parses a version-1 file whose magic and version were checked.
    fn parse(bytes: &[u8], fingerprint: u64) -> Result<SquareNet, NetError> {
        let mut r = Reader(&bytes[12..]);
        for (what, want) in [("inputs", INPUTS as i64), ("hidden", HIDDEN as i64)] {
            let got = i64::from(r.u32());
            if got != want {
                return Err(NetError::Shape(what, got, want));
            }
        }
        let scale = r.quantisation()?;
        if bytes.len() != FILE_BYTES {
            return Err(NetError::Length(bytes.len(), FILE_BYTES));
        }
        let mut input_weights = vec![[0i16; HIDDEN]; INPUTS];
        for row in &mut input_weights {
            r.i16s(row);
        }
        let mut input_bias = [0i16; HIDDEN];
        r.i16s(&mut input_bias);
        let mut output_weights = [[0i16; HIDDEN]; 2];
        for half in &mut output_weights {
            r.i16s(half);
        }
        let output_bias = r.i32();
        if let Some(i) = output_weights
            .iter()
            .flatten()
            .position(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16)
        {
            return Err(NetError::OutputWeight(i));
        }
        Ok(SquareNet { input_weights, input_bias, output_weights, output_bias, scale, fingerprint })
    }

    /// The net file of this net.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(MAGIC);
        for v in [VERSION, INPUTS as u32, HIDDEN as u32, QA as u32, QB as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.scale.to_le_bytes());
        let weights = self.input_weights.iter().flatten().chain(&self.input_bias);
        for w in weights.chain(self.output_weights.iter().flatten()) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// The accumulators of `pos` computed from nothing.
    pub fn refresh<const POLISH: bool>(&self, pos: &Ataxx<POLISH>) -> Accumulator {
        let mut acc = Accumulator { values: [self.input_bias; 2] };
        for perspective in Player::ALL {
            for colour in Player::ALL {
                for sq in pos.stones(colour) {
                    add(
                        &mut acc.values[perspective.index()],
                        &self.input_weights[feature(perspective, colour, sq)],
                    );
                }
            }
        }
        acc
    }

    /// The evaluation (engine units, side to move's view) of accumulators `acc` with `side` to
    /// move.
    pub fn evaluate(&self, acc: &Accumulator, side: Player) -> i32 {
        let us = screlu_dot(&acc.values[side.index()], &self.output_weights[0]);
        let them = screlu_dot(&acc.values[(!side).index()], &self.output_weights[1]);
        let raw = (i64::from(us) + i64::from(them)) / i64::from(QA) + i64::from(self.output_bias);
        (raw * i64::from(self.scale) / i64::from(QA * QB)).clamp(-20_000, 20_000) as i32
    }

    /// The same evaluation in floating point from the dequantised weights (a reference for
    /// tests and for checking the trainer's export).
    pub fn evaluate_float<const POLISH: bool>(&self, pos: &Ataxx<POLISH>) -> f64 {
        let side = pos.side_to_move();
        let mut y = f64::from(self.output_bias) / f64::from(QA * QB);
        for (half, perspective) in [side, !side].into_iter().enumerate() {
            let mut sums: Vec<f64> = self.input_bias.iter().map(|&b| f64::from(b)).collect();
            for colour in Player::ALL {
                for sq in pos.stones(colour) {
                    let row = &self.input_weights[feature(perspective, colour, sq)];
                    for (s, &w) in sums.iter_mut().zip(row) {
                        *s += f64::from(w);
                    }
                }
            }
            for (s, &w) in sums.iter().zip(&self.output_weights[half]) {
                let v = (s / f64::from(QA)).clamp(0.0, 1.0);
                y += v * v * f64::from(w) / f64::from(QB);
            }
        }
        y * f64::from(self.scale)
    }
}

/// The input index of a stone of `colour` on stride-8 square `sq`, seen by `perspective`.
#[inline]
pub fn feature(perspective: Player, colour: Player, sq: u32) -> usize {
    let s = (sq >> 3) * 7 + (sq & 7);
    s as usize + if colour == perspective { 0 } else { 49 }
}

#[inline]
fn add(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
}

#[inline]
fn sub(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(w);
    }
}

/// `sum clamp(a, 0, QA)^2 * w` (fits in `i32`: at most `HIDDEN * QA^2 * 127`).
#[inline]
fn screlu_dot(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let v = i32::from(a.clamp(0, QA as i16));
            v * v * i32::from(w)
        })
        .sum()
}

/// The input layer's sums for both perspectives (indexed by [`Player::index`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// Updates both perspectives after a move by `mover` that put stones on `added` (the
    /// destination and the flipped stones), removed its stone from `vacated` (a jump's origin)
    /// and took the other side's stones on `flipped`.
    fn update(
        &mut self,
        net: &SquareNet,
        mover: Player,
        added: Squares,
        vacated: Squares,
        flipped: Squares,
    ) {
        for perspective in Player::ALL {
            let acc = &mut self.values[perspective.index()];
            for sq in added {
                add(acc, &net.input_weights[feature(perspective, mover, sq)]);
            }
            for sq in vacated {
                sub(acc, &net.input_weights[feature(perspective, mover, sq)]);
            }
            for sq in flipped {
                sub(acc, &net.input_weights[feature(perspective, !mover, sq)]);
            }
        }
    }
}

/// An Ataxx position with the evaluation the engine should use: the hand-made one
/// (`net` = `None`) or a net, whose accumulators it keeps up to date on every move.
#[derive(Clone, Debug)]
pub struct NetAtaxx<const POLISH: bool> {
    pos: Ataxx<POLISH>,
    net: Option<&'static Network>,
    acc: Accumulator,
}

impl<const POLISH: bool> NetAtaxx<POLISH> {
    /// `pos` evaluated by `net` (or by the hand-made evaluation if `None`).
    pub fn new(pos: Ataxx<POLISH>, net: Option<&'static Network>) -> Self {
        let acc = match net {
            Some(n) => n.refresh(&pos),
            None => Accumulator { values: [[0; HIDDEN]; 2] },
        };
        // (A tuples net keeps no accumulators: `refresh` gives zeros and `play` leaves them.)
        NetAtaxx { pos, net, acc }
    }

    /// The position.
    pub fn position(&self) -> &Ataxx<POLISH> {
        &self.pos
    }

    /// The accumulators as kept up to date by [`Game::play`] (zero without a net).
    pub fn accumulator(&self) -> &Accumulator {
        &self.acc
    }
}

impl<const POLISH: bool> Game for NetAtaxx<POLISH> {
    type Move = AtaxxMove;
    type Moves = <Ataxx<POLISH> as Game>::Moves;

    const ACYCLIC: bool = false;

    #[inline]
    fn generate_moves(&self, moves: &mut Self::Moves) {
        self.pos.generate_moves(moves);
    }

    #[inline]
    fn play(&mut self, mv: AtaxxMove) {
        let Some(Network::Squares(net)) = self.net else {
            self.pos.play(mv);
            return;
        };
        let mover = self.pos.side_to_move();
        let (own, other) = (self.pos.stones(mover), self.pos.stones(!mover));
        self.pos.play(mv);
        let (own_after, other_after) = (self.pos.stones(mover), self.pos.stones(!mover));
        self.acc.update(net, mover, own_after - own, own - own_after, other - other_after);
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn exact_key(&self) -> Option<u128> {
        self.pos.exact_key()
    }

    fn reversible_plies(&self) -> Option<u32> {
        self.pos.reversible_plies()
    }
}

impl<const POLISH: bool> Evaluate for NetAtaxx<POLISH> {
    /// Measured with the embedded net22a (scale 700): against no futility pruning on
    /// `ply3_fair` at 1 s + 10 ms, +54.9 +- 25.7 Elo in 689 games, SPRT (0, 10) H1 accepted
    /// (`results/ataxx/sprt/fp-vs-base/`).
    const FUTILITY_MARGINS: Option<(i32, i32)> = Some((160, 80));

    /// A cutoff moves a history by `min(300 * depth, 1500)`; a late move is reduced a ply
    /// less at a history of 6,144 or more, a ply more at -6,144 or less (Zataxx's values;
    /// adopted by its fixed 1,000-game match, `results/ataxx/sprt/`).
    const HISTORY_REDUCTIONS: Option<(i32, i32, i32)> = Some((300, 1500, 12288));

    /// 2^16 slots (512 KiB).
    const EVAL_CACHE_BITS: u32 = 16;

    /// With a net: the hash (stones, side to move, blocked squares: all the evaluation reads
    /// of the position) mixed with the net's fingerprint, so that two nets never share an
    /// entry. The hand-made evaluation is too cheap to cache (it ran about 8 % slower).
    #[inline]
    fn eval_key(&self) -> Option<u64> {
        self.net.map(|net| self.pos.hash() ^ net.fingerprint().rotate_left(23))
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        match self.net {
            Some(Network::Squares(net)) => net.evaluate(&self.acc, self.pos.side_to_move()),
            Some(Network::Tuples(net)) => net.evaluate(&self.pos),
            None => self.pos.evaluate(),
        }
    }

    /// One unit per stone the move flips and two for a clone, as Zataxx orders its moves (the
    /// hand-made evaluation's hint weighs a flip twice and a clone once). Against that hint,
    /// +76.0 +- 30.7 Elo at 1 s + 10 ms in 483 games, SPRT (0, 10) H1 accepted
    /// (`results/ataxx/sprt/hintz-vs-hist/`).
    #[inline]
    fn move_hint(&self, mv: AtaxxMove) -> i32 {
        self.pos.hint_weighted(mv, 1, 2)
    }

    #[inline]
    fn is_futile(&self, mv: AtaxxMove) -> bool {
        self.pos.is_futile(mv)
    }

    #[inline]
    fn is_rule_draw(&self) -> bool {
        self.pos.is_rule_draw()
    }
}
