//! Static evaluation of Ataxx positions for the playing engine.
//!
//! The reference evaluation is material only (own stones minus the opponent's, times 100); the
//! move hint is the material a move gains.

use super::Ataxx;
use super::tables::NEIGHBOURS;
use crate::game::Game;
use crate::search::engine::Evaluate;

impl<const POLISH: bool> Evaluate for Ataxx<POLISH> {
    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        let own = self.stones(me).0.count_ones() as i32;
        let opp = self.stones(!me).0.count_ones() as i32;
        100 * (own - opp)
    }

    fn move_hint(&self, mv: <Self as Game>::Move) -> i32 {
        let Some(to) = mv.to() else { return -1000 };
        let flips = (NEIGHBOURS[to as usize] & self.stones(!self.side_to_move()).0).count_ones();
        2 * flips as i32 + i32::from(mv.is_clone())
    }

    fn is_rule_draw(&self) -> bool {
        self.halfmove() >= super::perft::clock_limit(POLISH)
    }
}
