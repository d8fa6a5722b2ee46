//! What proof-number searches assume about each game by default: one table here, so that games
//! need to know nothing of search.
//!
//! ```
//! use bitsolve::search::hints::{SearchHints, hints_for};
//! use bitsolve::{AtaxxStandard, Gipf};
//! assert_eq!(hints_for::<AtaxxStandard>(), SearchHints::DEFAULT);
//! assert!(!hints_for::<Gipf>().informative_mobility);
//! ```

use std::any::TypeId;

use crate::game::Game;
use crate::games::geography::Geography;
use crate::games::gipf::Gipf;

/// Facts about a game's tree that proof-number searches use to pick their defaults
/// ([`crate::search::SolverOptions::for_game`]); command-line flags override them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchHints {
    /// Reply counts differ enough between positions to be worth a move generation per new
    /// node (df-pn and PNS then start a new leaf's numbers from its move count). `false` for
    /// games whose reply counts are nearly uniform (GIPF: every push of a non-empty reserve).
    pub informative_mobility: bool,
    /// A side often wins with whatever it plays (GIPF: the opponent's reserve is empty), so
    /// df-pn should count a new leaf whose mover wins with its first reply as solved at once.
    pub first_reply_wins_often: bool,
    /// The df-pn 1+epsilon threshold factor measured best on the game's own positions
    /// (`None`: plain df-pn thresholds).
    pub dfpn_epsilon: Option<f64>,
}

impl SearchHints {
    /// No special knowledge: mobility initialisation, no probe, plain thresholds.
    pub const DEFAULT: SearchHints = SearchHints {
        informative_mobility: true,
        first_reply_wins_often: false,
        dfpn_epsilon: None,
    };
}

/// GIPF: reply counts are nearly uniform (every push of a non-empty reserve), a side whose
/// opponent has an empty reserve wins with any push, and df-pn with epsilon = 2 re-expands less
/// than plain df-pn on official test 9 and the small variants (see `README.md`, GIPF).
const GIPF: SearchHints = SearchHints {
    informative_mobility: false,
    first_reply_wins_often: true,
    dfpn_epsilon: Some(2.0),
};

/// Geography: df-pn with epsilon = 0.5 on three contest positions of 184 to 204 component
/// edges (`s9:47`, `s2:42`, `s3:76` of `results/geography/reach-hard.md`, reductions
/// `default,guided,parity-set,traps`, one thread, 256 MiB, side by side): 5.44M nodes in 42.3 s
/// against 9.51M nodes in 50.3 s with plain thresholds.
const GEOGRAPHY: SearchHints = SearchHints { dfpn_epsilon: Some(0.5), ..SearchHints::DEFAULT };

/// A game's type id (a function, as `TypeId::of` is not yet `const`).
type GameId = fn() -> TypeId;

/// The games with hints of their own; every other game gets [`SearchHints::DEFAULT`].
const TABLE: &[(GameId, SearchHints)] =
    &[(TypeId::of::<Gipf>, GIPF), (TypeId::of::<Geography>, GEOGRAPHY)];

/// The hints for game `G`: its entry in the table, else [`SearchHints::DEFAULT`]. A wrapper
/// type around a game (a test or bench harness) is another type and gets the default.
pub fn hints_for<G: Game>() -> SearchHints {
    let id = TypeId::of::<G>();
    TABLE.iter().find(|(type_id, _)| type_id() == id).map_or(SearchHints::DEFAULT, |&(_, h)| h)
}
