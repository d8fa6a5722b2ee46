//! Small sub-games of undirected edge geography, solved exactly and cached in a table that the
//! positions using the bridge reduction own ([`SubgameCache`], held by a
//! [`super::reductions::BridgeContext`]).
//!
//! The bridge reduction ([`super::reductions::canonical_hash`]) meets the far side of a bridge:
//! a set of edges the token can only enter through the bridge's far endpoint `x`, and never
//! leave. Its only interface is one bit, whether the player to move at `x` wins on those edges
//! alone. [`SubgameCache::solve`] computes that bit with a memoised negamax over a private copy
//! of the adjacency rows, and [`SubgameCache::lookup`] finds it again later.
//!
//! **The cache.** A sub-game is the position "token on `x`, these edges"; its key is the
//! geography Zobrist hash of that position ([`super::graph::token_key`] XOR the
//! [`super::graph::edge_key`] of every edge). Edge and token keys depend only on vertex numbers,
//! not on the graph, so one table can serve every graph and every thread (positions share it
//! through an `Arc`): a fixed array of [`CACHE_ENTRIES`] atomic words (8 MiB), each holding 63
//! bits of the key and the result bit, written and read with relaxed atomics (a torn entry cannot
//! occur: one word per entry). Entries are overwritten freely; a lost entry is only solved again.
//! The table itself lives with the game's other caches (`caches.rs`, where their sizes are
//! listed); this module solves what it keeps.
//! Like every transposition table in `bitsolve`, it trusts 64-bit keys (63 bits checked), so a
//! key collision could in principle give a wrong bit; at a few million entries the odds are
//! about 1e-6 per run in the worst case.

use super::graph::{MAX_VERTICES, edge_key, token_key};

/// Far sides of at most this many edges are solved (larger ones are left as they are).
pub const SUBGAME_EDGE_LIMIT: u32 = 20;
/// Most nodes one sub-game solve may visit; a solve over budget gives up (the far side is then
/// left as it is, which is always exact).
pub const SUBGAME_NODE_BUDGET: u64 = 200_000;

pub use super::reductions::caches::{CACHE_ENTRIES, SubgameCache};

impl SubgameCache {
    /// Whether the player to move from `token` wins on the edges given by `rows` (bit `w` of
    /// row `v` set iff the edge `{v, w}` is there; rows must be symmetric), whose geography hash
    /// is `key`. `None` if the solve needs more than [`SUBGAME_NODE_BUDGET`] nodes. Every
    /// position met is cached. `rows` is restored before returning.
    pub fn solve(&self, rows: &mut [u128; MAX_VERTICES], token: u8, key: u64) -> Option<bool> {
        if let Some(win) = self.lookup(key) {
            return Some(win);
        }
        let mut budget = SUBGAME_NODE_BUDGET;
        self.negamax(rows, token, key, &mut budget)
    }

    fn negamax(
        &self,
        rows: &mut [u128; MAX_VERTICES],
        t: u8,
        key: u64,
        budget: &mut u64,
    ) -> Option<bool> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let around = rows[t as usize];
        // Immediate win: a neighbour whose only edge is the one to the token.
        let mut rest = around;
        while rest != 0 {
            let w = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if rows[w] == 1u128 << t {
                self.store(key, true);
                return Some(true);
            }
        }
        let mut win = false;
        let mut rest = around;
        while rest != 0 {
            let w = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let child = key ^ edge_key(t, w) ^ token_key(t) ^ token_key(w);
            let child_wins = if let Some(v) = self.lookup(child) {
                v
            } else {
                rows[t as usize] &= !(1u128 << w);
                rows[w as usize] &= !(1u128 << t);
                let v = self.negamax(rows, w, child, budget);
                rows[t as usize] |= 1u128 << w;
                rows[w as usize] |= 1u128 << t;
                v?
            };
            if !child_wins {
                win = true;
                break;
            }
        }
        self.store(key, win);
        Some(win)
    }
}
