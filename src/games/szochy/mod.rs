//! Szochy: chess pieces without captures or colours on an `N x M` board with holes; either player
//! moves any piece, no position may occur twice, and a player who cannot move loses.
//!
//! Moves are reversible, so the game is undirected vertex geography on the graph of positions:
//! the player to move from `v` wins iff every maximum matching of the graph covers `v`
//! (Fraenkel, Scheinerman and Ullman 1993). [`solve`] enumerates the start's component
//! ([`enumerate`]) and decides it with Edmonds' blossom algorithm
//! ([`crate::graph::matching`]); the [`Game`] implementation ([`Szochy`]) carries the set of
//! visited positions, so the shared search solvers (brute force above all) are an exact oracle on
//! small instances.
//!
//! Notation (one line): `N M|holes|pieces[|history]`, e.g. `3 3|2,1 2,2 2,3|k1,2 q3,3`: board
//! columns and rows, hole squares `i,j` (1-based, `i` horizontal), pieces as a letter `k q b n
//! r` and a square; the optional history lists earlier positions of the game (piece lists
//! separated by `;`), which may not be entered again. Moves: `k1,2-2,3`.
//!
//! ```
//! use bitsolve::games::szochy::{Instance, solve, SolveOptions};
//! // Official test 0: a king in the middle of a 1x3 board; the first player wins.
//! let inst = Instance::new(1, 3, &[], &[('k', 1, 2)]).unwrap();
//! let s = solve(&inst, &SolveOptions::default()).unwrap();
//! assert!(s.first_player_wins);
//! assert_eq!(s.positions, 3);
//! ```

#![allow(clippy::many_single_char_names)] // graph and board notation: g, m, n, u, v, w

pub mod board;
pub mod enumerate;
pub mod instance;

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use board::{Board, Piece, Placement, SzochyMove};
pub use instance::{Instance, TestCase, parse_tests};

use crate::capability::{Capabilities, GraphGame};
use crate::game::{Game, Outcome};
use crate::graph::PositionGraph;
use crate::graph::matching::{self, Matching};
use crate::notation::{Notation, ParseError};
use board::{counts, decode, encode, move_between};

/// Options of [`solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Give up (with an error) when the component has more positions than this.
    pub max_positions: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions { max_positions: 100_000_000 }
    }
}

/// The answer for one instance and what it cost.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Whether the player to move first wins.
    pub first_player_wins: bool,
    /// Positions in the start's component.
    pub positions: usize,
    /// Edges (pairs of positions one move apart) in the component.
    pub moves: usize,
    /// Size of a maximum matching.
    pub matching_size: usize,
    /// Time to enumerate the graph.
    pub enumerate_time: Duration,
    /// Time to match and decide.
    pub matching_time: Duration,
    /// Wall time of each phase (enumeration phases, then matching phases), in order.
    pub phases: Vec<(&'static str, Duration)>,
    /// The enumerated graph (vertex 0 is the start).
    pub graph: enumerate::Enumerated,
    /// A maximum matching; it misses the start when the second player wins.
    pub matching: Matching,
    counts: [u8; 5],
}

/// Solves an instance: enumeration, maximum matching, and one extra search for the start.
///
/// # Errors
/// When the component exceeds `options.max_positions`.
pub fn solve(inst: &Instance, options: &SolveOptions) -> Result<Solution, String> {
    let t0 = Instant::now();
    let graph =
        enumerate::enumerate(&inst.board, &inst.start, &HashSet::new(), options.max_positions)?;
    let enumerate_time = t0.elapsed();
    let t1 = Instant::now();
    let m = matching::maximum_matching(&graph.graph);
    let mut phases = graph.phases.clone();
    phases.push(("maximum matching", t1.elapsed()));
    let t2 = Instant::now();
    // A maximum matching that misses the start exists iff the second player wins; it is then
    // the second player's strategy, so keep it for the line of play.
    let missing = matching::matching_missing(&graph.graph, &m, 0);
    let first_player_wins = missing.is_none();
    let m = missing.unwrap_or(m);
    let matching_time = t1.elapsed();
    phases.push(("decision (start in every maximum matching)", t2.elapsed()));
    Ok(Solution {
        phases,
        first_player_wins,
        positions: graph.keys.len(),
        moves: graph.graph.edge_count(),
        matching_size: m.size(),
        enumerate_time,
        matching_time,
        graph,
        matching: m,
        counts: counts(&inst.start),
    })
}

impl Solution {
    /// A game played from the start: the winner always moves along the maximum matching (one
    /// that misses the start when the second player wins: a winning strategy either way), the
    /// loser takes its first open move. Returns the moves played.
    pub fn winning_line(&self) -> Vec<SzochyMove> {
        let g = &self.graph.graph;
        let mut visited = vec![false; g.vertex_count()];
        let mut v = 0u32;
        visited[0] = true;
        let mut winner_to_move = self.first_player_wins;
        let mut line = Vec::new();
        loop {
            let next = if winner_to_move {
                self.matching.mate(v).filter(|&u| !visited[u as usize])
            } else {
                g.neighbors(v).iter().copied().find(|&u| !visited[u as usize])
            };
            let Some(u) = next else { break };
            let a = decode(self.graph.keys[v as usize], &self.counts);
            let b = decode(self.graph.keys[u as usize], &self.counts);
            line.push(move_between(&a, &b).expect("adjacent positions differ by one move"));
            visited[u as usize] = true;
            v = u;
            winner_to_move = !winner_to_move;
        }
        line
    }
}

/// Hash of a packed position for the visited-set part of [`Szochy::hash`].
fn key_hash(key: u128, salt: u64) -> u64 {
    let (_, a) = crate::zobrist::splitmix64(key as u64 ^ salt);
    let (_, b) = crate::zobrist::splitmix64((key >> 64) as u64 ^ a);
    b
}

const CURRENT_SALT: u64 = 0x5A0C_4E11_0000_0001;
const VISITED_SALT: u64 = 0x5A0C_4E11_0000_0002;

/// A game in progress: the board, the current placement and every position visited so far (the
/// current one included). Legality depends on this history, so it is part of the state and of
/// [`Game::hash`]: the hash is a key of the current position, exclusive-or the keys of all
/// visited positions, so the shared transposition table never mixes two histories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Szochy {
    board: Arc<Board>,
    placement: Placement,
    visited: Vec<u128>,
    visited_hash: u64,
}

impl Szochy {
    /// The start of a game on `inst`.
    pub fn new(inst: &Instance) -> Self {
        let key = encode(&inst.start);
        Szochy {
            board: Arc::clone(&inst.board),
            placement: inst.start,
            visited: vec![key],
            visited_hash: key_hash(key, VISITED_SALT),
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The current placement.
    pub fn placement(&self) -> &Placement {
        &self.placement
    }

    /// Positions visited so far (packed keys; the current one last).
    pub fn visited(&self) -> &[u128] {
        &self.visited
    }
}

impl Game for Szochy {
    /// Undirected vertex geography: the matching solver reads the whole position graph.
    const CAPABILITIES: Capabilities<Self> = Capabilities::NONE.with_position_graph();
    type Move = SzochyMove;
    type Moves = Vec<SzochyMove>;

    /// Every move enters a new position, so no position repeats.
    const ACYCLIC: bool = true;
    /// No position may be entered twice and a side without a move loses.
    const DRAWS: bool = false;

    fn generate_moves(&self, moves: &mut Vec<SzochyMove>) {
        self.board.for_each_child(&self.placement, |mv, child| {
            if !self.visited.contains(&encode(child)) {
                moves.push(mv);
            }
        });
    }

    fn play(&mut self, mv: SzochyMove) {
        let t = mv.piece as usize;
        self.placement[t] ^= (1u128 << mv.from) | (1u128 << mv.to);
        let key = encode(&self.placement);
        debug_assert!(!self.visited.contains(&key));
        self.visited.push(key);
        self.visited_hash ^= key_hash(key, VISITED_SALT);
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut any = false;
        self.board.for_each_child(&self.placement, |_, child| {
            any |= !self.visited.contains(&encode(child));
        });
        (!any).then_some(Outcome::Loss)
    }

    fn hash(&self) -> u64 {
        self.visited_hash ^ key_hash(encode(&self.placement), CURRENT_SALT)
    }
}

impl GraphGame for Szochy {
    fn position_graph(&self, max_positions: usize) -> Result<PositionGraph<SzochyMove>, String> {
        let current = encode(&self.placement);
        let excluded: HashSet<u128> =
            self.visited.iter().copied().filter(|&k| k != current).collect();
        let e = enumerate::enumerate(&self.board, &self.placement, &excluded, max_positions)?;
        let counts = counts(&self.placement);
        let root_moves = e
            .graph
            .neighbors(0)
            .iter()
            .map(|&u| {
                (
                    u,
                    move_between(&self.placement, &decode(e.keys[u as usize], &counts))
                        .expect("a neighbour is one move away"),
                )
            })
            .collect();
        Ok(PositionGraph { graph: e.graph, root: 0, root_moves })
    }
}

impl crate::game::Perft for Szochy {}

impl Notation for Szochy {
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let text = text.trim_end();
        let (inst, rest) = instance::parse_line(text)?;
        for w in &inst.warnings {
            eprintln!("warning: {w}");
        }
        let mut game = Szochy::new(&inst);
        if let Some(history) = rest {
            let start_counts = counts(&inst.start);
            let mut earlier = Vec::new();
            for entry in history.split(';').filter(|e| !e.trim().is_empty()) {
                let at = entry.as_ptr() as usize - text.as_ptr() as usize;
                let mut pl = [0u128; 5];
                for (c, i, j) in instance::parse_pieces(text, entry)? {
                    let s = inst.board.square(i, j).ok_or_else(|| {
                        ParseError::at_offset(
                            text,
                            at,
                            format!("history: ({i},{j}) is off the board"),
                        )
                    })?;
                    let t = Piece::from_letter(c).expect("checked by parse_pieces") as usize;
                    if pl.iter().any(|b| b >> s & 1 == 1) {
                        return Err(ParseError::at_offset(
                            text,
                            at,
                            format!("history: two pieces on ({i},{j})"),
                        ));
                    }
                    pl[t] |= 1 << s;
                }
                if counts(&pl) != start_counts {
                    return Err(ParseError::at_offset(
                        text,
                        at,
                        "history: a position must have the same pieces as the current one",
                    ));
                }
                let key = encode(&pl);
                if key == encode(&inst.start) || earlier.contains(&key) {
                    return Err(ParseError::at_offset(
                        text,
                        at,
                        "history: a position is listed twice",
                    ));
                }
                earlier.push(key);
            }
            for key in earlier {
                game.visited.insert(game.visited.len() - 1, key);
                game.visited_hash ^= key_hash(key, VISITED_SALT);
            }
        }
        Ok(game)
    }

    fn format_position(&self) -> String {
        let b = &self.board;
        let holes: Vec<String> = (0..b.squares() as u8)
            .filter(|&s| b.holes() >> s & 1 == 1)
            .map(|s| b.square_name(s))
            .collect();
        let mut out = format!(
            "{} {}|{}|{}",
            b.columns(),
            b.rows(),
            holes.join(" "),
            b.format_pieces(&self.placement)
        );
        if self.visited.len() > 1 {
            let c = counts(&self.placement);
            let earlier: Vec<String> = self.visited[..self.visited.len() - 1]
                .iter()
                .map(|&k| b.format_pieces(&decode(k, &c)))
                .collect();
            out.push('|');
            out.push_str(&earlier.join(";"));
        }
        out
    }

    fn parse_move(&self, text: &str) -> Result<SzochyMove, ParseError> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        let wanted = text.trim();
        moves.into_iter().find(|&mv| self.board.format_move(mv) == wanted).ok_or_else(|| {
            ParseError::new(1, 1, format!("`{wanted}` is not a legal move here (form: k1,2-2,3)"))
        })
    }

    fn format_move(&self, mv: SzochyMove) -> String {
        self.board.format_move(mv)
    }
}

#[cfg(test)]
mod tests;
