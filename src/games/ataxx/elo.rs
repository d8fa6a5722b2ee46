//! Match scores: wins, draws and losses, the Elo difference they suggest, and its 95% error bar.
//!
//! The score of one game is 1, 1/2 or 0, so a match is a trinomial sample. With `n` games and
//! mean score `m`, the per-game variance is `(w (1-m)^2 + d (1/2-m)^2 + l m^2) / n`; the 95%
//! interval of the mean is `m +- 1.96 sqrt(variance / n)`, and each end is mapped to Elo with
//! the logistic model `elo(s) = -400 log10(1/s - 1)`. The error bar is half the width of the
//! mapped interval (the same method as cutechess-cli and fastchess).
//!
//! ```
//! use bitsolve::games::ataxx::elo::Score;
//! let s = Score { wins: 60, draws: 20, losses: 20 };
//! let (elo, error) = (s.elo().unwrap(), s.elo_error().unwrap());
//! assert!((elo - 147.2).abs() < 0.1 && error > 50.0 && error < 90.0);
//! ```

use std::fmt;

/// The 97.5% quantile of the standard normal distribution (two-sided 95% interval).
const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// The Elo difference for a mean score `s` in (0, 1).
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

impl Score {
    /// Number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: one per win, a half per draw.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Mean score per game in [0, 1]; `None` without games.
    pub fn mean(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.points() / f64::from(self.games()))
    }

    /// Standard deviation of the mean score (trinomial model); `None` without games.
    pub fn std_error(&self) -> Option<f64> {
        let m = self.mean()?;
        let n = f64::from(self.games());
        let variance = (f64::from(self.wins) * (1.0 - m).powi(2)
            + f64::from(self.draws) * (0.5 - m).powi(2)
            + f64::from(self.losses) * m.powi(2))
            / n;
        Some((variance / n).sqrt())
    }

    /// The Elo difference the score suggests; `None` without games or with a score of 0% or
    /// 100% (the difference is then unbounded).
    pub fn elo(&self) -> Option<f64> {
        let m = self.mean()?;
        (m > 0.0 && m < 1.0).then(|| elo_from_score(m))
    }

    /// The 95% interval of the Elo difference (low, high); an end is infinite when the score
    /// interval reaches 0% or 100%. `None` when [`Score::elo`] is.
    pub fn elo_interval(&self) -> Option<(f64, f64)> {
        self.elo()?;
        let (m, se) = (self.mean()?, self.std_error()?);
        let map = |s: f64| {
            if s <= 0.0 {
                f64::NEG_INFINITY
            } else if s >= 1.0 {
                f64::INFINITY
            } else {
                elo_from_score(s)
            }
        };
        Some((map(m - Z_95 * se), map(m + Z_95 * se)))
    }

    /// Half the width of [`Score::elo_interval`] (the `+-` of the estimate).
    pub fn elo_error(&self) -> Option<f64> {
        let (low, high) = self.elo_interval()?;
        Some((high - low) / 2.0)
    }
}

/// `W-D-L`, the score in percent and `Elo +- error (95%)` where they are defined.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)?;
        if let Some(m) = self.mean() {
            write!(f, " ({:.1}%)", 100.0 * m)?;
        }
        match (self.elo(), self.elo_error()) {
            (Some(elo), Some(err)) => write!(f, " Elo {elo:+.1} +- {err:.1} (95%)"),
            _ if self.games() == 0 => Ok(()),
            _ => {
                let sign = if self.wins > 0 { "+" } else { "-" };
                write!(f, " Elo {sign}inf (score {}%)", if self.wins > 0 { 100 } else { 0 })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_score_is_zero_elo() {
        let s = Score { wins: 10, draws: 5, losses: 10 };
        assert_eq!(s.elo(), Some(0.0));
        let (low, high) = s.elo_interval().unwrap();
        assert!((low + high).abs() < 1e-9, "symmetric: {low} {high}");
    }

    #[test]
    fn known_values() {
        // 75% is +190.8 Elo; 64% about +100.
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
        assert!((elo_from_score(0.64) - 99.96).abs() < 0.1);
        // 60 wins, 40 losses: m = 0.6, sd of one game 0.4899, se 0.04899, interval
        // 0.504..0.696, Elo 2.8..144.1: error about 70.7.
        let s = Score { wins: 60, draws: 0, losses: 40 };
        assert!((s.elo().unwrap() - 70.44).abs() < 0.01);
        let (low, high) = s.elo_interval().unwrap();
        assert!((low - 2.79).abs() < 0.1 && (high - 144.1).abs() < 0.3, "{low} {high}");
    }

    #[test]
    fn draws_shrink_the_error() {
        let decisive = Score { wins: 30, draws: 0, losses: 30 };
        let drawish = Score { wins: 10, draws: 40, losses: 10 };
        assert!(drawish.elo_error().unwrap() < decisive.elo_error().unwrap());
    }

    #[test]
    fn perfect_scores_have_no_finite_elo() {
        assert_eq!(Score { wins: 5, draws: 0, losses: 0 }.elo(), None);
        assert_eq!(Score::default().elo(), None);
        assert_eq!(Score::default().mean(), None);
        assert!(Score { wins: 5, draws: 0, losses: 0 }.to_string().contains("+inf"));
        assert!(Score { wins: 0, draws: 0, losses: 3 }.to_string().contains("-inf"));
    }

    #[test]
    fn near_perfect_interval_is_open_ended() {
        let s = Score { wins: 99, draws: 0, losses: 1 };
        let (low, high) = s.elo_interval().unwrap();
        assert!(low.is_finite() && high == f64::INFINITY);
    }
}
