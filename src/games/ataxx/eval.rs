//! Static evaluation of Ataxx positions for the playing engine.
//!
//! The score is a linear function of a few features ([`Ataxx::eval_features`]), each counted
//! for the side to move minus the opponent unless said otherwise, with weights that depend on
//! the share of empty squares (the [phase](Ataxx::phase): 256 on an empty board, 0 on a full
//! one), linearly between three anchors: opening (256), middle game (128) and endgame (0).
//! Three anchors, not two, because the fitted value of a stone is far from linear in the phase
//! (about 0.03 logits early, 0.75 late in the self-play data).
//!
//! | # | feature | meaning |
//! |---|---------|---------|
//! | 0 | material | stones |
//! | 1 | safe | stones with no empty neighbour (nothing can land next to them now) |
//! | 2 | exposed | stones next to an empty square the other side can reach (flippable next move) |
//! | 3 | clone mobility | empty squares the side can clone to |
//! | 4 | jump mobility | empty squares the side can only jump to |
//! | 5 | best gain | side to move only: largest material swing of a move (2 x flips, +1 if clone) |
//! | 6 | threat | the same for the opponent, as if it were to move (counted positive) |
//! | 7 | tempo | 1 (the side to move) |
//!
//! Why not "stable" stones: a stone can be flipped only when an empty square is next to it, and
//! a square becomes empty only when a stone jumps away, which any stone within distance 2 of an
//! empty square can do. So while one empty square is left, every square within the closure of
//! "distance 2 of a square that can become empty" can become empty: on an open board that is
//! all of it, and no stone is stable until the game is almost over. The `safe` feature (no
//! empty neighbour *now*) is the useful, short-term version.
//!
//! The weights were fitted by logistic regression of game results on these features over
//! positions from the engine's self-play (`scripts/ataxx_tune.py`, data in
//! `datasets/ataxx/tuning/`): 30,405 positions of 336 self-play games (4000 nodes per move,
//! random openings, the first hand-set weights), fitted separately in three phase bands and
//! normalised so that a stone is worth 100 in each (the script's docs say why). Cross-entropy of
//! the results (constant guess 0.693): opening band 0.6925 with material and tempo only, 0.6905
//! with all features; middle band 0.6830 / 0.6620; endgame band 0.5134 / 0.4605. Notable: the
//! tempo is worth about 1.5 stones before the endgame, safe stones about one stone, a stone
//! next to a square the opponent can reach costs about half a stone.

use super::tables::{NEIGHBOURS, dilate, reach};
use super::{Ataxx, AtaxxMove};
use crate::game::Evaluate;
use crate::game::Game;

/// Number of evaluation features (the feature table in `src/games/ataxx/eval.rs`).
pub const FEATURES: usize = 8;

/// Feature weights on an empty board (phase 256), in the order of the feature table in
/// `src/games/ataxx/eval.rs`.
pub const WEIGHTS_OPENING: [i32; FEATURES] = [100, 106, -39, 20, -3, 71, -55, 144];
/// Feature weights on a half-full board (phase 128).
pub const WEIGHTS_MIDDLE: [i32; FEATURES] = [100, 86, -60, 25, -6, 13, 9, 152];
/// Feature weights on a full board (phase 0).
pub const WEIGHTS_ENDGAME: [i32; FEATURES] = [100, -42, -50, -13, -15, 34, -11, -17];

/// The largest material swing (2 x flips, +1 for a clone) of a move by the owner of `own`
/// against `opp`, with `empty` the empty squares; 0 if it has no move.
fn best_gain(own: u64, opp: u64, empty: u64) -> i32 {
    let clones = dilate(own) & empty;
    let targets = reach(own) & empty;
    let mut best = i32::from(clones != 0);
    let mut capturing = targets & dilate(opp);
    while capturing != 0 {
        let sq = capturing.trailing_zeros();
        capturing &= capturing - 1;
        let gain = 2 * (NEIGHBOURS[sq as usize] & opp).count_ones() as i32
            + i32::from(clones >> sq & 1 != 0);
        best = best.max(gain);
    }
    best
}

impl<const POLISH: bool> Ataxx<POLISH> {
    /// The evaluation features of this position (the feature table in
    /// `src/games/ataxx/eval.rs`), from the side to move's view.
    pub fn eval_features(&self) -> [i32; FEATURES] {
        let me = self.side_to_move();
        let own = self.stones(me).0;
        let opp = self.stones(!me).0;
        let empty = self.empties().0;
        let count = |b: u64| b.count_ones() as i32;
        let near_empty = dilate(empty);
        let own_targets = reach(own) & empty;
        let opp_targets = reach(opp) & empty;
        let own_clones = dilate(own) & empty;
        let opp_clones = dilate(opp) & empty;
        [
            count(own) - count(opp),
            count(own & !near_empty) - count(opp & !near_empty),
            count(own & dilate(opp_targets)) - count(opp & dilate(own_targets)),
            count(own_clones) - count(opp_clones),
            count(own_targets & !own_clones) - count(opp_targets & !opp_clones),
            best_gain(own, opp, empty),
            best_gain(opp, own, empty),
            1,
        ]
    }

    /// A move's ordering hint: `per_flip` units per stone it flips plus `per_clone` for a
    /// clone; a pass gets -1000.
    #[inline]
    pub fn hint_weighted(&self, mv: AtaxxMove, per_flip: i32, per_clone: i32) -> i32 {
        let Some(to) = mv.to() else { return -1000 };
        let flips = (NEIGHBOURS[to as usize] & self.stones(!self.side_to_move()).0).count_ones();
        per_flip * flips as i32 + per_clone * i32::from(mv.is_clone())
    }

    /// The phase: empty squares per valid square, in 1/256ths (256 on an empty board).
    pub fn phase(&self) -> i32 {
        let valid = self.valid().count().max(1) as i32;
        self.empties().count() as i32 * 256 / valid
    }
}

impl<const POLISH: bool> Evaluate for Ataxx<POLISH> {
    fn evaluate(&self) -> i32 {
        let f = self.eval_features();
        let dot = |w: &[i32; FEATURES]| f.iter().zip(w).map(|(a, b)| a * b).sum::<i32>();
        let phase = self.phase();
        if phase >= 128 {
            let a = phase - 128;
            (dot(&WEIGHTS_OPENING) * a + dot(&WEIGHTS_MIDDLE) * (128 - a)) / 128
        } else {
            (dot(&WEIGHTS_MIDDLE) * phase + dot(&WEIGHTS_ENDGAME) * (128 - phase)) / 128
        }
    }

    /// Two units per stone the move flips and one for a clone ([`Ataxx::hint_weighted`]; the net
    /// evaluation's hint weighs them the other way).
    fn move_hint(&self, mv: <Self as Game>::Move) -> i32 {
        self.hint_weighted(mv, 2, 1)
    }

    /// A jump that flips nothing: it only moves a stone away, leaving a hole behind.
    fn is_futile(&self, mv: <Self as Game>::Move) -> bool {
        mv.to().is_some_and(|to| {
            !mv.is_clone() && (NEIGHBOURS[to as usize] & self.stones(!self.side_to_move()).0) == 0
        })
    }

    fn is_rule_draw(&self) -> bool {
        self.halfmove() >= super::perft::clock_limit(POLISH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;
    use crate::{AtaxxStandard, Player};

    #[test]
    fn futile_moves_are_the_jumps_that_flip_nothing() {
        let pos = AtaxxStandard::parse_position("x5o/7/7/7/7/7/o5x x 0 1").unwrap();
        let mut moves = <AtaxxStandard as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        assert!(moves.iter().any(|m| !m.is_clone()), "the start has jumps");
        for &mv in &moves {
            // Nothing is in reach of the other side's stones at the start.
            assert_eq!(pos.is_futile(mv), !mv.is_clone(), "{mv}");
        }
        // A jump next to the other side's stone flips it: not futile.
        let pos = AtaxxStandard::parse_position("7/7/7/7/7/2o4/x6 x 0 1").unwrap();
        let jump = pos.parse_move("a1b3").unwrap();
        assert!(!jump.is_clone() && !pos.is_futile(jump));
        // a3 is not next to c2: a jump there only leaves a hole.
        let far = pos.parse_move("a1a3").unwrap();
        assert!(!far.is_clone() && pos.is_futile(far));
    }

    #[test]
    fn hints_weigh_flips_and_clones_as_told() {
        // x on a1, o on c2: the clone to a2 flips nothing, the jump a1b3 flips c2.
        let pos = AtaxxStandard::parse_position("7/7/7/7/7/2o4/x6 x 0 1").unwrap();
        let clone = pos.parse_move("a2").unwrap();
        let jump = pos.parse_move("a1b3").unwrap();
        assert!(clone.is_clone() && !jump.is_clone());
        // The hand-made evaluation's hint: two per flip, one per clone.
        assert_eq!((pos.move_hint(clone), pos.move_hint(jump)), (1, 2));
        // The net's weights (one per flip, two per clone) put the clone first.
        assert_eq!((pos.hint_weighted(clone, 1, 2), pos.hint_weighted(jump, 1, 2)), (2, 1));
        let net = crate::games::ataxx::nnue::NetAtaxx::<false>::new(pos.clone(), None);
        assert_eq!((net.move_hint(clone), net.move_hint(jump)), (2, 1));
    }

    #[test]
    fn features_of_the_start_position_are_symmetric() {
        let pos = AtaxxStandard::startpos();
        let f = pos.eval_features();
        assert_eq!(f[..5], [0, 0, 0, 0, 0]);
        assert_eq!((f[5], f[6], f[7]), (1, 1, 1));
        assert_eq!(pos.phase(), 45 * 256 / 49);
    }

    #[test]
    fn features_count_safety_exposure_and_gains() {
        // x on a1 b1 a2 b2, walled in by o on a3 b3 c3 c2 c1; the rest is empty; x to move.
        let pos = AtaxxStandard::parse_position("7/7/7/7/ooo4/xxo4/xxo4 x 0 1").unwrap();
        assert_eq!(pos.side_to_move(), Player::First);
        let f = pos.eval_features();
        assert_eq!(f[0], 4 - 5);
        // Every x stone is safe; every o stone touches an empty square ...
        assert_eq!(f[1], 4);
        // ... that x reaches (a4 b4 c4 d4 d3 d2 d1), so all five o stones are exposed.
        assert_eq!(f[2], -5);
        assert_eq!((f[3], f[4]), (0 - 7, 7 - 9));
        // Best x move: a jump flipping three (b2-d2 or a2-b4); o can flip nothing, only clone.
        assert_eq!((f[5], f[6]), (6, 1));
    }

    #[test]
    fn evaluation_is_antisymmetric_under_colour_swap() {
        let a = AtaxxStandard::parse_position("x5o/7/2xo3/3x3/7/7/o5x x 0 1").unwrap();
        let b = AtaxxStandard::parse_position("o5x/7/2ox3/3o3/7/7/x5o o 0 1").unwrap();
        assert_eq!(a.evaluate(), b.evaluate());
        assert_eq!(a.eval_features(), b.eval_features());
    }
}
