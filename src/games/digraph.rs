//! A token on a directed graph: the smallest game with cycles, used to test how solvers treat
//! repetitions (graph-history interaction).
//!
//! The side to move pushes the token along an out-edge of its vertex; a side whose vertex has no
//! out-edge loses. Play that goes round a cycle forever is a draw.
//!
//! Notation: `current|adj0;adj1;...` where `adjI` lists the successors of vertex `I` separated
//! by spaces, for example `0|1 2;0;` (vertex 2 has no move).
//!
//! ```
//! use bitsolve::{Digraph, Notation, Outcome, Game};
//! let g = Digraph::parse_position("0|1;2;;").unwrap();
//! assert_eq!(g.outcome(), None);
//! let mut h = g.clone();
//! h.play(1);
//! h.play(2);
//! assert_eq!(h.outcome(), Some(Outcome::Loss));
//! ```

use std::sync::Arc;

use crate::game::{Game, Outcome};
use crate::notation::{Notation, ParseError};
use crate::zobrist::KeyStream;

/// Most vertices a [`Digraph`] may have.
pub const MAX_VERTICES: usize = 64;

/// A position: the graph (shared) and the token's vertex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digraph {
    successors: Arc<Vec<Vec<u8>>>,
    keys: Arc<Vec<u64>>,
    at: u8,
}

impl Digraph {
    /// A position with the token on `at` of the graph given by `successors`.
    ///
    /// # Panics
    /// If the graph has more than [`MAX_VERTICES`] vertices or an edge or `at` is out of range.
    pub fn new(successors: Vec<Vec<u8>>, at: u8) -> Self {
        let n = successors.len();
        assert!(n <= MAX_VERTICES && (at as usize) < n);
        assert!(successors.iter().flatten().all(|&v| (v as usize) < n));
        // The keys depend on the whole graph, so positions of different graphs never share a
        // hash (a table may then be reused across graphs).
        let mix = |h: u64, x: u64| crate::zobrist::splitmix64(h ^ x).1;
        let fingerprint = successors.iter().fold(n as u64, |h, list| {
            list.iter().fold(mix(h, 1000 + list.len() as u64), |h, &v| mix(h, u64::from(v)))
        });
        let mut stream = KeyStream::new(0x00D1_6A4F ^ fingerprint);
        let keys = (0..n).map(|_| stream.next_key()).collect();
        Digraph { successors: Arc::new(successors), keys: Arc::new(keys), at }
    }

    /// A random graph of `n` vertices with out-degrees 0 to 3, from a seed.
    pub fn random(n: usize, seed: u64) -> Self {
        let mut s = KeyStream::new(seed);
        let successors = (0..n)
            .map(|_| {
                let degree = s.next_key() % 4;
                (0..degree).map(|_| (s.next_key() % n as u64) as u8).collect()
            })
            .collect();
        Digraph::new(successors, 0)
    }

    /// The token's vertex.
    pub fn at(&self) -> u8 {
        self.at
    }
}

impl Game for Digraph {
    type Move = u8;
    type Moves = Vec<u8>;

    fn generate_moves(&self, moves: &mut Vec<u8>) {
        for &v in &self.successors[self.at as usize] {
            if !moves.contains(&v) {
                moves.push(v);
            }
        }
    }

    fn play(&mut self, mv: u8) {
        debug_assert!(self.successors[self.at as usize].contains(&mv));
        self.at = mv;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.successors[self.at as usize].is_empty().then_some(Outcome::Loss)
    }

    fn hash(&self) -> u64 {
        self.keys[self.at as usize]
    }

    /// The token's vertex (the graph never changes).
    fn exact_key(&self) -> Option<u128> {
        Some(u128::from(self.at))
    }
}

impl crate::game::Perft for Digraph {}

impl Notation for Digraph {
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let text = text.trim_end();
        let (at, rest) = text
            .split_once('|')
            .ok_or_else(|| ParseError::new(1, 1, "expected `current|successor lists`"))?;
        let at: u8 = at
            .trim()
            .parse()
            .map_err(|_| ParseError::new(1, 1, "current vertex is not a number"))?;
        let mut successors = Vec::new();
        let mut column = at.to_string().len() + 2;
        for list in rest.split(';') {
            let mut targets = Vec::new();
            for word in list.split_whitespace() {
                let v: u8 = word.parse().map_err(|_| {
                    ParseError::new(1, column, format!("`{word}` is not a vertex number"))
                })?;
                targets.push(v);
            }
            column += list.len() + 1;
            successors.push(targets);
        }
        if successors.last().is_some_and(Vec::is_empty) && rest.ends_with(';') {
            successors.pop();
        }
        let n = successors.len();
        if n == 0 || n > MAX_VERTICES {
            return Err(ParseError::new(1, 1, format!("1 to {MAX_VERTICES} vertices needed")));
        }
        if (at as usize) >= n || successors.iter().flatten().any(|&v| v as usize >= n) {
            return Err(ParseError::new(1, 1, format!("a vertex number is not below {n}")));
        }
        Ok(Digraph::new(successors, at))
    }

    fn format_position(&self) -> String {
        let lists: Vec<String> = self
            .successors
            .iter()
            .map(|l| l.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        format!("{}|{};", self.at, lists.join(";"))
    }

    fn parse_move(&self, text: &str) -> Result<u8, ParseError> {
        let v: u8 =
            text.trim().parse().map_err(|_| ParseError::new(1, 1, "a move is a vertex number"))?;
        if self.successors[self.at as usize].contains(&v) {
            Ok(v)
        } else {
            Err(ParseError::new(1, 1, format!("no edge from {} to {v}", self.at)))
        }
    }

    fn format_move(&self, mv: u8) -> String {
        mv.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for seed in 0..50 {
            let g = Digraph::random(12, seed);
            let text = g.format_position();
            assert_eq!(Digraph::parse_position(&text).unwrap(), g, "{text}");
        }
    }

    #[test]
    fn bad_vertex_is_reported_with_column() {
        let err = Digraph::parse_position("0|1 x;0").unwrap_err();
        assert_eq!((err.line, err.column), (1, 3));
        assert!(Digraph::parse_position("5|1;0").is_err());
    }
}
