//! What a game offers beyond its rules, for the one solver or command that can use it.
//!
//! [`Game`] holds what every game needs (four required methods and a few facts every solver
//! reads). Abilities that serve one solver or one game are traits of their own here: a game
//! implements the trait, then lists it in its [`Game::CAPABILITIES`] with the matching
//! `with_...` builder, and a solver asks for it through [`Capabilities`]:
//!
//! | capability | who has it | who asks |
//! |---|---|---|
//! | [`GraphGame`] (the whole position graph) | Szochy | the matching solver |
//! | [`ProofNumberHint`] (initial df-pn numbers) | geography | df-pn |
//! | [`FirstMove`] (one reply without the others) | GIPF | df-pn's win probe |
//! | [`Configurable`] (`--game-option NAME=VALUE`) | geography | `bitsolve solve`, `info` |
//! | [`SearchHints`] (facts about the tree) | GIPF, geography, Connect Four | [`crate::SolverOptions::for_game`], the score searches |
//!
//! Why a table of function pointers and not trait bounds: the solvers are built for any
//! `G: Game` by one factory ([`crate::make_solver`]), and Rust cannot ask "does `G` also
//! implement `GraphGame`?" inside generic code. The constant is that question's answer, written
//! by the game beside its implementation (before, search kept a `TypeId` table of games).
//!
//! ```
//! use bitsolve::capability::Capabilities;
//! use bitsolve::{Game, Geography, Gipf, AtaxxStandard};
//! assert!(Gipf::CAPABILITIES.first_move.is_some());
//! assert!(Geography::CAPABILITIES.set_option.is_some());
//! assert!(AtaxxStandard::CAPABILITIES.position_graph.is_none());
//! ```

use super::Game;
use crate::graph::PositionGraph;
use crate::search::retro::file::{TableError, TableFile};
use crate::search::{Limits, Report, SolverOptions};

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
    /// Score searches: the game's [`crate::Scored::order_estimate`] orders children well on its
    /// own and nodes are cheap, so the score searches' costlier aids, tuned on Gauss (ordering
    /// by two-ply searches, a shallow first guess, killer moves, the history table), are left
    /// off (Connect Four: measured in `results/connect4/pons.md`).
    pub sharp_order_estimate: bool,
}

impl SearchHints {
    /// No special knowledge: mobility initialisation, no probe, plain thresholds.
    pub const DEFAULT: SearchHints = SearchHints {
        informative_mobility: true,
        first_reply_wins_often: false,
        dfpn_epsilon: None,
        sharp_order_estimate: false,
    };
}

/// Games that are undirected vertex geography (every move can be undone and no position may
/// be entered twice), so their whole future is a graph of positions.
pub trait GraphGame: Game {
    /// The part of the position graph still open from here, for the matching solver
    /// ([`crate::search::SolverKind::Matching`]). `Err`: more than `max_positions` positions.
    ///
    /// # Errors
    /// More than `max_positions` positions, or another reason the game gives up.
    fn position_graph(&self, max_positions: usize) -> Result<PositionGraph<Self::Move>, String>;
}

/// Games that know better initial df-pn numbers than the search's own (mobility or `1, 1`).
pub trait ProofNumberHint: Game {
    /// Initial df-pn numbers `(phi, delta)` for this position, new to the search and not over,
    /// from its mover's view (`phi`: cost of proving the mover wins, `delta`: cost of refuting
    /// that; both at least 1). `None`: the search's own numbers for this position. A hint is
    /// only a guess: it changes the order of the search, never its result.
    fn proof_numbers_hint(&self) -> Option<(u64, u64)>;
}

/// Games that can find their first move without generating the others.
pub trait FirstMove: Game {
    /// The first move [`Game::generate_moves`] would give, if any (df-pn's win probe needs
    /// only one reply).
    fn first_move(&self) -> Option<Self::Move>;
}

/// Games with options of their own (`bitsolve solve --game-option NAME=VALUE`): settings of
/// the position that change how solvers see it, never its value (geography's exact
/// reductions).
pub trait Configurable: Game {
    /// The options, with the value `bitsolve solve` applies unless told otherwise.
    const OPTIONS: &'static [GameOption];

    /// Sets the option `name` (one of [`Configurable::OPTIONS`]) to `value` on this position;
    /// positions played from it keep the setting.
    ///
    /// # Errors
    /// A name the game does not know, or a value it cannot take (with what is allowed).
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String>;
}

/// A game option ([`Configurable::OPTIONS`]): its name, the value the solve command uses unless told
/// otherwise, and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOption {
    /// The name (`--game-option NAME=VALUE`).
    pub name: &'static str,
    /// The value `bitsolve solve` applies when the option is not given.
    pub solve_default: &'static str,
    /// What the option does and the values it takes.
    pub help: &'static str,
}

/// The graph of a [`GraphGame`] position (the signature of [`GraphGame::position_graph`]).
pub type PositionGraphFn<G> = fn(&G, usize) -> Result<PositionGraph<<G as Game>::Move>, String>;

/// [`ProofNumberHint::proof_numbers_hint`]'s signature.
pub type HintFn<G> = fn(&G) -> Option<(u64, u64)>;

/// [`FirstMove::first_move`]'s signature.
pub type FirstMoveFn<G> = fn(&G) -> Option<<G as Game>::Move>;

/// [`Configurable::set_option`]'s signature.
pub type SetOptionFn<G> = fn(&mut G, &str, &str) -> Result<(), String>;

/// The layer and rank of a position in a table, or why it cannot be in it.
pub type LocateFn<G> = Box<dyn Fn(&G) -> Result<(usize, u64), TableError> + Send + Sync>;

/// How the positions of a table file map to the layers and ranks it stores them under, both
/// ways.
pub struct Locator<G> {
    /// The layer and rank of a position, or why it cannot be in the table.
    pub locate: LocateFn<G>,
    /// The position of a layer and rank of the table's index (with symmetry, the class's
    /// canonical position).
    pub position: Box<dyn Fn(usize, u64) -> G + Send + Sync>,
}

/// [`Tablebase::locator`]'s signature.
pub type LocatorFn<G> = fn(&TableFile) -> Result<Locator<G>, TableError>;

/// A game whose table files (`bitsolve table build`, [`crate::search::retro::file`]) the table
/// solver reads back.
pub trait Tablebase: Game {
    /// The locator of the positions of `table`, after checking that the table is of this game
    /// (rule set, board, parameters: its description and layer sizes).
    ///
    /// # Errors
    /// [`TableError::Mismatch`] for a table of another game or variant, with the reason.
    fn locator(table: &TableFile) -> Result<Locator<Self>, TableError>;
}

/// A game whose positions the layered retrograde engine solves from any root
/// (`--solver retro2`).
pub trait StrongSolve: Game {
    /// Solves `self` exactly with the layered engine (value, distance, a best move), within
    /// `limits` and with `options` (`tt_mib` as the memory budget, `threads`, `symmetry`,
    /// `checkpoint`, `progress`).
    fn strong_solve(&self, limits: &Limits, options: &SolverOptions) -> Report<Self::Move>;
}

/// [`StrongSolve::strong_solve`]'s signature.
pub type StrongSolveFn<G> = fn(&G, &Limits, &SolverOptions) -> Report<<G as Game>::Move>;

/// Which capabilities a game has, as function pointers (`None`: the game lacks it): the
/// value of [`Game::CAPABILITIES`], built with [`Capabilities::NONE`] and the `with_...`
/// builders.
pub struct Capabilities<G: Game> {
    /// [`GraphGame::position_graph`].
    pub position_graph: Option<PositionGraphFn<G>>,
    /// [`ProofNumberHint::proof_numbers_hint`].
    pub proof_numbers_hint: Option<HintFn<G>>,
    /// [`FirstMove::first_move`].
    pub first_move: Option<FirstMoveFn<G>>,
    /// [`Configurable::OPTIONS`] (empty without options).
    pub options: &'static [GameOption],
    /// [`Configurable::set_option`].
    pub set_option: Option<SetOptionFn<G>>,
    /// Facts about the game's tree for proof-number searches.
    pub search_hints: SearchHints,
    /// [`Tablebase::locator`].
    pub table_locator: Option<LocatorFn<G>>,
    /// [`StrongSolve::strong_solve`].
    pub strong_solve: Option<StrongSolveFn<G>>,
}

impl<G: Game> Capabilities<G> {
    /// No capability and the default search hints: what a game has unless it says more.
    pub const NONE: Self = Capabilities {
        position_graph: None,
        proof_numbers_hint: None,
        first_move: None,
        options: &[],
        set_option: None,
        search_hints: SearchHints::DEFAULT,
        table_locator: None,
        strong_solve: None,
    };

    /// These capabilities and [`GraphGame`].
    #[must_use]
    pub const fn with_position_graph(self) -> Self
    where
        G: GraphGame,
    {
        Capabilities { position_graph: Some(<G as GraphGame>::position_graph), ..self }
    }

    /// These capabilities and [`ProofNumberHint`].
    #[must_use]
    pub const fn with_proof_numbers_hint(self) -> Self
    where
        G: ProofNumberHint,
    {
        Capabilities {
            proof_numbers_hint: Some(<G as ProofNumberHint>::proof_numbers_hint),
            ..self
        }
    }

    /// These capabilities and [`FirstMove`].
    #[must_use]
    pub const fn with_first_move(self) -> Self
    where
        G: FirstMove,
    {
        Capabilities { first_move: Some(<G as FirstMove>::first_move), ..self }
    }

    /// These capabilities and [`Configurable`].
    #[must_use]
    pub const fn with_options(self) -> Self
    where
        G: Configurable,
    {
        Capabilities {
            options: <G as Configurable>::OPTIONS,
            set_option: Some(<G as Configurable>::set_option),
            ..self
        }
    }

    /// These capabilities and [`Tablebase`].
    #[must_use]
    pub const fn with_tablebase(self) -> Self
    where
        G: Tablebase,
    {
        Capabilities { table_locator: Some(<G as Tablebase>::locator), ..self }
    }

    /// These capabilities and [`StrongSolve`].
    #[must_use]
    pub const fn with_strong_solve(self) -> Self
    where
        G: StrongSolve,
    {
        Capabilities { strong_solve: Some(<G as StrongSolve>::strong_solve), ..self }
    }

    /// These capabilities with `hints` for proof-number searches.
    #[must_use]
    pub const fn with_search_hints(self, hints: SearchHints) -> Self {
        Capabilities { search_hints: hints, ..self }
    }
}

/// The first move of `pos`: [`FirstMove`] if the game has it, else the first generated move.
pub fn first_move<G: Game>(pos: &G) -> Option<G::Move> {
    if let Some(first) = G::CAPABILITIES.first_move {
        return first(pos);
    }
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    moves.first().copied()
}

/// Sets game option `name` to `value` on `pos` ([`Configurable`]).
///
/// # Errors
/// The game has no options, does not know `name`, or refuses `value`.
pub fn set_option<G: Game>(pos: &mut G, name: &str, value: &str) -> Result<(), String> {
    match G::CAPABILITIES.set_option {
        Some(set) => set(pos, name, value),
        None => Err(unknown_option(name, &[])),
    }
}

/// The error of [`Configurable::set_option`] for a name not among `known`.
pub fn unknown_option(name: &str, known: &[GameOption]) -> String {
    if known.is_empty() {
        format!("unknown game option `{name}`: this game has no options")
    } else {
        let names: Vec<&str> = known.iter().map(|o| o.name).collect();
        format!("unknown game option `{name}` (this game has: {})", names.join(", "))
    }
}
