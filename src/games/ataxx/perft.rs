//! Bulk-counting perft on raw words, without hashes or move lists.
//!
//! A node is four values: the mover's stones, the opponent's, the empty squares and the
//! halfmove clock. Children are visited straight from the bit sets; at depth 1 the moves are
//! counted without being played: clones are the empty squares of the one-step dilation of the
//! mover's stones, jumps the sum of `popcount(JUMPS[sq] & empty)` over the mover's stones (or,
//! by symmetry of the jump relation, over the empty squares when they are fewer).
//!
//! The kernel is compiled twice: once for the baseline target and once with the `popcnt`,
//! `bmi1` and `bmi2` features, chosen at run time, since the crate is built for plain x86-64.

use super::tables::{JUMPS, NEIGHBOURS, dilate, reach};
use super::{Ataxx, POLISH_CLOCK_LIMIT, STANDARD_CLOCK_LIMIT};
use crate::game::Perft;

/// Clock value at which a node has no children under the given rule set.
pub(super) const fn clock_limit(polish: bool) -> u32 {
    if polish { POLISH_CLOCK_LIMIT } else { STANDARD_CLOCK_LIMIT }
}

/// Calls `$visit(own, opp, empty, clock)` for each child (seen from the child's mover, so the
/// colours are swapped), then evaluates to whether there was any clone or jump.
macro_rules! for_each_child {
    ($own:expr, $opp:expr, $empty:expr, $clock:expr, $visit:ident) => {{
        let (own, opp, empty, clock) = ($own, $opp, $empty, $clock);
        let mut clones = dilate(own) & empty;
        let mut any = clones != 0;
        while clones != 0 {
            let to = clones.trailing_zeros();
            clones &= clones - 1;
            let bit = 1u64 << to;
            let flips = NEIGHBOURS[to as usize] & opp;
            $visit!(opp ^ flips, own | bit | flips, empty ^ bit, 0);
        }
        let mut sources = own;
        while sources != 0 {
            let from = sources.trailing_zeros();
            sources &= sources - 1;
            let mut targets = JUMPS[from as usize] & empty;
            any |= targets != 0;
            let moved = own ^ (1u64 << from);
            let freed = empty ^ (1u64 << from);
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let bit = 1u64 << to;
                let flips = NEIGHBOURS[to as usize] & opp;
                $visit!(opp ^ flips, moved | bit | flips, freed ^ bit, clock + 1);
            }
        }
        any
    }};
}

macro_rules! kernel {
    ($module:ident $(, #[$feature:meta])?) => {
        mod $module {
            use super::*;

            /// Number of clones and jumps of the side owning `own`.
            $(#[$feature])?
            #[inline]
            pub(super) fn count_moves(own: u64, empty: u64) -> u64 {
                let mut n = (dilate(own) & empty).count_ones();
                let (mut set, other) = if own.count_ones() <= empty.count_ones() {
                    (own, empty)
                } else {
                    (empty, own)
                };
                while set != 0 {
                    let sq = set.trailing_zeros();
                    set &= set - 1;
                    n += (JUMPS[sq as usize] & other).count_ones();
                }
                u64::from(n)
            }

            /// Perft of depth 1.
            $(#[$feature])?
            #[inline]
            pub(super) fn leaf<const POLISH: bool>(own: u64, opp: u64, empty: u64, clock: u32) -> u64 {
                if clock >= clock_limit(POLISH) || own == 0 || opp == 0 {
                    return 0;
                }
                let n = count_moves(own, empty);
                if n == 0 && !POLISH && reach(opp) & empty != 0 {
                    return 1;
                }
                n
            }

            /// Perft of `depth` >= 1.
            $(#[$feature])?
            pub(super) fn node<const POLISH: bool>(
                own: u64,
                opp: u64,
                empty: u64,
                clock: u32,
                depth: u32,
            ) -> u64 {
                if depth <= 1 {
                    return leaf::<POLISH>(own, opp, empty, clock);
                }
                if clock >= clock_limit(POLISH) || own == 0 || opp == 0 {
                    return 0;
                }
                let mut total = 0u64;
                let any = if depth == 2 {
                    macro_rules! visit {
                        ($o:expr, $p:expr, $e:expr, $c:expr) => {
                            total += leaf::<POLISH>($o, $p, $e, $c)
                        };
                    }
                    for_each_child!(own, opp, empty, clock, visit)
                } else {
                    macro_rules! visit {
                        ($o:expr, $p:expr, $e:expr, $c:expr) => {
                            total += node::<POLISH>($o, $p, $e, $c, depth - 1)
                        };
                    }
                    for_each_child!(own, opp, empty, clock, visit)
                };
                if !any && !POLISH && reach(opp) & empty != 0 {
                    total = node::<POLISH>(opp, own, empty, clock + 1, depth - 1);
                }
                total
            }
        }
    };
}

kernel!(portable);
#[cfg(target_arch = "x86_64")]
kernel!(fast, #[target_feature(enable = "popcnt,bmi1,bmi2")]);

/// Perft of `depth` from raw words, with the fastest kernel this CPU runs.
fn raw_perft<const POLISH: bool>(own: u64, opp: u64, empty: u64, clock: u32, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
    {
        // SAFETY: the features the kernel is compiled for were just detected on this CPU.
        return unsafe { fast::node::<POLISH>(own, opp, empty, clock, depth) };
    }
    portable::node::<POLISH>(own, opp, empty, clock, depth)
}

/// The raw words of a position: mover's stones, opponent's stones, empty squares, clock.
fn raw<const POLISH: bool>(pos: &Ataxx<POLISH>) -> (u64, u64, u64, u32) {
    let side = pos.side_to_move();
    (pos.stones(side).0, pos.stones(!side).0, pos.empties().0, pos.halfmove())
}

/// Perft that honours the halfmove clock: under standard rules a node whose clock has reached
/// [`STANDARD_CLOCK_LIMIT`] (100) has no children, as in the published numbers
/// (`x5o/7/7/7/7/7/o5x x 100 1` has perft 0 at depth 1); under Polish rules a node whose clock
/// (consecutive jumps) has reached [`POLISH_CLOCK_LIMIT`] (50) is a draw and has none either.
/// A forced pass counts as one move; a finished game has no children. Polish threefold
/// repetition is not counted (it needs the game's history, which a position does not hold).
impl<const POLISH: bool> Perft for Ataxx<POLISH> {
    fn perft(&self, depth: u32) -> u64 {
        let (own, opp, empty, clock) = raw(self);
        raw_perft::<POLISH>(own, opp, empty, clock, depth)
    }

    fn is_perft_leaf(&self) -> bool {
        self.halfmove() >= clock_limit(POLISH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernels_agree() {
        let start = Ataxx::<false>::startpos();
        let (own, opp, empty, clock) = raw(&start);
        let slow = portable::node::<false>(own, opp, empty, clock, 4);
        assert_eq!(slow, 155_888);
        assert_eq!(start.perft(4), slow);
    }

    #[test]
    #[ignore = "timing only: the baseline kernel at depth 7"]
    fn portable_kernel_speed() {
        let (own, opp, empty, clock) = raw(&Ataxx::<false>::startpos());
        let start = std::time::Instant::now();
        assert_eq!(portable::node::<false>(own, opp, empty, clock, 7), 5_023_479_496);
        let seconds = start.elapsed().as_secs_f64();
        eprintln!("portable perft 7: {seconds:.2} s, {:.2} G nodes/s", 5.023_479_496 / seconds);
    }
}
