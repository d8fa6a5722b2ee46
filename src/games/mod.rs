//! The games, and the single place that maps a game's name to its type.

pub mod ataxx;
pub mod digraph;

use std::fmt;

/// Every game `bitsolve` knows, by command-line name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum GameKind {
    /// Ataxx under the community (standard) rules: a side without a move passes.
    Ataxx,
    /// Ataxx under the assignment's (Polish) rules: a side without a move loses.
    AtaxxPolish,
    /// A token on a directed graph (the toy game with cycles used to test solvers).
    Digraph,
}

impl GameKind {
    /// Every game, in a fixed order.
    pub const ALL: [GameKind; 3] = [GameKind::Ataxx, GameKind::AtaxxPolish, GameKind::Digraph];

    /// The command-line name.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Ataxx => "ataxx",
            GameKind::AtaxxPolish => "ataxx-polish",
            GameKind::Digraph => "digraph",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Runs `$body` with the type alias `$G` bound to the game type of `$kind`: the one dispatch
/// point from a [`GameKind`] to generic code.
///
/// ```
/// use bitsolve::{with_game, GameKind, Notation};
/// fn start_of<G: Notation>(text: &str) -> String {
///     G::parse_position(text).unwrap().format_position()
/// }
/// let text = with_game!(GameKind::Digraph, G => start_of::<G>("0|1;0;"));
/// assert_eq!(text, "0|1;0;");
/// ```
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::games::GameKind::Ataxx => {
                type $G = $crate::games::ataxx::AtaxxStandard;
                $body
            }
            $crate::games::GameKind::AtaxxPolish => {
                type $G = $crate::games::ataxx::AtaxxPolish;
                $body
            }
            $crate::games::GameKind::Digraph => {
                type $G = $crate::games::digraph::Digraph;
                $body
            }
        }
    };
}
