//! Bridges and forced chains: far sides solved once, and the canonical hash.

#[allow(clippy::wildcard_imports)]
use super::*;

/// A far side replaced by the bridge reduction: the subtree `vertices` entered at `entry`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FarSide {
    /// The bridge's far endpoint (the only way in).
    pub entry: u8,
    /// The bridge's near endpoint.
    pub near: u8,
    /// The far side's vertices (the entry included).
    pub vertices: Vertices,
    /// Number of remaining edges with both ends in `vertices`.
    pub edges: u32,
}

/// Every bridge `{near, entry}` of the token's component whose far side (the side without the
/// token) has between 2 and `limit` edges, keeping only the outermost ones (a far side inside
/// another listed one is left out), found by one depth-first search from the token (Tarjan's
/// low-link rule: the tree edge `p -> c` is a bridge iff no back edge from `c`'s subtree reaches
/// `p` or above; Tarjan, "A note on finding the bridges of a graph", IPL 2 (1974) 160-161).
pub fn small_far_sides(pos: &Geography, limit: u32) -> ArrayVec<FarSide, 64> {
    // Discovery times are 1-based; `order[i]` is the vertex discovered at time `i + 1` and
    // `prefix[i]` the degree sum of the first `i` discovered vertices, so a subtree (a run of
    // consecutive discovery times) has its degree sum by one subtraction.
    let mut disc = [0u8; MAX_VERTICES];
    let mut low = [0u8; MAX_VERTICES];
    let mut order = [0u8; MAX_VERTICES];
    let mut prefix = [0u32; MAX_VERTICES + 1];
    let mut stack: ArrayVec<(u8, u128), MAX_VERTICES> = ArrayVec::new();
    let mut found: ArrayVec<FarSide, 64> = ArrayVec::new();
    let root = pos.token;
    let mut time = 1usize;
    disc[root as usize] = 1;
    low[root as usize] = 1;
    order[0] = root;
    prefix[1] = pos.degree(root);
    stack.push((root, pos.rows[root as usize]));
    while let Some(top) = stack.last_mut() {
        let v = top.0;
        if top.1 != 0 {
            let w = top.1.trailing_zeros() as u8;
            top.1 &= top.1 - 1;
            let dw = disc[w as usize];
            if dw == 0 {
                time += 1;
                disc[w as usize] = time as u8;
                low[w as usize] = time as u8;
                order[time - 1] = w;
                prefix[time] = prefix[time - 1] + pos.degree(w);
                // The tree edge back to the parent is not a back edge (simple graph: one edge).
                stack.push((w, pos.rows[w as usize] & !(1u128 << v)));
            } else if dw < low[v as usize] {
                low[v as usize] = dw;
            }
            continue;
        }
        stack.pop();
        let Some(&(p, _)) = stack.last() else { break };
        let (lv, dv, dp) = (low[v as usize], disc[v as usize] as usize, disc[p as usize]);
        if lv < low[p as usize] {
            low[p as usize] = lv;
        }
        if lv > dp {
            // A bridge: the far side is the subtree of `v`, discovery times `dv..=time`.
            // Inner edges count twice in its degree sum, the bridge once.
            let edges = (prefix[time] - prefix[dv - 1] - 1) / 2;
            if (2..=limit).contains(&edges) && !found.is_full() {
                let mut vertices = 0u128;
                for &u in &order[dv - 1..time] {
                    vertices |= 1u128 << u;
                }
                found.push(FarSide { entry: v, near: p, vertices: Bitboard128(vertices), edges });
            }
        }
    }
    // Post-order lists inner far sides before the ones holding them: keep the outermost.
    let mut covered = 0u128;
    let mut outer: ArrayVec<FarSide, 64> = ArrayVec::new();
    for side in found.into_iter().rev() {
        if covered >> side.entry & 1 == 0 {
            covered |= side.vertices.0;
            outer.push(side);
        }
    }
    outer
}

/// The bridge reduction looks for bridges only in token components of at most this many edges
/// (the default of [`BridgeContext::scan_edge_limit`]). A tuning limit, not a condition of
/// exactness: the search for bridges costs about 1.7 us on a 100-vertex contest component
/// (several times a plain node), and the contest positions at the edge of the solver's reach
/// (150 to 200 component edges) rarely have a small far side (`examples/geography_reach.rs`
/// measures both settings).
pub const BRIDGE_SCAN_EDGE_LIMIT: u32 = 64;

/// What the bridge reduction of a position owns: its sub-game cache and its bridge scan limit.
/// Positions with [`Reductions::BRIDGES`] hold one behind an `Arc` and pass it on to the
/// positions played from them, so a game (and every thread searching it) shares one cache and
/// nothing is process-global: [`Game::outcome`](crate::Game::outcome) and
/// [`Game::hash`](crate::Game::hash) depend only on the position and its own context.
#[derive(Debug)]
pub struct BridgeContext {
    pub(super) cache: SubgameCache,
    scan_edge_limit: u32,
}

impl BridgeContext {
    /// A context with an empty cache that scans for bridges in token components of at most
    /// `scan_edge_limit` edges ([`BRIDGE_SCAN_EDGE_LIMIT`] is the usual value; `u32::MAX`: scan
    /// every component). Any limit is exact; it only trades the cost of the scan against what
    /// it finds.
    pub fn new(scan_edge_limit: u32) -> Self {
        BridgeContext { cache: SubgameCache::new(), scan_edge_limit }
    }

    /// The bridge scan limit.
    pub fn scan_edge_limit(&self) -> u32 {
        self.scan_edge_limit
    }

    /// The sub-game cache.
    pub fn cache(&self) -> &SubgameCache {
        &self.cache
    }
}

impl Default for BridgeContext {
    /// [`BridgeContext::new`] with [`BRIDGE_SCAN_EDGE_LIMIT`].
    fn default() -> Self {
        BridgeContext::new(BRIDGE_SCAN_EDGE_LIMIT)
    }
}

/// Zobrist key of a forced chain object with ends `a` and `b` and length parity `odd` (a key
/// family of its own, combined by wrapping addition so that parallel chains do not cancel).
#[inline]
pub fn chain_key(a: u8, b: u8, odd: bool) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    splitmix64(0xC4A1_2000_0000 ^ (u64::from(lo) << 9 | u64::from(hi) << 1 | u64::from(odd))).1
}

/// The hash of the token's component after the bridge and chain reductions the position
/// applies ([`Reductions::BRIDGES`], [`Reductions::CHAINS`]); equal hashes mean equal values (up
/// to 64-bit collisions). Without either flag: [`Geography::component_hash`].
///
/// * **Bridges.** Each outermost far side of 2 to [`SUBGAME_EDGE_LIMIT`] edges
///   ([`small_far_sides`]) is solved ([`SubgameCache::solve`], cached in the position's
///   [`BridgeContext`], whose scan limit applies) and replaced by a gadget of
///   the same value: no edge when the mover at its entry loses (the entry becomes a leaf), the
///   edge from the entry to its lowest far neighbour when that mover wins. This is exact: the
///   token can reach the far side only across the bridge and never come back, and nothing
///   touches the far side's edges before, so crossing leads to the sub-game "mover at the entry,
///   far-side edges only", whose value is all that matters. A far side over the node budget is
///   left as it is.
/// * **Chains.** On the (reduced) component, a maximal path `u - c1 - ... - c(L-1) - w` (`L >= 2`)
///   whose interior vertices have degree 2 and do not hold the token is hashed as the object
///   `(u, w, L mod 2)` instead of its edges. Exact: the interior vertices have no other edges, so
///   the chain can only be entered at an end, after which the `L` moves to the other end are
///   forced and delete exactly the chain; the position then reached is the same whatever the
///   chain's interior, and the side to move there depends only on `L mod 2`. By induction on
///   the number of edges (every other move keeps the chain as it is), two positions that
///   differ only in such chains with the same ends and parities have the same value.
pub fn canonical_hash(pos: &Geography) -> u64 {
    let mut hash = pos.component_hash();
    let bridges = pos.bridge_context();
    let chains = pos.reductions.contains(Reductions::CHAINS);
    if bridges.is_none() && !chains {
        return hash;
    }
    let (sides, cache) = match bridges {
        Some(c) if pos.component_edge_count() <= c.scan_edge_limit => {
            (small_far_sides(pos, SUBGAME_EDGE_LIMIT), Some(&c.cache))
        }
        _ => (ArrayVec::new(), None),
    };
    // The adjacency after the bridge gadgets (copied only when a far side is replaced).
    let mut reduced: Option<Box<[u128; MAX_VERTICES]>> = None;
    for side in sides {
        let inside = side.vertices.0;
        let mut far = [0u128; MAX_VERTICES];
        let mut far_edges = 0u64;
        for v in side.vertices {
            far[v as usize] = pos.rows[v as usize] & inside;
            for w in Bitboard128(far[v as usize] & !((2u128 << v) - 1)) {
                far_edges ^= edge_key(v as u8, w as u8);
            }
        }
        let key = far_edges ^ token_key(side.entry);
        let Some(win) = cache.and_then(|c| c.solve(&mut far, side.entry, key)) else { continue };
        hash ^= far_edges;
        let rows = reduced.get_or_insert_with(|| Box::new(pos.rows));
        for v in side.vertices {
            rows[v as usize] &= !inside;
        }
        if win {
            let y = (pos.rows[side.entry as usize] & inside).trailing_zeros() as u8;
            hash ^= edge_key(side.entry, y);
            rows[side.entry as usize] |= 1u128 << y;
            rows[y as usize] = 1u128 << side.entry;
        }
    }
    if chains {
        let sum = match reduced.as_deref() {
            Some(rows) => {
                let mut interior = 0u128;
                for v in pos.component {
                    if rows[v as usize].count_ones() == 2 {
                        interior |= 1u128 << v;
                    }
                }
                chain_objects(pos, rows, interior, &mut hash)
            }
            None => chain_objects(pos, &pos.rows, pos.two & pos.component.0, &mut hash),
        };
        hash = hash.wrapping_add(sum);
    }
    hash
}

/// Finds the maximal forced chains of the token's component in `rows`, removes their edges'
/// keys from `hash` and returns the wrapping sum of their [`chain_key`]s.
/// `degree_two` holds the component's vertices of degree 2 in `rows`.
pub(super) fn chain_objects(
    pos: &Geography,
    rows: &[u128; MAX_VERTICES],
    degree_two: u128,
    hash: &mut u64,
) -> u64 {
    let mut interior = degree_two & !(1u128 << pos.token);
    let mut sum = 0u64;
    while interior != 0 {
        // Walk both ways from an interior vertex to the chain's ends.
        let v = interior.trailing_zeros() as u8;
        interior &= !(1u128 << v);
        let row = rows[v as usize];
        let mut keys = 0u64;
        let mut len = 0u32;
        let mut ends = [v; 2];
        for (end, first) in ends.iter_mut().zip([row.trailing_zeros(), row.ilog2()]) {
            let (mut prev, mut cur) = (v, first as u8);
            loop {
                keys ^= edge_key(prev, cur);
                len += 1;
                if interior >> cur & 1 == 0 {
                    break;
                }
                interior &= !(1u128 << cur);
                let next = (rows[cur as usize] & !(1u128 << prev)).trailing_zeros() as u8;
                prev = cur;
                cur = next;
            }
            *end = cur;
        }
        *hash ^= keys;
        sum = sum.wrapping_add(chain_key(ends[0], ends[1], len % 2 == 1));
    }
    sum
}
