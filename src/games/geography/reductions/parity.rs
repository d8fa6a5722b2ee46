//! The parity-set rules one to three moves deep: their memos' use, the open moves and the fewest open replies that feed df-pn.

#[allow(clippy::wildcard_imports)]
use super::*;

/// What the three-move parity rule ([`Reductions::PARITY_DEEP`]) works out for an undecided
/// position, df-pn's initial numbers with [`Reductions::PN_HINT`] ([`proof_numbers_hint`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::games::geography) struct ParityNumbers {
    /// The moves the opponent cannot answer by a move into a parity set of the mover (the
    /// disproof number; 0 when not worked out).
    pub(in crate::games::geography) open: u16,
    /// The fewest such open replies the opponent keeps after a move of the mover (the proof
    /// number: what df-pn's numbers become when the position is expanded, each child numbered
    /// by its open moves).
    pub(in crate::games::geography) fewest: u16,
}

impl ParityNumbers {
    /// Not worked out.
    pub(in crate::games::geography) const NONE: ParityNumbers =
        ParityNumbers { open: 0, fewest: 0 };
}

/// [`independent_set_loss`] through the per-thread parity memo (of the game's caches, 2^20
/// slots) keyed by [`Geography::component_hash`].
pub fn cached_independent_set_loss(pos: &Geography) -> bool {
    memo_parity_loss(pos.component_hash(), &pos.rows, pos.token)
}

/// [`parity_loss`] through the per-thread memo, keyed by `hash`, a hash of the token and of a
/// set of remaining edges holding those of the token's component.
pub(super) fn memo_parity_loss(hash: u64, rows: &[u128; MAX_VERTICES], token: u8) -> bool {
    memo_or(hash, || parity_loss(rows, token))
}

/// The memoised parity-set answer of `hash` (see [`memo_parity_loss`]), or `compute`'s, which
/// is then memoised.
pub(super) fn memo_or(hash: u64, compute: impl FnOnce() -> bool) -> bool {
    if hash & !1 == 0 {
        return compute();
    }
    if let Some(loss) = caches::parity_lookup(hash) {
        return loss;
    }
    let loss = compute();
    caches::parity_store(hash, loss);
    loss
}

/// The parity-set rules of [`decide`]: `Some(Loss)` when the mover is in a parity set
/// ([`Reductions::PARITY_SET`]), `Some(Win)` when a move puts the opponent in one
/// ([`Reductions::PARITY_WIN`]) or when a move leaves the opponent only replies after which the
/// mover can put him in one ([`Reductions::PARITY_DEEP`]). With the win rules, one elimination of
/// the component's rows serves every test: the positions a few moves away differ from this one
/// by a few edges, and [`Nearby`] works out their kernels from it; every answer of the first two
/// rules is memoised as [`cached_independent_set_loss`]'s.
pub(super) fn parity_decide(pos: &Geography) -> (Option<Outcome>, ParityNumbers) {
    let (loss_rule, win_rule, deep_rule) = (
        pos.reductions.contains(Reductions::PARITY_SET),
        pos.reductions.contains(Reductions::PARITY_WIN),
        pos.reductions.contains(Reductions::PARITY_DEEP),
    );
    if !win_rule && !deep_rule {
        let loss = loss_rule && cached_independent_set_loss(pos);
        return (loss.then_some(Outcome::Loss), ParityNumbers::NONE);
    }
    let s = pos.token;
    let mut nearby = Nearby::new(pos);
    // With both win rules, the parent's tests already answered this position's parity-set
    // test (the parent is undecided, so no move of its led to a parity set), its win
    // certificate and some of its open-move tests (`ChildTests`).
    let inherited = if win_rule && deep_rule { ChildTests::inherited(pos) } else { None };
    if loss_rule && inherited.is_none() {
        let loss = memo_or(pos.component_hash(), || {
            nearby
                .elimination()
                .parity_set(&pos.rows, s)
                .unwrap_or_else(|| parity_loss(&pos.rows, s))
        });
        if loss {
            return (Some(Outcome::Loss), ParityNumbers::NONE);
        }
    }
    if let Some(known) = inherited
        && known.won
    {
        return (Some(Outcome::Win), ParityNumbers::NONE);
    }
    let win_known = inherited.is_some_and(|known| !known.unsure);
    if win_rule && !win_known && parity_win_with(pos, &mut nearby) {
        return (Some(Outcome::Win), ParityNumbers::NONE);
    }
    if !deep_rule {
        return (None, ParityNumbers::NONE);
    }
    let mut tests = ChildTests::new(pos.rows[s as usize]);
    let fewest = fewest_open_replies_into(pos, &mut nearby, &mut tests);
    if fewest == 0 {
        return (Some(Outcome::Win), ParityNumbers::NONE);
    }
    let known = inherited.unwrap_or(Inherited::NOTHING);
    match open_moves_into(pos, &mut nearby, &mut tests, known) {
        0 => (Some(Outcome::Loss), ParityNumbers::NONE),
        open => {
            if win_rule {
                tests.store(pos.component_hash());
            }
            (None, ParityNumbers { open, fewest })
        }
    }
}

/// What the parity tests of an undecided position found about the positions after its moves
/// (its children), kept per thread (the child-tests memo of the game's caches) for when the
/// children are settled, as df-pn does when it expands the position. The tests ask the same
/// questions the children ask themselves:
///
/// * the open-move test of a move `s -> x` (is there a reply `x -> z` into a parity set of the
///   mover?) is the child's parity-set win certificate ([`Reductions::PARITY_WIN`]);
/// * the three-move test of a reply `x -> y` (is there an answer `y -> z` into a parity set of
///   the opponent?) is the child's open-move test of its move `y`.
///
/// Each question is asked of the same graph (the child's, or its view without traps, is the
/// parent's, or its view, less the edge moved along: the child finds the record by that hash)
/// and answered by the same exact test, so a child that finds its parent's record settles to
/// what it would settle to alone, with fewer tests. Answers the parent did not reach (its
/// three-move count stops at the fewest so far) or where a test gave up (kernel too large) are
/// asked again.
#[derive(Clone, Copy)]
pub(in crate::games::geography) struct ChildTests {
    /// The moves of the token (in the position, or its view without traps).
    moves: u128,
    /// The moves the opponent answers by a move into a parity set of the mover (the child's
    /// mover wins).
    won: u128,
    /// The moves whose answer is not known: no answer found and some test gave up.
    unsure: u128,
    /// For the first [`CHILD_TEST_MOVES`] moves (by vertex): the replies (by their rank among
    /// the move's replies, the first 16) whose three-move test ended with every answer tested,
    /// and of those the ones answered into a parity set.
    tested: [u16; CHILD_TEST_MOVES],
    answered: [u16; CHILD_TEST_MOVES],
}

/// Moves of a position whose replies [`ChildTests`] records (a contest vertex has at most a
/// dozen neighbours).
pub(super) const CHILD_TEST_MOVES: usize = 16;

/// What a child takes from its parent's [`ChildTests`].
#[derive(Clone, Copy)]
pub(super) struct Inherited {
    /// The mover wins by the parity-set win certificate.
    won: bool,
    /// The certificate's answer is not known (ask again).
    unsure: bool,
    /// The moves whose open-move test is answered, and of those the answered ones.
    tested: u128,
    answered: u128,
}

impl Inherited {
    /// Nothing known.
    const NOTHING: Inherited = Inherited { won: false, unsure: true, tested: 0, answered: 0 };
}

/// The rank of `x` among the set bits of `set`.
pub(super) fn rank(set: u128, x: u8) -> usize {
    (set & ((1u128 << x) - 1)).count_ones() as usize
}

/// The members of `set` whose rank among its set bits is in `ranks`.
pub(super) fn by_rank(set: u128, ranks: u16) -> u128 {
    let mut out = 0u128;
    for (r, v) in Bitboard128(set).into_iter().enumerate().take(16) {
        if ranks >> r & 1 == 1 {
            out |= 1u128 << v;
        }
    }
    out
}

impl ChildTests {
    /// Nothing tested yet for a position whose token has the moves `moves`.
    pub(in crate::games::geography) const fn new(moves: u128) -> Self {
        ChildTests {
            moves,
            won: 0,
            unsure: 0,
            tested: [0; CHILD_TEST_MOVES],
            answered: [0; CHILD_TEST_MOVES],
        }
    }

    /// Keeps these tests of the position with component hash `key`.
    fn store(&self, key: u64) {
        caches::child_tests_store(key, self);
    }

    /// Records the three-move test of the reply of rank `r` to the move `x`.
    fn note_reply(&mut self, x: u8, r: usize, answered: bool) {
        let i = rank(self.moves, x);
        if i < CHILD_TEST_MOVES && r < 16 {
            self.tested[i] |= 1 << r;
            self.answered[i] |= u16::from(answered) << r;
        }
    }

    /// What the parent of `pos` found about it, when `pos` was reached by a move that kept the
    /// component whole and the parent's tests are still kept.
    fn inherited(pos: &Geography) -> Option<Inherited> {
        let (from, x) = (pos.came_from, pos.token);
        if from == u8::MAX {
            return None;
        }
        let key = pos.component_hash() ^ edge_key(from, x) ^ token_key(from) ^ token_key(x);
        if key == 0 {
            return None;
        }
        let tests = caches::child_tests_lookup(key)?;
        let bit = 1u128 << x;
        if tests.moves & bit == 0 {
            return None;
        }
        #[cfg(test)]
        caches::INHERITED.with(|n| n.set(n.get() + 1));
        let i = rank(tests.moves, x);
        let replies = pos.rows[x as usize];
        let (tested, answered) = if i < CHILD_TEST_MOVES {
            (by_rank(replies, tests.tested[i]), by_rank(replies, tests.answered[i]))
        } else {
            (0, 0)
        };
        Some(Inherited {
            won: tests.won & bit != 0,
            unsure: tests.unsure & bit != 0,
            tested,
            answered,
        })
    }
}

/// [`open_moves_into`] with nothing known from the parent.
#[cfg(test)]
pub(in crate::games::geography) fn open_moves(pos: &Geography, nearby: &mut Nearby) -> u16 {
    let mut tests = ChildTests::new(pos.rows[pos.token as usize]);
    open_moves_into(pos, nearby, &mut tests, Inherited::NOTHING)
}

/// The moves of the token that the opponent cannot answer by a move into a parity set of the
/// mover ([`Reductions::PARITY_DEEP`]); when there is none, the mover loses. The answers
/// `known` from the parent's tests are taken as they are; every answer is recorded in `tests`.
pub(super) fn open_moves_into(
    pos: &Geography,
    nearby: &mut Nearby,
    tests: &mut ChildTests,
    known: Inherited,
) -> u16 {
    let s = pos.token;
    let rows = &pos.rows;
    let mut open = 0;
    for y in Bitboard128(rows[s as usize]) {
        let y = y as u8;
        let answered = if known.tested >> y & 1 == 1 {
            known.answered >> y & 1 == 1
        } else {
            let answers = rows[y as usize] & !(1u128 << s);
            let answers = without_leaf_beside(rows, answers, 1u128 << s | 1u128 << y);
            let (answered, gave_up) = nearby.any_loss_after(&[s, y], answers);
            if gave_up && !answered {
                tests.unsure |= 1u128 << y;
            }
            answered
        };
        if answered {
            tests.won |= 1u128 << y;
        }
        open += u16::from(!answered);
    }
    open
}

/// The parity-set win certificate ([`Reductions::PARITY_WIN`]): `true` when some move of the
/// token leads to a position the parity-set rule ([`independent_set_loss`]) decides lost for the
/// opponent, so the mover wins. On a bipartite component this is exactly the winning half of the
/// bipartite rule (a set `X` of the far side with an odd number of edges to the token and an
/// even number to every other vertex of the token's side: after the move into `X`, `X` is a
/// parity set of the opponent).
pub fn parity_win(pos: &Geography) -> bool {
    parity_win_with(pos, &mut Nearby::new(pos))
}

/// [`parity_win`] with `nearby` the position's (elimination made on the first child whose
/// answer is not memoised).
pub(super) fn parity_win_with(pos: &Geography, nearby: &mut Nearby) -> bool {
    let s = pos.token;
    let rows = &pos.rows;
    let hash_base = pos.component_hash() ^ token_key(s);
    for x in Bitboard128(rows[s as usize]) {
        let x = x as u8;
        // The child's token and edges (those the move cut off included: a function of them).
        let hash = hash_base ^ edge_key(s, x) ^ token_key(x);
        // A neighbour of `x` left with the edge to `x` only wins at once for the opponent
        // (every vertex outside a parity set has an even, so not one, edge into it).
        let beyond = rows[x as usize] & !(1u128 << s);
        let unsafe_move = Bitboard128(beyond).into_iter().any(|y| rows[y as usize] == 1u128 << x);
        let loss = beyond == 0
            || (!unsafe_move
                && memo_or(hash, || {
                    nearby.loss_after(&[s, x]).unwrap_or_else(|| {
                        let mut child = *rows;
                        child[s as usize] &= !(1u128 << x);
                        child[x as usize] &= !(1u128 << s);
                        parity_loss(&child, x)
                    })
                }));
        if loss {
            return true;
        }
    }
    false
}

/// The vertices `z` of `answers` without a neighbour off the path `path` (a set of vertices)
/// whose only edge is to `z`: from such a neighbour's `z`, the player to move steps there and
/// wins at once, so `z` is in no parity set after the moves (a vertex outside the set with an
/// edge into it has an even number, two or more). Cheaper than the parity test, which would
/// find the same.
pub(super) fn without_leaf_beside(rows: &[u128; MAX_VERTICES], answers: u128, path: u128) -> u128 {
    let mut out = answers;
    for z in Bitboard128(answers) {
        let bit = 1u128 << z;
        if Bitboard128(rows[z as usize] & !path).into_iter().any(|w| rows[w as usize] == bit) {
            out &= !bit;
        }
    }
    out
}

/// [`fewest_open_replies_into`] without recording.
#[cfg(test)]
pub(in crate::games::geography) fn fewest_open_replies(
    pos: &Geography,
    nearby: &mut Nearby,
) -> u16 {
    fewest_open_replies_into(pos, nearby, &mut ChildTests::new(pos.rows[pos.token as usize]))
}

/// The three-move parity certificate ([`Reductions::PARITY_DEEP`]) and df-pn's initial proof
/// number with it: the fewest replies `x -> y` of the opponent, over the moves `s -> x`, that
/// the mover cannot answer by a move `y -> z` into a parity set of the opponent (the set exists
/// in the position after the three moves). 0 means the certificate holds: the mover wins.
/// A reply the certificate cannot answer (or a kernel too large to enumerate) counts as open;
/// a move after which the opponent can step onto a vertex left without edges does not count
/// ([`FEWEST_CAP`] when no move counts).
///
/// The moves with fewer replies are tried first, and a move's count stops at the fewest so
/// far: only the minimum is needed (side by side, one thread, on `s9:47` and `s8:59`: the
/// same nodes, a fifth fewer leaf tests than in plain order). Every reply whose answers were
/// all tested (or one of them found) is recorded in `tests`.
pub(super) fn fewest_open_replies_into(
    pos: &Geography,
    nearby: &mut Nearby,
    tests: &mut ChildTests,
) -> u16 {
    let s = pos.token;
    let rows = &pos.rows;
    let mut moves: ArrayVec<(u32, u8), MAX_VERTICES> = Bitboard128(rows[s as usize])
        .into_iter()
        .map(|x| (rows[x as usize].count_ones(), x as u8))
        .collect();
    moves.sort_unstable();
    let mut fewest = FEWEST_CAP;
    for (_, x) in moves {
        let replies = rows[x as usize] & !(1u128 << s);
        // A reply to a vertex whose only edge is from `x` leaves the mover stuck.
        if Bitboard128(replies).into_iter().any(|y| rows[y as usize] == 1u128 << x) {
            continue;
        }
        let mut open = 0;
        for (r, y) in Bitboard128(replies).into_iter().enumerate() {
            let answers = rows[y as usize] & !(1u128 << x);
            let path = 1u128 << s | 1u128 << x | 1u128 << y;
            let answers = without_leaf_beside(rows, answers, path);
            let (answered, gave_up) = nearby.any_loss_after(&[s, x, y as u8], answers);
            if answered || !gave_up {
                tests.note_reply(x, r, answered);
            }
            if !answered {
                open += 1;
                if open >= fewest {
                    break;
                }
            }
        }
        fewest = fewest.min(open);
        if fewest == 0 {
            return 0;
        }
    }
    fewest
}

/// [`fewest_open_replies_into`] when every move lets the opponent win at once.
pub(in crate::games::geography) const FEWEST_CAP: u16 = 255;
