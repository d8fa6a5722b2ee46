//! [`ScoreFeatures`], the refinements of [`super::AlphaBetaScore`]'s search, and the shallow first guess at the root.

#[allow(clippy::wildcard_imports)]
use super::*;

/// The refinements of [`AlphaBetaScore`]'s search. [`ScoreFeatures::default`] is what the
/// solver uses; turning one off ([`AlphaBetaScore::with_features`]) only measures what it gives,
/// the scores stay exact either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools, reason = "independent switches, each measured alone")]
pub struct ScoreFeatures {
    /// Enhanced transposition cutoffs: before searching its children, a node looks each of them
    /// up in the table, and a child whose stored upper bound already proves the cut ends the
    /// node at once (a lower one raises `alpha` before the first search).
    pub etc: bool,
    /// History heuristic: among children with equal score estimates, the moves that caused
    /// more cutoffs (weighted by the work below them) elsewhere in the search come first.
    pub history: bool,
    /// Table keys from [`Scored::canonical_hash`]: positions equal up to a symmetry of the
    /// game share one entry. Off by default: on ten random Gauss positions with 9 placements
    /// left it saved 0.5% of the nodes and cost about 15% more time (symmetric positions are
    /// rare once the board is crowded).
    pub symmetry: bool,
    /// Root tests step from the last fail-soft value (MTD(f)) instead of bisecting the
    /// remaining interval (after the first test at the estimate, which both do).
    pub mtdf: bool,
    /// At nodes with at least [`SHALLOW_HEIGHT`] plies below them (the top few plies, where a
    /// wrong first child costs a large subtree), children are ordered by a
    /// [`SHALLOW_DEPTH`]-ply search over estimates (the search of the first guess) instead of
    /// their own estimate.
    /// On ten random Gauss positions with 11 placements left (one thread) it took 26% fewer
    /// nodes and 29% less time; the one position with 12 left that took longest went from
    /// 151 s to 76 s on two threads. (A one-ply search from height 4, measured first, saved
    /// 9% of the nodes but cost 28% more time.)
    pub shallow: bool,
    /// The first root test is at the value of a search over score estimates to
    /// [`guess_depth`] plies instead of the root's own estimate: on random Gauss positions
    /// with 10 and 12 placements left it is within one point of the exact score far more
    /// often, so fewer root tests are needed.
    pub guess: bool,
    /// Killer moves: per ply, the last two moves that cut a node off are tried first there
    /// (before the other children are even played, so a node whose children all finish the
    /// game often stops after one), and among children with equal estimates they come first.
    pub killer: bool,
    /// The table's move is searched as soon as it is built, before the other children are
    /// played, and so are the killers at nodes whose grandchildren end the game (where
    /// building every child only to order them costs more than the order saves). On random
    /// Gauss positions with 11 and 12 placements left it took 1% more nodes and 17% less time.
    pub eager: bool,
    /// With threads, at nodes at least [`DEFER_HEIGHT`] plies above the deepest seen, a child
    /// that another thread is searching is put off until the node's other children are
    /// searched (the exclusive search of ABDADA), the first child searched excepted; threads
    /// that run the same test then split its work instead of repeating it. On 2 threads it took
    /// 9% fewer nodes and 10% less time on nine random Gauss positions with 11 and 12 left
    /// (two runs each, alternating with runs without it).
    pub defer: bool,
    /// With threads, each helper breaks the ties of the move order its own way (Lazy SMP's
    /// diversity), so threads joining one test take different paths. Without it every thread
    /// keeps the first thread's order, and ABDADA ([`ScoreFeatures::defer`]) splits a test
    /// where the threads meet at the same nodes: on Connect Four that made two threads 1.6-1.75x
    /// as fast as one on 40 positions of the hard sets, where with scrambled ties they took the
    /// time of one with twice the nodes; on nine Gauss positions with 11 and 12 left (2
    /// threads, three runs each, alternating) it cost 4% (Gauss's threads mostly run different
    /// tests), so it stays on there.
    pub scramble: bool,
    /// The lean node: a node orders its moves by [`Scored::order_estimate_after`] from its own
    /// position and builds a child only when it searches it, with one table probe a node; the
    /// aids that need every child built first (enhanced transposition cutoffs, eager children,
    /// killers, history, ordering by shallow searches) are not used with it, whatever their
    /// switches say. On for games whose estimate is sharp and cheap from the parent
    /// ([`crate::SearchHints::sharp_order_estimate`]: Connect Four, where a node took about
    /// two thirds of the instructions, 1,077 -> 690; measured in `docs/adding-a-game.md`).
    pub lean: bool,
    /// At nodes whose every move ends the game, the game's cheap bound on some moves
    /// ([`Scored::final_bound`], [`Scored::final_at_most`]) stands in for scoring them when it
    /// cannot matter: the move is then worth at most `alpha` (the regular node only; the lean
    /// node scores every move). On ten random Gauss positions with 11 placements left (one
    /// thread, both settings at the same time) it took 7% less time (nodes within a few dozen).
    pub bound: bool,
}

/// Height (plies down to the deepest node seen so far) from which [`ScoreFeatures::defer`]
/// applies: below it subtrees are too small to be worth the marks.
pub const DEFER_HEIGHT: u32 = 4;

/// Plies of the search that makes the first guess ([`ScoreFeatures::guess`]) when the game
/// does not tell how many plies are left ([`Scored::plies_left`]).
pub const GUESS_DEPTH: u32 = 6;

/// Deepest first guess for games that tell how many plies are left.
pub const GUESS_DEPTH_MAX: u32 = 8;

/// The depth of the first guess at `root`: [`GUESS_DEPTH`], or, when the game tells the plies
/// left, the deepest up to [`GUESS_DEPTH_MAX`] that leaves an even number of plies below its
/// horizon. On Gauss the estimate at a horizon with an odd number of placements left is biased
/// (the side to move there has one placement more than the other): on ten random positions
/// with 12 placements left the guesses of 7 and 9 plies missed the exact scores by 15 and 12
/// points in all, those of 6 and 8 plies by 6 and 7; with 11 left, 7 plies missed by 4 in all,
/// 6 and 8 by 9 and 13. The 12-left position that took longest (exact score -3) was guessed
/// -1 at 6 plies and -2 at 8, and solved in 48 s instead of 62 s on two threads.
pub fn guess_depth<G: Scored>(root: &G) -> u32 {
    match root.plies_left() {
        None => GUESS_DEPTH,
        Some(left) => {
            let depth = left.min(GUESS_DEPTH_MAX);
            depth - (left - depth) % 2
        }
    }
}

/// Fail-soft alpha-beta over scores to `depth` plies, [`Scored::score_estimate`] at the horizon,
/// children ordered by [`Scored::order_estimate`]: the first guess of the root tests. Counts
/// its nodes in `nodes`.
pub(super) fn guess<G: Scored>(
    pos: &G,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if let Some(s) = pos.final_score() {
        return s;
    }
    if depth == 0 {
        return pos.score_estimate();
    }
    let mut moves = G::Moves::default();
    pos.score_moves(&mut moves);
    if depth == 1 {
        // The children's values are their estimates: no need to build them.
        let mut best = i32::MIN;
        for &mv in moves.iter() {
            *nodes += 1;
            best = best.max(-pos.estimate_after(mv));
            if best >= beta {
                break;
            }
        }
        return best;
    }
    let mut children: Vec<(i32, G)> = moves
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            (child.order_estimate(), child)
        })
        .collect();
    children.sort_by_key(|c| c.0);
    let mut best = i32::MIN;
    for (_, child) in &children {
        let v = -guess(child, depth - 1, -beta, -alpha, nodes);
        if v > best {
            best = v;
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// Height (plies down to the deepest node seen so far) from which nodes order their children
/// by a search of [`SHALLOW_DEPTH`] plies ([`ScoreFeatures::shallow`]). On the positions with
/// 11 placements left heights 7 and 8 did about as well; 6 and 9 took more nodes.
pub const SHALLOW_HEIGHT: u32 = 7;

/// Plies of the ordering search of [`ScoreFeatures::shallow`] below each child (1 and 3 took
/// more time on the positions with 11 placements left).
pub const SHALLOW_DEPTH: u32 = 2;

impl Default for ScoreFeatures {
    fn default() -> Self {
        ScoreFeatures {
            etc: true,
            history: true,
            symmetry: false,
            mtdf: true,
            shallow: true,
            killer: true,
            guess: true,
            eager: true,
            defer: true,
            scramble: true,
            lean: false,
            bound: true,
        }
    }
}

impl ScoreFeatures {
    /// The default refinements, less those the game's [`crate::SearchHints`] say do not pay
    /// ([`crate::SearchHints::sharp_order_estimate`]: no shallow ordering searches, first
    /// guess, killers or history; and without the first guess no MTD(f) steps either, which
    /// pay only from a close guess: from the plain estimate they walk the interval one point a
    /// test, where bisection takes a few tests; helpers keep the first thread's move order,
    /// [`ScoreFeatures::scramble`]; and the lean node, [`ScoreFeatures::lean`], without the
    /// aids it does not use).
    pub fn for_game<G: Scored>() -> ScoreFeatures {
        let mut features = ScoreFeatures::default();
        if G::CAPABILITIES.search_hints.sharp_order_estimate {
            features.shallow = false;
            features.guess = false;
            features.killer = false;
            features.history = false;
            features.mtdf = false;
            features.scramble = false;
            features.lean = true;
            features.etc = false;
            features.eager = false;
        }
        features
    }

    /// Every refinement off: the plain search of the first version.
    pub const NONE: ScoreFeatures = ScoreFeatures {
        etc: false,
        history: false,
        symmetry: false,
        mtdf: false,
        shallow: false,
        killer: false,
        guess: false,
        eager: false,
        defer: false,
        scramble: false,
        lean: false,
        bound: false,
    };
}
