//! The [`Game`] trait and the vocabulary every game and every solver shares.
//!
//! Games know nothing of search; searches know games only through [`Game`].

pub mod capability;

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{Deref, DerefMut, Index, IndexMut, Not};

use arrayvec::ArrayVec;

/// One of the two players. `First` moves first from the usual start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The player who moves first (black in Ataxx, white in GIPF).
    First,
    /// The other player.
    Second,
}

impl Player {
    /// Both players, first player first.
    pub const ALL: [Player; 2] = [Player::First, Player::Second];

    /// 0 for the first player, 1 for the second.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl Not for Player {
    type Output = Player;
    #[inline]
    fn not(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// A pair of values, one per player, indexed by [`Player`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ByPlayer<T> {
    /// The first player's value.
    pub first: T,
    /// The second player's value.
    pub second: T,
}

impl<T> Index<Player> for ByPlayer<T> {
    type Output = T;
    #[inline]
    fn index(&self, p: Player) -> &T {
        match p {
            Player::First => &self.first,
            Player::Second => &self.second,
        }
    }
}

impl<T> IndexMut<Player> for ByPlayer<T> {
    #[inline]
    fn index_mut(&mut self, p: Player) -> &mut T {
        match p {
            Player::First => &mut self.first,
            Player::Second => &mut self.second,
        }
    }
}

/// Result of a finished game (or a solved position), always from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// The side to move loses.
    Loss,
    /// Neither side wins.
    Draw,
    /// The side to move wins.
    Win,
}

impl Outcome {
    /// The same result seen by the other player.
    #[inline]
    #[must_use]
    pub const fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }

    /// `win`, `draw` or `loss`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A growable buffer of moves: [`ArrayVec`] for games with a known bound, [`Vec`] otherwise.
pub trait MoveList<M>: Default + Deref<Target = [M]> + DerefMut + Send {
    /// Appends a move.
    fn push(&mut self, mv: M);
    /// Removes every move.
    fn clear(&mut self);
}

impl<M: Send, const N: usize> MoveList<M> for ArrayVec<M, N> {
    #[inline]
    fn push(&mut self, mv: M) {
        ArrayVec::push(self, mv);
    }
    #[inline]
    fn clear(&mut self) {
        ArrayVec::clear(self);
    }
}

impl<M: Send> MoveList<M> for Vec<M> {
    #[inline]
    fn push(&mut self, mv: M) {
        Vec::push(self, mv);
    }
    #[inline]
    fn clear(&mut self) {
        Vec::clear(self);
    }
}

/// Rules of a two-player, zero-sum, perfect-information game.
///
/// Positions are small and `Clone`; searches copy a position, then [`Game::play`] on the copy.
/// A position whose [`Game::outcome`] is `None` has at least one legal move (a game whose rules
/// let a side pass generates an explicit pass move).
pub trait Game: Clone + Send + Sync + 'static {
    /// A legal move; small and `Copy`.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// Move buffer.
    type Moves: MoveList<Self::Move>;

    /// `true` when no sequence of moves can return to an earlier position, so searches may skip
    /// repetition bookkeeping. Games with cycles treat a repeated position as a draw in search.
    const ACYCLIC: bool = false;

    /// `false` when no position of the game can be a draw: every finished game has a loser and
    /// no repetition can happen (so [`Game::ACYCLIC`] holds too). Proof-number solvers then read
    /// a disproved "the mover wins" as "the mover loses" and skip the second boolean search,
    /// which would ask the same question again under the other side's table keys.
    const DRAWS: bool = true;

    /// Appends every legal move for the side to move (nothing once the game is over).
    fn generate_moves(&self, moves: &mut Self::Moves);
    /// Plays `mv`, which must be legal.
    fn play(&mut self, mv: Self::Move);
    /// `Some` once the game is over, from the side to move's view.
    fn outcome(&self) -> Option<Outcome>;
    /// Zobrist hash of everything that decides the game's future (not move counters), kept up to
    /// date incrementally by `play`.
    fn hash(&self) -> u64;

    /// An exact key of the position for solvers that store every position once (the retrograde
    /// solver, [`crate::search::SolverKind::Retro`]): two positions reachable from a common
    /// start have the same key only if they are the same position for the rules (same moves,
    /// same outcomes, same future). What never changes during a game (board size, blocked
    /// squares, the graph, piece totals) may be left out; move counters that [`Game::hash`]
    /// leaves out are left out here too. `None` (the default): the game has no such key in
    /// 128 bits, and the retrograde solver reports `unknown`.
    fn exact_key(&self) -> Option<u128> {
        None
    }

    /// How many of the latest plies could be undone by a later position, if the game knows it
    /// (searches then look only that far back for repetitions). `None`: look at the whole path.
    fn reversible_plies(&self) -> Option<u32> {
        None
    }

    /// What the game offers beyond its rules to the solvers and commands that can use it
    /// (capability traits of [`crate::capability`]: the position graph, proof-number hints,
    /// a cheap first move, game options, search hints). Default: nothing.
    const CAPABILITIES: crate::capability::Capabilities<Self> =
        crate::capability::Capabilities::NONE;
}

/// Move-path enumeration for testing move generators (perft).
///
/// The defaults work for any game: leaves at depth 1 are counted without being played ("bulk
/// counting"), and a finished position has no children. Games override them with faster or
/// rule-specific versions (Ataxx honours its halfmove clock here).
pub trait Perft: Game {
    /// Whether a rule the [`Game`] model leaves out ends the game here for perft (Ataxx's
    /// halfmove clock); such a position has no children. Default: never.
    fn is_perft_leaf(&self) -> bool {
        false
    }

    /// Number of move paths of exactly `depth` plies from this position.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.is_perft_leaf() {
            return 0;
        }
        let mut moves = Self::Moves::default();
        self.generate_moves(&mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }

    /// For each legal move, the number of paths of `depth` plies that start with it.
    ///
    /// # Panics
    /// If `depth` is 0.
    fn split_perft(&self, depth: u32) -> Vec<(Self::Move, u64)> {
        assert!(depth > 0, "split perft needs depth 1 or more");
        if self.is_perft_leaf() {
            return Vec::new();
        }
        let mut moves = Self::Moves::default();
        self.generate_moves(&mut moves);
        moves
            .iter()
            .map(|&mv| {
                let mut child = self.clone();
                child.play(mv);
                (mv, child.perft(depth - 1))
            })
            .collect()
    }
}

/// A game that ends with a score, not only a winner (Gauss): the capability the score solvers
/// of [`crate::search::score`] need.
///
/// The score is the final points difference seen by the side to move at the end. It need not
/// decide [`Game::outcome`] alone (tie-breaks may split equal scores), but a positive score must
/// be a win and a negative one a loss.
pub trait Scored: Game {
    /// Every final score lies in `-SCORE_BOUND..=SCORE_BOUND`.
    const SCORE_BOUND: i32;

    /// Whether a final score of 0 is always a draw (Connect Four), so a score decides the
    /// outcome alone; `false` (the default) where tie-breaks may split equal scores (Gauss),
    /// and result rows then leave the outcome of a zero score unknown.
    const ZERO_IS_DRAW: bool = false;

    /// The final score from the side to move's view once the game is over, else `None`.
    fn final_score(&self) -> Option<i32>;

    /// Bounds `lo <= hi` of this position's value (its final score under perfect play by both
    /// sides) from the side to move's view, for a position not over: score searches settle a
    /// node at once when its window lies outside them or `lo == hi`, and narrow the window to
    /// them otherwise (Pons' bounds in Connect Four: the stones left, an immediate win, a
    /// threat that cannot be stopped). Default: `±`[`Scored::SCORE_BOUND`].
    fn score_range(&self) -> (i32, i32) {
        (-Self::SCORE_BOUND, Self::SCORE_BOUND)
    }

    /// The moves a score search tries in this position (not over): by default every move of
    /// [`Game::generate_moves`]. A game may leave out moves whose value is never above that of
    /// a move it keeps (Connect Four: a move that lets the opponent win at once, while a move
    /// that does not is there; Pons' `possibleNonLosingMoves`), so that the score, and whether
    /// it reaches a threshold, stay the same. The list must be the same on every call for the
    /// same position (tables keep move indices into it).
    fn score_moves(&self, moves: &mut Self::Moves) {
        self.generate_moves(moves);
    }

    /// A cheap guess of the final score from the side to move's view, for move ordering and
    /// the first window of score searches (a child with a lower estimate is tried first, as
    /// it is worse for the opponent). Default: 0.
    fn score_estimate(&self) -> i32 {
        0
    }

    /// The final score of the position after `mv` (from its side to move's view) if that
    /// ends the game, else `None`: what [`Game::play`] then [`Scored::final_score`] give, for
    /// games that can compute it cheaper (skipping the hash, say).
    fn final_score_after(&self, mv: Self::Move) -> Option<i32> {
        let mut child = self.clone();
        child.play(mv);
        child.final_score()
    }

    /// The final score of the position after `mv` if that ends the game, else its
    /// [`Scored::score_estimate`] (from its side to move's view): the horizon of the shallow
    /// searches that order moves, for games that can compute it cheaper.
    fn estimate_after(&self, mv: Self::Move) -> i32 {
        let mut child = self.clone();
        child.play(mv);
        child.final_score().unwrap_or_else(|| child.score_estimate())
    }

    /// How many plies are left to the end of the game along every line, when the game knows
    /// (Gauss: the placements left, at most): only for tuning heuristics, such as the depth of
    /// the score searches' first guess. Default: `None`.
    fn plies_left(&self) -> Option<u32> {
        None
    }

    /// A finer guess than [`Scored::score_estimate`] for move ordering only, on any scale (the
    /// score searches try a child with a lower value first). Default: the score estimate.
    fn order_estimate(&self) -> i32 {
        self.score_estimate()
    }

    /// The [`Scored::order_estimate`] of the position after `mv`, for games that compute it
    /// without building that position: the lean node of the score search
    /// ([`crate::search::score::ScoreFeatures::lean`]) orders a node's moves by it and builds
    /// only the children it searches. Must equal playing `mv` on a copy and asking the copy.
    /// Default: exactly that.
    fn order_estimate_after(&self, mv: Self::Move) -> i32 {
        let mut child = self.clone();
        child.play(mv);
        child.order_estimate()
    }

    /// For a position in which every move ends the game, searched by a score search that needs
    /// only to know which moves are worth more than `alpha` to the side to move: a value
    /// `b <= alpha` such that every move passing [`Scored::final_at_most`] is worth at most `b`
    /// (its value being minus [`Scored::final_score_after`]), when the game can tell that
    /// cheaper than scoring the moves; `None` otherwise. Default: `None`.
    fn final_bound(&self, _alpha: i32) -> Option<i32> {
        None
    }

    /// Whether `mv` is worth at most the bound [`Scored::final_bound`] gave for this position
    /// (called only after it gave one); `false` when the game cannot tell cheaply, and then
    /// the move is scored. Default: `false`.
    fn final_at_most(&self, _mv: Self::Move) -> bool {
        false
    }

    /// A key shared by every position equivalent to this one under a symmetry of the game that
    /// keeps the rules (so equivalent positions have the same final score under perfect play),
    /// and as unlikely as [`Game::hash`] to be shared by two inequivalent positions. Score
    /// searches may key their tables by it. Default: [`Game::hash`] (no symmetry).
    fn canonical_hash(&self) -> u64 {
        self.hash()
    }
}

/// What a playing engine ([`crate::search::engine`]) needs from a game beyond its rules: a
/// static evaluation and optional hints.
pub trait Evaluate: Game {
    /// Static score of a position that is not over, from the side to move's view, within
    /// `±`[`EVAL_LIMIT`](crate::search::engine::EVAL_LIMIT). Larger is better for the side to move.
    fn evaluate(&self) -> i32;

    /// A cheap ordering hint for `mv` in this position (larger is tried first), e.g. the
    /// material it gains. Default: no preference.
    fn move_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// Whether `mv` is so rarely the best move that the engine may skip it below the root once
    /// the node has tried two moves and has one that does not lose (late move pruning at every
    /// depth). Default: never.
    fn is_futile(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Futility pruning margins `(base, per_ply)` in evaluation units, or `None` (the default)
    /// for none: below the root, with at most 6 plies left, a node stops after its third move
    /// once it has a move that does not lose and its static evaluation plus `base + per_ply *
    /// depth` is still at most alpha (the later moves, ordered worse, are taken not to lift it).
    /// The margins are the game's, as only its evaluation's units say what "far below" is.
    const FUTILITY_MARGINS: Option<(i32, i32)> = None;

    /// History-driven late move reductions, or `None` (the default) for the engine's plain
    /// ones. With `Some((per_ply, max, divisor))` a cutoff at `depth` plies moves the history
    /// of its move (and, the other way, of the moves tried before it) by `min(per_ply * depth,
    /// max)` instead of `depth^2`, and a late move's reduction is lessened by its history
    /// divided by `divisor`, rounded (histories stay within `±2^14`, so with a divisor above
    /// `2^14 / 1.5` by at most one ply either way). Like the margins, the values are the
    /// game's: they were measured with its evaluation.
    const HISTORY_REDUCTIONS: Option<(i32, i32, i32)> = None;

    /// Slots, as a power of two, of the engine's cache of static evaluations (0, the default:
    /// no cache). Worth it when [`Evaluate::evaluate`] costs far more than a memory probe, as a
    /// neural net's sum does; the positions are cached under [`Evaluate::eval_key`].
    const EVAL_CACHE_BITS: u32 = 0;

    /// The key under which this position's static evaluation may be cached: a value that
    /// determines [`Evaluate::evaluate`] (the position's [`Game::hash`] mixed with whatever
    /// else the evaluation reads, such as the net in use), or `None` to evaluate it afresh
    /// every time (the default).
    fn eval_key(&self) -> Option<u64> {
        None
    }

    /// Whether a rule outside [`Game`] (a move-count rule such as Ataxx's 50 jumps) has already
    /// ended this position in a draw. Default: never.
    fn is_rule_draw(&self) -> bool {
        false
    }
}
