//! [`Value`]: a game-theoretic result with its distance, ordered so better is larger.

use std::cmp::Ordering;
use std::fmt;

use crate::game::Outcome;

/// Exact value of a position for the side to move.
///
/// `Win(d)`: the side to move wins in `d` plies with best play (shorter is better);
/// `Loss(d)`: it loses in `d` plies (longer is better). Ordered: every win above `Draw`, every
/// loss below, faster wins and slower losses higher.
///
/// ```
/// use bitsolve::Value;
/// assert!(Value::Win(1) > Value::Win(3));
/// assert!(Value::Win(99) > Value::Draw);
/// assert!(Value::Loss(4) > Value::Loss(2));
/// assert_eq!(Value::Loss(0).parent(), Value::Win(1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies.
    Win(u32),
    /// Neither side can force a win.
    Draw,
    /// The side to move loses in this many plies.
    Loss(u32),
}

impl Value {
    /// The value of a finished game with result `outcome`.
    pub const fn terminal(outcome: Outcome) -> Value {
        match outcome {
            Outcome::Win => Value::Win(0),
            Outcome::Draw => Value::Draw,
            Outcome::Loss => Value::Loss(0),
        }
    }

    /// The value, for the parent's mover, of moving into a position with value `self`.
    #[must_use]
    pub const fn parent(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(d + 1),
        }
    }

    /// The result without its distance.
    pub const fn outcome(self) -> Outcome {
        match self {
            Value::Win(_) => Outcome::Win,
            Value::Draw => Outcome::Draw,
            Value::Loss(_) => Outcome::Loss,
        }
    }

    /// The distance in plies (`None` for a draw).
    pub const fn plies(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// A single integer with the same order: wins above zero, losses below, draw zero.
    pub const fn rank(self) -> i64 {
        match self {
            Value::Win(d) => i64::MAX / 2 - d as i64,
            Value::Draw => 0,
            Value::Loss(d) => -(i64::MAX / 2) + d as i64,
        }
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win {d}"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(d) => write!(f, "loss {d}"),
        }
    }
}
