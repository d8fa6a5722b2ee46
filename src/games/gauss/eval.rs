//! Static evaluation of Gauss positions for the playing engine, and the move-ordering hint.
//!
//! The evaluation is the score if the game ended now (100 per point), plus a small bonus for
//! keeping fewer own discs than the opponent on the void (the first tie-break, and what decides
//! who pays for risk discs). The hint is the change of that score a move makes at once.

use super::{Colour, Gauss, GaussMove};
use crate::game::Evaluate;
use crate::game::Game;

/// Centipoints per point of score.
const POINT: i32 = 100;
/// Value of one disc fewer than the opponent on the void.
const VOID_DISC: i32 = 8;

/// The immediate change of the provisional score (in points, mover's view) that `mv` makes.
pub fn move_hint(g: &Gauss, mv: GaussMove) -> i32 {
    let mut child = *g;
    child.play(mv);
    -child.provisional_score() - g.provisional_score()
}

impl Evaluate for Gauss {
    fn evaluate(&self) -> i32 {
        let tally = self.tally();
        let me = Colour::of(self.side_to_move()).index();
        let void = tally.void_discs[1 - me] as i32 - tally.void_discs[me] as i32;
        POINT * self.provisional_score() + VOID_DISC * void
    }

    fn move_hint(&self, mv: GaussMove) -> i32 {
        move_hint(self, mv)
    }
}
