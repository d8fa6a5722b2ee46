//! The edge-list notation: `<n> <token> <m> <a1> <b1> ... <am> <bm>` (the body of the contest's
//! `200` message); a move is the target vertex.

use std::fmt::Write as _;
use std::sync::Arc;

use super::{Geography, Graph};
use crate::notation::{Notation, ParseError};

/// Words of `text` with their 1-based columns.
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_ascii_whitespace().map(move |w| {
        let offset = w.as_ptr() as usize - text.as_ptr() as usize;
        (offset + 1, w)
    })
}

fn number(
    word: Option<(usize, &str)>,
    what: &str,
    end: usize,
) -> Result<(usize, usize), ParseError> {
    let (column, w) = word.ok_or_else(|| ParseError::new(1, end, format!("missing {what}")))?;
    let value = w
        .parse()
        .map_err(|_| ParseError::new(1, column, format!("{what} `{w}` is not a number")))?;
    Ok((column, value))
}

impl Notation for Geography {
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let text = text.trim_end();
        let end = text.chars().count() + 1;
        let mut it = words(text);
        let (nc, n) = number(it.next(), "vertex count n", end)?;
        if n == 0 || n > super::MAX_VERTICES {
            return Err(ParseError::new(1, nc, format!("n must be 1 to {}", super::MAX_VERTICES)));
        }
        let (tc, token) = number(it.next(), "token vertex", end)?;
        if token >= n {
            return Err(ParseError::new(1, tc, format!("token {token} is not below n = {n}")));
        }
        let (mc, m) = number(it.next(), "edge count m", end)?;
        if m > super::MAX_EDGES {
            return Err(ParseError::new(1, mc, format!("at most {} edges", super::MAX_EDGES)));
        }
        let mut edges = Vec::with_capacity(m);
        let mut seen = vec![0u128; n];
        for i in 0..m {
            let (ac, a) = number(it.next(), &format!("edge {} first vertex", i + 1), end)?;
            let (bc, b) = number(it.next(), &format!("edge {} second vertex", i + 1), end)?;
            for (c, v) in [(ac, a), (bc, b)] {
                if v >= n {
                    return Err(ParseError::new(1, c, format!("vertex {v} is not below n = {n}")));
                }
            }
            if a == b {
                return Err(ParseError::new(1, ac, format!("edge {a}-{b} is a loop")));
            }
            if seen[a] >> b & 1 != 0 {
                return Err(ParseError::new(1, ac, format!("edge {a}-{b} is given twice")));
            }
            seen[a] |= 1 << b;
            seen[b] |= 1 << a;
            edges.push((a as u8, b as u8));
        }
        if let Some((c, w)) = it.next() {
            return Err(ParseError::new(1, c, format!("`{w}` after the {m} edges")));
        }
        let graph = Graph::new(n, &edges).map_err(|e| ParseError::new(1, 1, e.0))?;
        Geography::new(Arc::new(graph), token as u8).map_err(|e| ParseError::new(1, tc, e.0))
    }

    fn format_position(&self) -> String {
        let edges = self.remaining_edges();
        let mut out = format!("{} {} {}", self.root.graph.vertex_count(), self.token, edges.len());
        for (a, b) in edges {
            let _ = write!(out, " {a} {b}");
        }
        out
    }

    fn parse_move(&self, text: &str) -> Result<u8, ParseError> {
        let t = text.trim();
        let v: u8 = t
            .parse()
            .map_err(|_| ParseError::new(1, 1, format!("a move is a vertex number, not `{t}`")))?;
        if self.neighbours(self.token).contains(u32::from(v)) {
            Ok(v)
        } else {
            Err(ParseError::new(1, 1, format!("no remaining edge from {} to {v}", self.token)))
        }
    }

    fn format_move(&self, mv: u8) -> String {
        mv.to_string()
    }
}
