//! The root interval of [`super::AlphaBetaScore`]: what its null-window tests have shown of the score so far, and which threshold each thread tests next.

/// The root interval and the tests running on it, shared by the threads of one solve.
pub(super) struct Interval {
    /// The score is in `lo..=hi`.
    pub(super) lo: i32,
    pub(super) hi: i32,
    /// Index of a root move achieving at least `lo` (`None` while `lo` is the trivial bound).
    pub(super) best: Option<u8>,
    /// Test results recorded so far.
    results: u32,
    /// Whether the last result raised `lo` (it lowered `hi` otherwise).
    last_high: bool,
    /// The threshold each thread is testing.
    pub(super) testing: Vec<Option<i32>>,
}

impl Interval {
    /// The interval `lo..=hi` with no result yet, for `threads` threads.
    pub(super) fn new(lo: i32, hi: i32, threads: usize) -> Self {
        Interval { lo, hi, best: None, results: 0, last_high: false, testing: vec![None; threads] }
    }

    /// The next threshold `t` (the test "score >= t") for a thread, or `None` once the score
    /// is known.
    pub(super) fn choose(&mut self, estimate: i32, mtdf: bool) -> Option<i32> {
        let (lo, hi) = (self.lo, self.hi);
        if lo >= hi {
            return None;
        }
        // MTD(f): before the first result every thread tests near the estimate (the first the
        // estimate itself, the others its neighbours), not at the far ends of the interval.
        // Bisection: the middle, moved half way to the far end from 0 as in Pons' Connect Four
        // solver (`Solver::solve`), since tests far from 0 are the cheap ones where extreme
        // scores are short wins; "score > med" is the test `med + 1`.
        let guess = if !mtdf {
            let mut med = lo + (hi - lo) / 2;
            if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            med + 1
        } else if self.results == 0 {
            estimate
        } else if self.last_high {
            lo + 1
        } else {
            hi
        }
        .clamp(lo + 1, hi);
        let taken = |t: i32| self.testing.contains(&Some(t));
        if self.results > 0 && taken(guess) {
            // The next test of the sequential search is running: join it (in this thread's own
            // move order) rather than start a farther one, which the fail-soft values seldom
            // make useful.
            return Some(guess);
        }
        // Lower thresholds first: a test the score passes ("score >= t" true) is usually far
        // cheaper than one it fails, so a wasted guess below costs little; and the first guess
        // was more often above the score than below it (4 and 1 of 10 positions with 12
        // placements left).
        for step in 0..=hi - lo {
            for t in [guess - step, guess + step] {
                if lo < t && t <= hi && !taken(t) {
                    return Some(t);
                }
            }
        }
        Some(guess)
    }

    /// Takes in the fail-soft value `v` of the test `t` and the root move index it found.
    pub(super) fn record(&mut self, t: i32, v: i32, move_index: u8) {
        self.results += 1;
        if v >= t {
            self.last_high = true;
            if v > self.lo {
                self.lo = v;
                self.best = Some(move_index);
            }
        } else {
            self.last_high = false;
            self.hi = self.hi.min(v);
        }
        debug_assert!(self.lo <= self.hi, "inconsistent bounds {} > {}", self.lo, self.hi);
    }
}
