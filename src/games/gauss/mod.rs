//! Gauss (Susumu Kawasaki, 2009): place a disc of either colour, magnets push and pull, groups
//! of four are collected, and the score decides.
//!
//! The board is the hexagon of side 4 ([`board`]): 19 inner cells to play on, surrounded by a
//! void ring of 18 cells. The first player owns red, the second blue; each holds 10 discs of
//! their own colour and 5 of the other's. A turn places one held disc on an empty inner cell;
//! then the magnet step ([`rules`]): along each of the six rays from the placed disc the first
//! disc met (void included) is repelled outward if it has the placed colour (to the cell before
//! the next disc, or to the end of the ray) and attracted to the cell next to the placed disc
//! otherwise. Then every connected group of four or more same-colour discs is collected, both
//! colours: each disc goes to its colour owner's bonus zone (from an inner cell) or risk zone
//! (from a void cell). A full inner area always holds such a group, so the inner area is never
//! full when a player is to move and every game lasts exactly 30 placements (under the row
//! option it can fill up, and the game then ends early). At the end: one point per bonus disc, and the player whose
//! colour has strictly more discs on the void loses one point per risk disc. Ties go to fewer
//! own discs on the void, then fewer risk discs, then a draw.
//!
//! Two readings of the rulebook are uncertain and are [`Rules`] options: connected groups
//! (default) or straight rows of four, and the order of the two tie-breaks.
//!
//! The final points difference is exposed through [`Scored`], so the score solvers of
//! [`crate::search::score`] compute the exact score of a position under perfect play.

pub mod board;
pub mod eval;
pub mod notation;
pub mod picture;
pub mod rules;
pub mod symmetry;
#[cfg(test)]
mod tests;

use arrayvec::ArrayVec;

use self::board::{Board, POINTS};
use crate::game::{Game, Outcome, Perft, Player, Scored};
use crate::zobrist::{KeyStream, keys};

/// Discs of each colour in the game (10 with their owner, 5 with the opponent).
pub const DISCS_PER_COLOUR: u8 = 15;
/// Discs each player starts with of their own colour.
pub const OWN_DISCS: u8 = 10;
/// Discs each player starts with of the opponent's colour.
pub const OTHER_DISCS: u8 = 5;
/// Placements in every game.
pub const PLACEMENTS: u32 = 30;

/// A disc colour. Red belongs to the first player, blue to the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// The first player's colour.
    Red,
    /// The second player's colour.
    Blue,
}

impl Colour {
    /// Both colours, red first.
    pub const ALL: [Colour; 2] = [Colour::Red, Colour::Blue];

    /// 0 for red, 1 for blue.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Colour {
        match self {
            Colour::Red => Colour::Blue,
            Colour::Blue => Colour::Red,
        }
    }

    /// The player who owns (scores) this colour.
    #[inline]
    pub const fn owner(self) -> Player {
        match self {
            Colour::Red => Player::First,
            Colour::Blue => Player::Second,
        }
    }

    /// The colour `player` owns.
    #[inline]
    pub const fn of(player: Player) -> Colour {
        match player {
            Player::First => Colour::Red,
            Player::Second => Colour::Blue,
        }
    }

    /// `r` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'r',
            Colour::Blue => 'b',
        }
    }
}

/// Which discs the collection step removes (the rulebook reading is uncertain).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Collection {
    /// Every maximal 6-connected group of 4 or more same-colour discs (the default: most rule
    /// summaries say so).
    #[default]
    Group,
    /// Every straight row of 4 or more same-colour discs (one summary's reading).
    Row,
}

/// Order of the tie-breaks on equal scores (the rulebook reading is uncertain).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// Fewer own-colour discs on the void first, then fewer risk discs (the default).
    #[default]
    VoidThenRisk,
    /// Fewer risk discs first, then fewer own-colour discs on the void.
    RiskThenVoid,
}

/// The rule options of a game; the defaults are the documented readings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// What is collected.
    pub collection: Collection,
    /// How equal scores are split.
    pub tie_break: TieBreak,
}

impl Rules {
    /// The `i`-th rule set of a fixed mix that covers every reading (a quarter with the row
    /// rule, a third with risk before void): for random test suites.
    pub fn mixed(i: usize) -> Rules {
        Rules {
            collection: if i % 4 == 3 { Collection::Row } else { Collection::Group },
            tie_break: if i % 3 == 2 { TieBreak::RiskThenVoid } else { TieBreak::VoidThenRisk },
        }
    }

    fn key_index(self) -> usize {
        usize::from(self.collection == Collection::Row)
            | usize::from(self.tie_break == TieBreak::RiskThenVoid) << 1
    }
}

/// A move: place a disc of `colour` on the inner cell `point`.
///
/// Packed in one byte: bits 0..6 the point (0..37), bit 6 the colour (0 red, 1 blue).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GaussMove(u8);

impl GaussMove {
    const COLOUR_BIT: u8 = 1 << 6;

    /// Places `colour` on `point`.
    ///
    /// # Panics
    /// If `point` is not a point of the board.
    #[track_caller]
    pub const fn new(point: u8, colour: Colour) -> Self {
        assert!((point as usize) < POINTS, "point out of range");
        GaussMove(point | if matches!(colour, Colour::Blue) { Self::COLOUR_BIT } else { 0 })
    }

    /// The target point.
    #[inline]
    pub const fn point(self) -> u8 {
        self.0 & (Self::COLOUR_BIT - 1)
    }

    /// The colour placed.
    #[inline]
    pub const fn colour(self) -> Colour {
        if self.0 & Self::COLOUR_BIT == 0 { Colour::Red } else { Colour::Blue }
    }
}

/// Most moves in a position: 19 inner cells times 2 colours.
pub const MAX_MOVES: usize = 38;

/// The move list of [`Gauss`].
pub type GaussMoves = ArrayVec<GaussMove, MAX_MOVES>;

/// Zobrist key layout: 37 points x 2 colours, side to move, supplies (player x colour x
/// count), bonus (colour x count), risk (colour x count), rule options.
const KEY_SIDE: usize = 2 * POINTS;
const KEY_SUPPLY: usize = KEY_SIDE + 1;
const KEY_BONUS: usize = KEY_SUPPLY + 4 * 16;
const KEY_RISK: usize = KEY_BONUS + 2 * 16;
const KEY_RULES: usize = KEY_RISK + 2 * 16;
const KEY_COUNT: usize = KEY_RULES + 4;
static KEYS: [u64; KEY_COUNT] = keys::<KEY_COUNT>(0x6A55_5000_0000_0006);

/// A Gauss position: discs on the board, supplies, zones, side to move and rule options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gauss {
    /// Discs of each colour (red, blue) on the 37 points.
    discs: [u64; 2],
    /// `supply[player][colour]`: discs a player still holds.
    supply: [[u8; 2]; 2],
    /// Bonus zone of each colour's owner (discs collected from inner cells).
    bonus: [u8; 2],
    /// Risk zone of each colour's owner (discs collected from the void).
    risk: [u8; 2],
    side: Player,
    rules: Rules,
    hash: u64,
}

/// The points difference and the tie-break figures at the end, from red's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinalTally {
    /// Points of red's and blue's owners.
    pub points: [i32; 2],
    /// Discs of each colour on the void.
    pub void_discs: [u32; 2],
}

impl Gauss {
    /// The start position under `rules`: empty board, full supplies, red (first) to move.
    pub fn start(rules: Rules) -> Self {
        let mut g = Gauss {
            discs: [0; 2],
            supply: [[OWN_DISCS, OTHER_DISCS], [OTHER_DISCS, OWN_DISCS]],
            bonus: [0; 2],
            risk: [0; 2],
            side: Player::First,
            rules,
            hash: 0,
        };
        g.hash = g.hash_from_scratch();
        g
    }

    /// Builds a position from its parts, checking every invariant of reachable play except
    /// history: disc totals of 15 per colour, supplies within their start values, discs only on
    /// the board's points, no collectable group left, and the side to move matching the number
    /// of discs each player has placed.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    pub fn from_parts(
        discs: [u64; 2],
        supply: [[u8; 2]; 2],
        bonus: [u8; 2],
        risk: [u8; 2],
        side: Player,
        rules: Rules,
    ) -> Result<Self, String> {
        let all = (1u64 << POINTS) - 1;
        if discs[0] & discs[1] != 0 {
            return Err("a point holds two discs".into());
        }
        if (discs[0] | discs[1]) & !all != 0 {
            return Err("a disc lies outside the board".into());
        }
        for p in Player::ALL {
            for c in Colour::ALL {
                let start = if Colour::of(p) == c { OWN_DISCS } else { OTHER_DISCS };
                if supply[p.index()][c.index()] > start {
                    return Err(format!("supply of {} above {start}", c.letter()));
                }
            }
        }
        for c in Colour::ALL {
            let i = c.index();
            let total = discs[i].count_ones()
                + u32::from(supply[0][i])
                + u32::from(supply[1][i])
                + u32::from(bonus[i])
                + u32::from(risk[i]);
            if total != u32::from(DISCS_PER_COLOUR) {
                return Err(format!(
                    "{} discs add up to {total} (board + supplies + bonus + risk), not 15",
                    c.letter()
                ));
            }
        }
        let placed = |p: usize| 15 - supply[p][0] - supply[p][1];
        let expected = match placed(0).checked_sub(placed(1)) {
            Some(0) => Player::First,
            Some(1) => Player::Second,
            _ => return Err("the players' placement counts are not alternating".into()),
        };
        if side != expected {
            return Err(format!("side to move must be {}", Colour::of(expected).letter()));
        }
        let mut g = Gauss { discs, supply, bonus, risk, side, rules, hash: 0 };
        if rules::collectable(&g, discs[0] | discs[1]) != [0, 0] {
            return Err(
                "a group of four or more is on the board (it would have been collected)".into()
            );
        }
        g.hash = g.hash_from_scratch();
        Ok(g)
    }

    /// Discs of `colour` on the board.
    #[inline]
    pub fn discs(&self, colour: Colour) -> u64 {
        self.discs[colour.index()]
    }

    /// Discs of `colour` that `player` still holds.
    #[inline]
    pub fn supply(&self, player: Player, colour: Colour) -> u8 {
        self.supply[player.index()][colour.index()]
    }

    /// Discs of `colour` in its owner's bonus zone.
    #[inline]
    pub fn bonus(&self, colour: Colour) -> u8 {
        self.bonus[colour.index()]
    }

    /// Discs of `colour` in its owner's risk zone.
    #[inline]
    pub fn risk(&self, colour: Colour) -> u8 {
        self.risk[colour.index()]
    }

    /// The player to move.
    #[inline]
    pub fn side_to_move(&self) -> Player {
        self.side
    }

    /// The rule options.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Whether the game is over: 30 placements made, or (possible only under the row rule,
    /// where a full inner area need not contain four in a row) no empty inner cell left.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.remaining() == 0 || Board::get().inner & !(self.discs[0] | self.discs[1]) == 0
    }

    /// Placements made so far (0..=30).
    #[inline]
    pub fn placements(&self) -> u32 {
        PLACEMENTS - self.remaining()
    }

    /// Placements left until the end (30 at the start).
    #[inline]
    pub fn remaining(&self) -> u32 {
        self.supply.iter().flatten().map(|&n| u32::from(n)).sum()
    }

    /// Points and void counts as they would be scored if the game ended now.
    pub fn tally(&self) -> FinalTally {
        let b = Board::get();
        let void_discs =
            [(self.discs[0] & b.void).count_ones(), (self.discs[1] & b.void).count_ones()];
        let mut points = [i32::from(self.bonus[0]), i32::from(self.bonus[1])];
        for c in 0..2 {
            if void_discs[c] > void_discs[1 - c] {
                points[c] -= i32::from(self.risk[c]);
            }
        }
        FinalTally { points, void_discs }
    }

    /// A copy with `mv` played but its hash not updated: for positions looked at once and
    /// dropped (the score of the last placement, the horizon of ordering searches).
    fn played_unhashed(&self, mv: GaussMove) -> Gauss {
        let mut child = *self;
        child.supply[self.side.index()][mv.colour().index()] -= 1;
        rules::place::<false>(&mut child, mv);
        child.side = !child.side;
        child
    }

    /// The score if the game ended now, from the side to move's view.
    pub fn provisional_score(&self) -> i32 {
        let t = self.tally();
        let me = Colour::of(self.side).index();
        t.points[me] - t.points[1 - me]
    }

    /// The result if the game ended now (score, then tie-breaks), from the side to move's view.
    pub fn provisional_outcome(&self) -> Outcome {
        let t = self.tally();
        let me = Colour::of(self.side).index();
        let op = 1 - me;
        // Each key: larger is better for the side to move.
        let score = t.points[me] - t.points[op];
        let void = t.void_discs[op] as i32 - t.void_discs[me] as i32;
        let risk = i32::from(self.risk[op]) - i32::from(self.risk[me]);
        let keys = match self.rules.tie_break {
            TieBreak::VoidThenRisk => [score, void, risk],
            TieBreak::RiskThenVoid => [score, risk, void],
        };
        match keys.iter().find(|&&k| k != 0) {
            Some(&k) if k > 0 => Outcome::Win,
            Some(_) => Outcome::Loss,
            None => Outcome::Draw,
        }
    }

    /// The hash computed from nothing (the incremental one must equal it).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = self.counter_hash() ^ self.rules_key();
        for c in 0..2 {
            let mut bits = self.discs[c];
            while bits != 0 {
                h ^= KEYS[c * POINTS + bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        }
        h
    }

    /// The key of the rule options.
    fn rules_key(&self) -> u64 {
        KEYS[KEY_RULES + self.rules.key_index()]
    }

    /// The keys of everything but the board and the rules.
    fn counter_hash(&self) -> u64 {
        let mut h = if self.side == Player::Second { KEYS[KEY_SIDE] } else { 0 };
        for p in 0..2 {
            for c in 0..2 {
                h ^= KEYS[KEY_SUPPLY + (p * 2 + c) * 16 + self.supply[p][c] as usize];
            }
        }
        for c in 0..2 {
            h ^= KEYS[KEY_BONUS + c * 16 + self.bonus[c] as usize];
            h ^= KEYS[KEY_RISK + c * 16 + self.risk[c] as usize];
        }
        h
    }

    /// Adds `inner` discs of colour index `c` to its owner's bonus zone and `void` to the risk
    /// zone (counts and hash).
    #[inline]
    fn collect<const HASH: bool>(&mut self, c: usize, inner: u8, void: u8) {
        let (bonus, risk) = (KEY_BONUS + c * 16, KEY_RISK + c * 16);
        if HASH {
            self.hash ^=
                KEYS[bonus + usize::from(self.bonus[c])] ^ KEYS[risk + usize::from(self.risk[c])];
        }
        self.bonus[c] += inner;
        self.risk[c] += void;
        if HASH {
            self.hash ^=
                KEYS[bonus + usize::from(self.bonus[c])] ^ KEYS[risk + usize::from(self.risk[c])];
        }
    }

    /// Updates the hash for the discs of colour index `c` on the points of `changed`, which
    /// were just toggled on the board (nothing without `HASH`): placed, moved or collected.
    #[inline]
    fn rehash<const HASH: bool>(&mut self, c: usize, mut changed: u64) {
        if HASH {
            while changed != 0 {
                self.hash ^= KEYS[c * POINTS + changed.trailing_zeros() as usize];
                changed &= changed - 1;
            }
        }
    }

    /// The position after uniformly random placements from the start under `rules` until
    /// `remaining` placements are left, or the game ends early (row rule).
    pub fn random(remaining: u32, rules: Rules, rng: &mut KeyStream) -> Gauss {
        let mut g = Gauss::start(rules);
        while g.remaining() > remaining && !g.is_over() {
            let mut moves = GaussMoves::new();
            g.generate_moves(&mut moves);
            g.play(moves[(rng.next_key() % moves.len() as u64) as usize]);
        }
        g
    }

    /// Random positions under [`Rules::mixed`]: `per_count` for each number of remaining
    /// placements in `counts`, from one seed.
    pub fn random_suite(counts: &[(u32, usize)], seed: u64) -> Vec<Gauss> {
        let mut rng = KeyStream::new(seed);
        let mut out = Vec::new();
        for &(remaining, per_count) in counts {
            for i in 0..per_count {
                out.push(Gauss::random(remaining, Rules::mixed(i), &mut rng));
            }
        }
        out
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: GaussMove) -> bool {
        let b = Board::get();
        !self.is_over()
            && b.is_inner(mv.point())
            && (self.discs[0] | self.discs[1]) >> mv.point() & 1 == 0
            && self.supply(self.side, mv.colour()) > 0
    }
}

impl Default for Gauss {
    fn default() -> Self {
        Gauss::start(Rules::default())
    }
}

impl Game for Gauss {
    type Move = GaussMove;
    type Moves = GaussMoves;
    const ACYCLIC: bool = true;

    fn generate_moves(&self, moves: &mut GaussMoves) {
        if self.remaining() == 0 {
            return;
        }
        let b = Board::get();
        let mut empty = b.inner & !(self.discs[0] | self.discs[1]);
        let held = self.supply[self.side.index()];
        while empty != 0 {
            let p = empty.trailing_zeros() as u8;
            empty &= empty - 1;
            for c in Colour::ALL {
                if held[c.index()] > 0 {
                    moves.push(GaussMove::new(p, c));
                }
            }
        }
    }

    fn play(&mut self, mv: GaussMove) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?}");
        // The counters' keys change incrementally: the supply here, the zones in `place`.
        let (p, c) = (self.side.index(), mv.colour().index());
        let slot = KEY_SUPPLY + (p * 2 + c) * 16;
        let held = usize::from(self.supply[p][c]);
        self.hash ^= KEYS[slot + held] ^ KEYS[slot + held - 1] ^ KEYS[KEY_SIDE];
        self.supply[p][c] -= 1;
        rules::place::<true>(self, mv);
        self.side = !self.side;
        debug_assert_eq!(self.hash, self.hash_from_scratch());
    }

    fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| self.provisional_outcome())
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }
}

impl Scored for Gauss {
    /// A player scores at most 15 and at least -15.
    const SCORE_BOUND: i32 = 2 * DISCS_PER_COLOUR as i32;

    fn final_score(&self) -> Option<i32> {
        self.is_over().then(|| self.provisional_score())
    }

    fn score_estimate(&self) -> i32 {
        self.provisional_score()
    }

    /// The provisional score, ties split by the void discs: fewer own discs than the
    /// opponent's on the void is better (the first tie-break, and the side with more pays for
    /// its risk discs).
    fn order_estimate(&self) -> i32 {
        let t = self.tally();
        let me = Colour::of(self.side).index();
        let void = t.void_discs[1 - me] as i32 - t.void_discs[me] as i32;
        64 * (t.points[me] - t.points[1 - me]) + void
    }

    /// Plays `mv` on a copy without updating its hash (the copy is dropped at once).
    fn final_score_after(&self, mv: GaussMove) -> Option<i32> {
        self.played_unhashed(mv).final_score()
    }

    /// The placements left: every game lasts exactly that long, except under the row option,
    /// where a full inner area may end it earlier.
    fn plies_left(&self) -> Option<u32> {
        Some(self.remaining())
    }

    /// Plays `mv` on a copy without updating its hash; the provisional score is both the
    /// estimate and, once the game is over, the final score.
    fn estimate_after(&self, mv: GaussMove) -> i32 {
        self.played_unhashed(mv).provisional_score()
    }

    /// With one placement left, the mover holding a disc of its own colour and at least as
    /// many discs on the void as the opponent, and the provisional score at most `alpha`: the
    /// provisional score. A placement that collects none of the mover's colour cannot raise
    /// the score then ([`Scored::final_at_most`]): the mover's repelled discs only move
    /// outward and the attracted opponent's discs inward, so the mover's void count cannot
    /// fall below the opponent's and it keeps paying its risk zone (or nobody pays, from a tie
    /// that stays one), its risk zone does not grow, and collecting the opponent's discs only
    /// adds to the opponent's bonus zone.
    fn final_bound(&self, alpha: i32) -> Option<i32> {
        if self.remaining() != 1 || self.rules.collection != Collection::Group {
            return None;
        }
        let me = Colour::of(self.side).index();
        if self.supply[self.side.index()][me] != 1 {
            return None;
        }
        let void = Board::get().void;
        if (self.discs[me] & void).count_ones() < (self.discs[1 - me] & void).count_ones() {
            return None;
        }
        let score = self.provisional_score();
        (score <= alpha).then_some(score)
    }

    /// Whether the placement `mv` (of the mover's own colour, after [`Scored::final_bound`]
    /// gave a bound) collects no disc of that colour.
    fn final_at_most(&self, mv: GaussMove) -> bool {
        let me = mv.colour().index();
        !rules::collects_own(self.discs[me], self.discs[0] | self.discs[1], mv.point())
    }

    /// The same key for the twelve images of the position under the hexagon's symmetries
    /// ([`symmetry`]).
    fn canonical_hash(&self) -> u64 {
        self.symmetric_key()
    }
}

impl Perft for Gauss {}
