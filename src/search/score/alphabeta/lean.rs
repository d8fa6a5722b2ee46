//! The lean node of [`AlphaBetaScore`](super::AlphaBetaScore)'s search
//! ([`ScoreFeatures::lean`]): the moves are ordered from the node's own position by
//! [`Scored::order_estimate_after`], and a child is built only when it is searched. A node costs
//! one table probe, one store and the children it searches; nothing is kept per ply.

use std::ops::ControlFlow;

use arrayvec::ArrayVec;

#[allow(clippy::wildcard_imports)]
use super::*;

/// The search order of move index `index` with order estimate `estimate` and tie-break `tie`
/// as one number, smallest first; the index is the low byte.
#[inline]
fn lean_rank(estimate: i32, tie: u8, index: u8) -> u64 {
    u64::from(estimate.cast_unsigned() ^ 0x8000_0000) << 16 | u64::from(tie) << 8 | u64::from(index)
}

impl<G: Scored> Worker<'_, G> {
    /// Fail-soft negamax of `pos`, whose table key is `key`, as [`Self::node`] computes it
    /// (the same values and bounds, another node count): the game's bounds, the table, then
    /// the moves of [`Scored::score_moves`] in order (the table's move first, then lower
    /// [`Scored::order_estimate_after`], then the tie-break), each child built and searched in
    /// turn until one cuts the node off. With threads, a child another thread is searching in
    /// the same test waits until the others are done ([`ScoreFeatures::defer`]). `None` when
    /// stopped.
    pub(in crate::search::score) fn lean_node(
        &mut self,
        pos: &G,
        key: u64,
        alpha: i32,
        beta: i32,
        ply: u32,
    ) -> Option<(i32, u8)> {
        let (alpha, beta) = match self.enter(pos, alpha, beta, ply) {
            ControlFlow::Continue(window) => window,
            ControlFlow::Break(settled) => return settled,
        };
        let (probe, mut window) = match self.probe(key, true, ply, (alpha, beta)) {
            ControlFlow::Continue(opened) => opened,
            ControlFlow::Break(settled) => return Some(settled),
        };
        let mut moves = G::Moves::default();
        pos.score_moves(&mut moves);
        // The table's move is searched before the others are even estimated: it often cuts
        // the node off alone.
        let tt_move = (usize::from(probe.tt_move) < moves.len()).then_some(probe.tt_move);
        if let Some(index) = tt_move {
            self.lean_children(pos, &moves, &[u64::from(index)], ply, &mut window)?;
        }
        if !window.cut() {
            let mut order: ArrayVec<u64, 64> = ArrayVec::new();
            for (i, &mv) in moves.iter().enumerate() {
                let i = i as u8;
                if Some(i) != tt_move {
                    order.push(lean_rank(pos.order_estimate_after(mv), self.tie(i), i));
                }
            }
            order.sort_unstable();
            self.lean_children(pos, &moves, &order, ply, &mut window)?;
        }
        self.store(&probe, &window);
        Some(window.best)
    }

    /// The tie-break of move index `i` among equal estimates: 0, so that the index (the rank's
    /// low byte) decides, or a scramble of it per thread ([`ScoreFeatures::scramble`]).
    #[inline]
    fn tie(&self, i: u8) -> u8 {
        if self.salt == 0 { 0 } else { (u32::from(i).wrapping_mul(0x2545_F491) ^ self.salt) as u8 }
    }

    /// Builds and searches the children of `pos` (at `ply`) in `order` ([`lean_rank`]s of
    /// indices into `moves`) until one cuts the node off; with [`ScoreFeatures::defer`] a
    /// child busy in another thread's search of the same test comes after the rest. `None`
    /// when stopped.
    fn lean_children(
        &mut self,
        pos: &G,
        moves: &G::Moves,
        order: &[u64],
        ply: u32,
        window: &mut Window,
    ) -> Option<()> {
        let busy = self.busy_marks(ply);
        let mut deferred: ArrayVec<u8, 64> = ArrayVec::new();
        let mut searched = window.best.0 != i32::MIN;
        for &r in order {
            let index = r as u8;
            let mut child = pos.clone();
            child.play(moves[usize::from(index)]);
            let key = self.key(&child);
            // The child looks its bucket up after a few checks: start the load now.
            self.tt.prefetch(key);
            let mark = match busy {
                Some(busy) if searched => {
                    // Marked per test: a thread testing another threshold does not wait.
                    let ck = key ^ (self.threshold as u64).wrapping_mul(BUSY_SALT);
                    if busy.is_busy(ck) {
                        deferred.push(index);
                        continue;
                    }
                    busy.enter(ck);
                    Some((busy, ck))
                }
                _ => None,
            };
            searched = true;
            let value = self.lean_node(&child, key, -window.beta, -window.alpha, ply + 1);
            if let Some((busy, ck)) = mark {
                busy.leave(ck);
            }
            if window.raise(-value?.0, index) {
                return Some(());
            }
        }
        for &index in &deferred {
            let mut child = pos.clone();
            child.play(moves[usize::from(index)]);
            let key = self.key(&child);
            let (v, _) = self.lean_node(&child, key, -window.beta, -window.alpha, ply + 1)?;
            if window.raise(-v, index) {
                break;
            }
        }
        Some(())
    }
}
