//! Time management: how long one move may think, from the clock.
//!
//! The budget follows the usual scheme: keep a safety reserve for process and pipe latency,
//! divide the rest by an estimate of the moves still to play, add most of the increment, and
//! allow a hard limit a few times the average but never more than a fraction of what is left.
//! An Ataxx game on a board with `e` empty squares lasts about `e` more plies when every move
//! is a clone (each clone fills one square), so the side to move plays about `e / 2` more
//! moves; jumps make games longer, hence a few moves are added to the estimate.
//!
//! ```
//! use std::time::Duration;
//! use bitsolve::games::ataxx::timeman::{TimeControl, budget};
//! let tc = TimeControl { left: Duration::from_millis(1000), increment: Duration::ZERO };
//! let b = budget(&tc, 45);
//! assert!(b.hard <= Duration::from_millis(300) && b.soft <= b.hard);
//! ```

use std::time::Duration;

/// The clock of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time left on the clock.
    pub left: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// How long one search may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Stop the search at this point whatever happens.
    pub hard: Duration,
}

/// Time always kept back for process start, pipes and the operating system's scheduling.
pub const MIN_RESERVE: Duration = Duration::from_millis(15);

/// Expected number of moves the side to move still plays, with `empties` empty squares.
pub fn expected_moves_left(empties: u32) -> u32 {
    empties.div_ceil(2) + 6
}

/// The budget for one move with `empties` empty squares on the board.
///
/// The reserve is [`MIN_RESERVE`] plus 5% of the time left; the average share is the rest
/// divided by [`expected_moves_left`] plus 3/4 of the increment; the soft limit is 60% of the
/// share and the hard limit three times the share, capped at a quarter of the usable time.
/// Both limits are at least 1 ms, so a move is always produced even with almost no time left.
pub fn budget(clock: &TimeControl, empties: u32) -> Budget {
    let reserve = MIN_RESERVE + clock.left / 20;
    let usable = clock.left.saturating_sub(reserve);
    let moves = expected_moves_left(empties);
    let share = usable / moves + clock.increment * 3 / 4;
    let hard = (share * 3).min(usable / 4 + clock.increment / 2).max(Duration::from_millis(1));
    let soft = (share * 3 / 5).min(hard).max(Duration::from_millis(1));
    Budget { soft, hard }
}

/// The budget for a fixed time per move (`go movetime`): everything but a small safety margin.
pub fn fixed(movetime: Duration) -> Budget {
    let margin = (movetime / 20).min(Duration::from_millis(20));
    let hard = movetime.saturating_sub(margin).max(Duration::from_millis(1));
    Budget { soft: hard, hard }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn never_more_than_a_quarter_of_the_clock() {
        for left in [0, 1, 5, 20, 100, 1000, 60_000] {
            for empties in [0, 1, 10, 45] {
                let b = budget(&TimeControl { left: ms(left), increment: Duration::ZERO }, empties);
                assert!(b.soft <= b.hard);
                assert!(b.hard <= ms(left / 4).max(ms(1)), "{left} ms, {empties}: {b:?}");
            }
        }
    }

    #[test]
    fn a_whole_game_fits_in_the_clock() {
        // Spend the hard limit every move (the worst case) and check the clock never runs out.
        let mut left = ms(1000);
        for ply in 0..200u32 {
            let empties = 45u32.saturating_sub(ply / 2);
            let b = budget(&TimeControl { left, increment: Duration::ZERO }, empties);
            assert!(b.hard < left, "ply {ply}: {b:?} with {left:?} left");
            left -= b.hard;
        }
    }

    #[test]
    fn increment_is_used() {
        let without = budget(&TimeControl { left: ms(1000), increment: Duration::ZERO }, 40);
        let with = budget(&TimeControl { left: ms(1000), increment: ms(100) }, 40);
        assert!(with.soft > without.soft);
    }

    #[test]
    fn movetime_keeps_a_margin() {
        assert_eq!(fixed(ms(100)).hard, ms(95));
        assert_eq!(fixed(ms(1000)).hard, ms(980));
        assert_eq!(fixed(Duration::ZERO).hard, ms(1));
    }
}
