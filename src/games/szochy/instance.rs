//! One szochy instance as the assignment gives it (`N, M, holes, pieces`), read with the
//! bad-data rules of the spec, and its text forms (JSON test cases, the one-line notation).

#![allow(clippy::many_single_char_names)] // graph and board notation: g, m, n, u, v, w

use std::sync::Arc;

use super::board::{Board, MAX_PIECES, Piece, Placement};
use crate::notation::ParseError;

/// A board with its start placement, after the bad-data readings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The board and its move tables.
    pub board: Arc<Board>,
    /// The start position.
    pub start: Placement,
    /// One line per piece of bad data that was read leniently (for stderr).
    pub warnings: Vec<String>,
}

impl Instance {
    /// Builds an instance from 1-based coordinates.
    ///
    /// Bad data (as in official tests 21, 30 and 35): a hole off the board is ignored; a piece
    /// off the board occupies nothing and never moves (it is left out); a piece on a hole may
    /// leave it and the square stays a hole. Each such reading adds a warning.
    ///
    /// # Errors
    /// `n` or `m` below 1, a board of more than 128 squares, an unknown piece letter, two pieces
    /// on one square, more than 18 movable pieces.
    pub fn new(
        n: i64,
        m: i64,
        holes: &[(i64, i64)],
        pieces: &[(char, i64, i64)],
    ) -> Result<Instance, String> {
        if n < 1 || m < 1 {
            return Err(format!("board {n} x {m}: both sides must be at least 1"));
        }
        if n.saturating_mul(m) > 128 {
            return Err(format!("board {n} x {m} has more than 128 squares"));
        }
        let mut warnings = Vec::new();
        let probe = Board::new(n as u32, m as u32, 0)?;
        let mut hole_set = 0u128;
        for &(i, j) in holes {
            match probe.square(i, j) {
                Some(s) => hole_set |= 1 << s,
                None => warnings.push(format!("hole ({i},{j}) is off the {n}x{m} board: ignored")),
            }
        }
        let board = Board::new(n as u32, m as u32, hole_set)?;
        let mut start = [0u128; 5];
        let mut occupied = 0u128;
        let mut movable = 0;
        for &(c, i, j) in pieces {
            let piece = Piece::from_letter(c)
                .ok_or_else(|| format!("unknown piece `{c}` (expected one of k q b n r)"))?;
            let Some(s) = board.square(i, j) else {
                warnings.push(format!(
                    "piece {c} at ({i},{j}) is off the {n}x{m} board: it never moves"
                ));
                continue;
            };
            if occupied >> s & 1 == 1 {
                return Err(format!("two pieces on square ({i},{j})"));
            }
            if hole_set >> s & 1 == 1 {
                warnings.push(format!(
                    "piece {c} at ({i},{j}) stands on a hole: it may leave, the hole stays"
                ));
            }
            occupied |= 1 << s;
            start[piece as usize] |= 1 << s;
            movable += 1;
        }
        if movable > MAX_PIECES {
            return Err(format!(
                "{movable} pieces on the board: at most {MAX_PIECES} are supported"
            ));
        }
        Ok(Instance { board: Arc::new(board), start, warnings })
    }

    /// The instance in the one-line notation `N M|holes|pieces` (holes as `i,j` separated by
    /// spaces, pieces as `k1,2`).
    pub fn to_line(&self) -> String {
        let b = &self.board;
        let holes: Vec<String> = (0..b.squares() as u8)
            .filter(|&s| b.holes() >> s & 1 == 1)
            .map(|s| b.square_name(s))
            .collect();
        format!("{} {}|{}|{}", b.columns(), b.rows(), holes.join(" "), b.format_pieces(&self.start))
    }
}

/// Reads an integer word at byte `offset` of `text` (for errors).
fn int_at(text: &str, word: &str, offset: usize, what: &str) -> Result<i64, ParseError> {
    word.parse::<i64>().map_err(|_| {
        ParseError::at_offset(text, offset, format!("{what}: `{word}` is not an integer"))
    })
}

/// Byte offset of `part` inside `whole` (both from the same string).
fn offset_in(whole: &str, part: &str) -> usize {
    part.as_ptr() as usize - whole.as_ptr() as usize
}

/// Reads `i,j` at `offset`.
fn coords(text: &str, word: &str, what: &str) -> Result<(i64, i64), ParseError> {
    let at = offset_in(text, word);
    let (a, b) = word.split_once(',').ok_or_else(|| {
        ParseError::at_offset(text, at, format!("{what}: expected `i,j`, found `{word}`"))
    })?;
    Ok((int_at(text, a, at, what)?, int_at(text, b, at + a.len() + 1, what)?))
}

/// Reads a piece list `k1,2 q3,3` (sub-slice of `text`).
pub(crate) fn parse_pieces(text: &str, field: &str) -> Result<Vec<(char, i64, i64)>, ParseError> {
    let mut out = Vec::new();
    for word in field.split_whitespace() {
        let at = offset_in(text, word);
        let c = word.chars().next().unwrap_or(' ');
        if Piece::from_letter(c).is_none() {
            return Err(ParseError::at_offset(
                text,
                at,
                format!("unknown piece `{c}` (expected one of k q b n r)"),
            ));
        }
        let (i, j) = coords(text, &word[c.len_utf8()..], "piece")?;
        out.push((c, i, j));
    }
    Ok(out)
}

/// Reads `N M|holes|pieces` and returns the raw fields plus the rest after a third `|`, if any.
///
/// # Errors
/// A [`ParseError`] with the column of the first problem.
pub fn parse_line(text: &str) -> Result<(Instance, Option<&str>), ParseError> {
    let mut fields = text.splitn(4, '|');
    let size = fields.next().unwrap_or("");
    let (Some(holes), Some(pieces)) = (fields.next(), fields.next()) else {
        return Err(ParseError::new(1, 1, "expected `N M|holes|pieces`, e.g. `3 3|2,2|k1,1 n3,3`"));
    };
    let rest = fields.next();
    let dims: Vec<&str> = size.split_whitespace().collect();
    if dims.len() != 2 {
        return Err(ParseError::new(1, 1, "expected the board size `N M` before the first `|`"));
    }
    let n = int_at(text, dims[0], offset_in(text, dims[0]), "board size")?;
    let m = int_at(text, dims[1], offset_in(text, dims[1]), "board size")?;
    let holes =
        holes.split_whitespace().map(|w| coords(text, w, "hole")).collect::<Result<Vec<_>, _>>()?;
    let pieces = parse_pieces(text, pieces)?;
    let inst = Instance::new(n, m, &holes, &pieces)
        .map_err(|e| ParseError::at_offset(text, offset_in(text, size), e))?;
    Ok((inst, rest))
}

/// One official test case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestCase {
    /// The case number.
    pub test: i64,
    /// Columns.
    pub n: i64,
    /// Rows.
    pub m: i64,
    /// Hole coordinates as given.
    pub holes: Vec<(i64, i64)>,
    /// Pieces as given.
    pub pieces: Vec<(char, i64, i64)>,
    /// The known answer (first player wins), if present.
    pub expected: Option<bool>,
}

/// Reads a JSON array of test cases `{"test", "N", "M", "holes": [[i,j]..], "pieces":
/// [[type,i,j]..], "expected"}` (`test` defaults to the index, `expected` is optional).
///
/// # Errors
/// Malformed JSON (with line and column) or a field of the wrong shape (naming the case).
pub fn parse_tests(text: &str) -> Result<Vec<TestCase>, String> {
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| format!("line {}, column {}: {e}", e.line(), e.column()))?;
    let cases = value.as_array().ok_or("expected a JSON array of test cases")?;
    let int = |v: &serde_json::Value, what: &str, k: usize| {
        v.as_i64().ok_or_else(|| format!("case {k}: {what} must be an integer, found {v}"))
    };
    let mut out = Vec::new();
    for (k, case) in cases.iter().enumerate() {
        let obj = case.as_object().ok_or_else(|| format!("case {k}: expected an object"))?;
        let get = |name: &str| obj.get(name).ok_or_else(|| format!("case {k}: missing `{name}`"));
        let test = match obj.get("test") {
            Some(v) => int(v, "test", k)?,
            None => k as i64,
        };
        let n = int(get("N")?, "N", k)?;
        let m = int(get("M")?, "M", k)?;
        let mut holes = Vec::new();
        for h in
            get("holes")?.as_array().ok_or_else(|| format!("case {k}: holes must be a list"))?
        {
            match h.as_array().map(Vec::as_slice) {
                Some([i, j]) => {
                    holes.push((int(i, "hole coordinate", k)?, int(j, "hole coordinate", k)?));
                }
                _ => return Err(format!("case {k}: a hole must be [i, j], found {h}")),
            }
        }
        let mut pieces = Vec::new();
        for p in
            get("pieces")?.as_array().ok_or_else(|| format!("case {k}: pieces must be a list"))?
        {
            match p.as_array().map(Vec::as_slice) {
                Some([t, i, j]) => {
                    let letter = t
                        .as_str()
                        .filter(|s| s.chars().count() == 1)
                        .and_then(|s| s.chars().next());
                    let letter = letter.ok_or_else(|| {
                        format!("case {k}: piece type must be a one-letter string, found {t}")
                    })?;
                    pieces.push((
                        letter,
                        int(i, "piece coordinate", k)?,
                        int(j, "piece coordinate", k)?,
                    ));
                }
                _ => return Err(format!("case {k}: a piece must be [type, i, j], found {p}")),
            }
        }
        let expected = match obj.get("expected") {
            None | Some(serde_json::Value::Null) => None,
            Some(v) => Some(
                v.as_bool().ok_or_else(|| format!("case {k}: expected must be true or false"))?,
            ),
        };
        out.push(TestCase { test, n, m, holes, pieces, expected });
    }
    Ok(out)
}

impl TestCase {
    /// The instance of this case.
    ///
    /// # Errors
    /// As [`Instance::new`].
    pub fn instance(&self) -> Result<Instance, String> {
        Instance::new(self.n, self.m, &self.holes, &self.pieces)
    }
}
