//! Static evaluation of geography positions for the playing engine ([`Evaluate`]).
//!
//! From the side to move's view (it moves the token from `t`):
//! * **mobility**: our moves now, against the fewest replies any of our moves leaves the
//!   opponent (a move to a vertex of remaining degree `d` leaves `d - 1` replies);
//! * **odd vertices near the token**: a vertex of odd remaining degree is where a walk can end,
//!   and one the token enters with odd degree is left with an even number of exits; we count the
//!   neighbours of `t` whose degree is even (after our move the opponent then leaves with an
//!   odd count) as good for us;
//! * **forced chains**: a neighbour of degree 2 starts a forced path; following it to its end
//!   tells who must leave the chain, and a chain ending in a dead end wins for the side that
//!   walks into it with the right parity.

use super::Geography;
use crate::game::Evaluate;

/// Length of the forced chain entered by moving from `from` to `to` (vertices of remaining
/// degree 2 are passed through) and whether it ends in a dead end (a vertex of degree 1).
fn chain(pos: &Geography, from: u8, to: u8) -> (u32, bool) {
    let (mut prev, mut cur, mut len) = (from, to, 1u32);
    while pos.degree(cur) == 2 && len < 128 {
        let next = pos.neighbours(cur).without(u32::from(prev)).first();
        let Some(next) = next else { break };
        if next as u8 == from {
            break; // a cycle back to the start
        }
        prev = cur;
        cur = next as u8;
        len += 1;
    }
    (len, pos.degree(cur) == 1)
}

impl Evaluate for Geography {
    fn evaluate(&self) -> i32 {
        let t = self.token();
        let around = self.neighbours(t);
        let mobility = around.count() as i32;
        let mut fewest_replies = i32::MAX;
        let mut even = 0;
        let mut chains = 0;
        for w in around {
            let d = self.degree(w as u8) as i32;
            fewest_replies = fewest_replies.min(d - 1);
            if d % 2 == 0 {
                even += 1;
            }
            let (len, dead_end) = chain(self, t, w as u8);
            if dead_end {
                // An odd number of forced edges into a dead end: we make the last move.
                chains += if len % 2 == 1 { 1 } else { -1 };
            }
        }
        let fewest = if fewest_replies == i32::MAX { 0 } else { fewest_replies };
        20 * mobility - 15 * fewest + 10 * even + 40 * chains
    }

    fn move_hint(&self, mv: u8) -> i32 {
        // Prefer targets that leave the opponent few exits, and odd-length dead-end chains.
        let d = self.degree(mv) as i32;
        let (len, dead_end) = chain(self, self.token(), mv);
        let chain_bonus = if dead_end { if len % 2 == 1 { 100 } else { -100 } } else { 0 };
        chain_bonus - 10 * d + if d % 2 == 0 { 5 } else { 0 }
    }
}
