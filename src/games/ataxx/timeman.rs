//! Time management: how long one move may think, from the clock.
//!
//! The budget follows the usual scheme: keep a safety reserve for process and pipe latency,
//! divide the rest by an estimate of the moves still to play, add most of the increment, and
//! allow a hard limit a few times the average but never more than a fraction of what is left.
//! An Ataxx game on a board with `e` empty squares lasts at least about `e` more plies when
//! every move is a clone (each clone fills one square), so the side to move plays about `e / 2`
//! more moves; but jumps make games much longer (games of 80 plies from the start are common
//! against a greedy player), so the estimate is `e + 8` of our moves: time left at the end is
//! wasted, time missing at the end loses the game.
//!
//! ```
//! use std::time::Duration;
//! use bitsolve::games::ataxx::timeman::{TimeControl, budget};
//! let tc = TimeControl { left: Duration::from_millis(1000), increment: Duration::ZERO };
//! let b = budget(&tc, 45);
//! assert!(b.hard <= Duration::from_millis(125) && b.soft <= b.hard);
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
pub const MIN_RESERVE: Duration = Duration::from_millis(25);

/// Below this much time left, answer at once without searching: on a loaded machine one
/// scheduling stall of the process costs tens of milliseconds, and that is all the clock has.
pub const PANIC: Duration = Duration::from_millis(80);

/// Whether the clock is so low that the move should come without a search (see [`PANIC`]).
pub fn is_panic(clock: &TimeControl) -> bool {
    clock.left + clock.increment / 2 < PANIC
}

/// Expected number of moves the side to move still plays, with `empties` empty squares (a
/// deliberate overestimate: see the module docs).
pub fn expected_moves_left(empties: u32) -> u32 {
    empties + 8
}

/// The budget for one move with `empties` empty squares on the board.
///
/// The reserve is [`MIN_RESERVE`] plus 20% of the time left; the average share is the rest
/// divided by [`expected_moves_left`] plus 3/4 of the increment; the soft limit is half the
/// share and the hard limit twice the share, capped at an eighth of the usable time.
/// Both limits are at least 1 ms, so a move is always produced even with almost no time left.
pub fn budget(clock: &TimeControl, empties: u32) -> Budget {
    budget_with_lag(clock, empties, Duration::ZERO)
}

/// As [`budget`], with `lag` per move that the opponent's clock charges us beyond our own
/// thinking (pipes, process scheduling on a loaded machine: see [`LagTracker`]); the lag of
/// every expected move is kept back as well.
pub fn budget_with_lag(clock: &TimeControl, empties: u32, lag: Duration) -> Budget {
    budget_scaled(clock, empties, lag, DEFAULT_TIME_USE)
}

/// The default of [`budget_scaled`]'s `time_use`: the budget of [`budget`].
pub const DEFAULT_TIME_USE: u32 = 100;

/// As [`budget_with_lag`], with the soft and hard limits scaled by `time_use` percent
/// (100: unchanged; 200 thinks twice as long per move early in the game, and so has less left
/// later). The hard limit's cap, an eighth of the usable time plus half the increment, holds
/// whatever the scale.
pub fn budget_scaled(clock: &TimeControl, empties: u32, lag: Duration, time_use: u32) -> Budget {
    budget_planned(clock, empties, lag, &TimePlan { time_use, ..TimePlan::default() })
}

/// How the clock is spread over a game: the knobs of [`budget_planned`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// Percent of the budget (see [`budget_scaled`]; 100 unchanged).
    pub time_use: u32,
    /// At most this many moves are assumed left (0: no cap, [`expected_moves_left`] alone).
    /// A cap spends a larger share of the clock on each move while many squares are empty,
    /// so early moves get more time and the last ones live on the increment.
    pub horizon: u32,
    /// Percent of the time left always kept back (20 by default).
    pub reserve_percent: u32,
}

impl Default for TimePlan {
    fn default() -> Self {
        TimePlan { time_use: DEFAULT_TIME_USE, horizon: 0, reserve_percent: 20 }
    }
}

/// As [`budget_scaled`] under `plan`: the moves left are [`expected_moves_left`] capped by
/// `plan.horizon` (when not 0), and `plan.reserve_percent` of the time left is kept back
/// instead of 20%; the hard limit's cap, an eighth of the usable time plus half the increment,
/// holds whatever the plan.
pub fn budget_planned(clock: &TimeControl, empties: u32, lag: Duration, plan: &TimePlan) -> Budget {
    let time_use = plan.time_use;
    let mut moves = expected_moves_left(empties);
    if plan.horizon > 0 {
        moves = moves.min(plan.horizon);
    }
    // The lag of every move still to come is kept back, capped horizon or not.
    let lag_moves = expected_moves_left(empties);
    let reserve = MIN_RESERVE + clock.left * plan.reserve_percent.min(90) / 100 + lag * lag_moves;
    let usable = clock.left.saturating_sub(reserve);
    let share = usable / moves + clock.increment * 3 / 4;
    let scaled = share * time_use / 100;
    let hard = (scaled * 2).min(usable / 8 + clock.increment / 2).max(Duration::from_millis(1));
    let soft = (scaled / 2).min(hard).max(Duration::from_millis(1));
    Budget { soft, hard }
}

/// Learns how much more the clock keeper charges per move than the time we spend between
/// reading a request and writing the answer.
///
/// After each answer, [`LagTracker::answered`] records what our clock should read; when the
/// next request tells the real value, [`LagTracker::told`] takes the difference as one
/// measurement. The estimate follows rises at once and falls slowly.
#[derive(Clone, Debug)]
pub struct LagTracker {
    estimate: Duration,
    expected: Option<Duration>,
}

impl Default for LagTracker {
    fn default() -> Self {
        LagTracker { estimate: Duration::from_millis(1), expected: None }
    }
}

impl LagTracker {
    /// Our own count of the clock right after answering (time left minus our thinking, plus
    /// the increment).
    pub fn answered(&mut self, clock_after: Duration) {
        self.expected = Some(clock_after);
    }

    /// The clock the keeper reports with the next request.
    pub fn told(&mut self, reported: Duration) {
        if let Some(expected) = self.expected.take() {
            let lag = expected.saturating_sub(reported);
            self.estimate = lag.max(self.estimate * 4 / 5 + lag / 5);
        }
    }

    /// The current estimate of the lag per move.
    pub fn per_move(&self) -> Duration {
        self.estimate
    }
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
    fn never_more_than_an_eighth_of_the_clock() {
        for left in [0, 1, 5, 20, 100, 1000, 60_000] {
            for empties in [0, 1, 10, 45] {
                let b = budget(&TimeControl { left: ms(left), increment: Duration::ZERO }, empties);
                assert!(b.soft <= b.hard);
                assert!(b.hard <= ms(left / 8).max(ms(1)), "{left} ms, {empties}: {b:?}");
            }
        }
    }

    #[test]
    fn a_whole_game_fits_in_the_clock() {
        // Spend the hard limit every move (the worst case): never more than is left, and 40
        // moves at least before the clock falls to the level where moves come without search.
        let mut left = ms(1000);
        let mut moves = 0u32;
        while left >= PANIC {
            let empties = 45u32.saturating_sub(moves);
            let b = budget(&TimeControl { left, increment: Duration::ZERO }, empties);
            assert!(b.hard < left, "move {moves}: {b:?} with {left:?} left");
            left -= b.hard;
            moves += 1;
        }
        assert!(moves >= 40, "only {moves} moves");
    }

    #[test]
    fn increment_is_used() {
        let without = budget(&TimeControl { left: ms(1000), increment: Duration::ZERO }, 40);
        let with = budget(&TimeControl { left: ms(1000), increment: ms(100) }, 40);
        assert!(with.soft > without.soft);
    }

    #[test]
    fn lag_is_learnt_and_kept_back() {
        let mut lag = LagTracker::default();
        lag.answered(ms(900));
        lag.told(ms(880));
        assert_eq!(lag.per_move(), ms(20));
        lag.answered(ms(800));
        lag.told(ms(800));
        assert_eq!(lag.per_move(), ms(16));
        let clock = TimeControl { left: ms(500), increment: Duration::ZERO };
        assert!(budget_with_lag(&clock, 20, ms(16)).hard < budget(&clock, 20).hard);
        // With less time than the lag of the remaining moves, answer at once.
        assert_eq!(budget_with_lag(&clock, 20, ms(40)).hard, ms(1));
    }

    #[test]
    fn time_use_scales_both_limits_under_the_cap() {
        let clock = TimeControl { left: ms(2000), increment: ms(20) };
        let base = budget(&clock, 45);
        assert_eq!(budget_scaled(&clock, 45, ms(1), 100), budget_with_lag(&clock, 45, ms(1)));
        let double = budget_scaled(&clock, 45, Duration::ZERO, 200);
        assert!(double.soft + ms(1) >= base.soft * 2 && double.soft <= base.soft * 2 + ms(1));
        assert!(double.hard > base.hard);
        // However large the scale, the hard limit stays under an eighth of the usable time
        // plus half the increment.
        for left in [0, 50, 100, 1000, 60_000] {
            let clock = TimeControl { left: ms(left), increment: ms(20) };
            let b = budget_scaled(&clock, 10, Duration::ZERO, 1000);
            assert!(b.soft <= b.hard);
            assert!(b.hard <= (ms(left) * 4 / 5) / 8 + ms(10) + ms(1), "{left}: {b:?}");
        }
    }

    #[test]
    fn the_default_plan_is_the_budget_as_it_was_before_plans() {
        // The budget's formula before `TimePlan` existed, written out.
        let before = |clock: &TimeControl, empties: u32, lag: Duration| {
            let moves = expected_moves_left(empties);
            let reserve = MIN_RESERVE + clock.left / 5 + lag * moves;
            let usable = clock.left.saturating_sub(reserve);
            let share = usable / moves + clock.increment * 3 / 4;
            let hard = (share * 2).min(usable / 8 + clock.increment / 2).max(ms(1));
            Budget { soft: (share / 2).min(hard).max(ms(1)), hard }
        };
        for left in [0, 50, 100, 1000, 2000, 60_000] {
            for empties in [0, 5, 20, 45] {
                let clock = TimeControl { left: ms(left), increment: ms(20) };
                let old = before(&clock, empties, ms(3));
                assert_eq!(budget_planned(&clock, empties, ms(3), &TimePlan::default()), old);
                assert_eq!(budget_with_lag(&clock, empties, ms(3)), old);
            }
        }
    }

    #[test]
    fn a_horizon_spends_more_early_and_a_whole_game_still_fits() {
        let plan = TimePlan { horizon: 24, reserve_percent: 10, ..TimePlan::default() };
        let clock = TimeControl { left: ms(2000), increment: ms(20) };
        assert!(budget_planned(&clock, 45, Duration::ZERO, &plan).soft > budget(&clock, 45).soft);
        // Late in the game (few moves assumed left anyway) the cap changes nothing but the
        // reserve.
        let late = TimeControl { left: ms(300), increment: ms(20) };
        let b = budget_planned(&late, 4, Duration::ZERO, &plan);
        assert!(b.hard <= (ms(300) * 9 / 10) / 8 + ms(10) + ms(1));
        // The hard limit every move of a 150-move game (a long game of jumps): the clock
        // never runs out and stays above the panic level for 60 moves at least.
        let mut left = ms(2000);
        for moves in 0..150u32 {
            let empties = 45u32.saturating_sub(moves / 2);
            let clock = TimeControl { left, increment: ms(20) };
            let b = budget_planned(&clock, empties, ms(2), &plan);
            assert!(b.hard < left + ms(20), "move {moves}: {b:?} with {left:?} left");
            left = (left + ms(20)).checked_sub(b.hard).expect("checked above");
            if moves < 60 {
                assert!(left >= PANIC, "move {moves}: {left:?} left");
            }
        }
    }

    #[test]
    fn movetime_keeps_a_margin() {
        assert_eq!(fixed(ms(100)).hard, ms(95));
        assert_eq!(fixed(ms(1000)).hard, ms(980));
        assert_eq!(fixed(Duration::ZERO).hard, ms(1));
    }
}
