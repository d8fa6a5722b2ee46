//! Position files: one position per line, or TSV rows `id<TAB>position<TAB>expected`.
//!
//! Lines starting with `#` are comments (sources are cited there), blank lines are skipped, and a
//! header row starting with `id<TAB>` is skipped. A bad line becomes a [`DatasetError`] with its
//! line number and column and the rest of the file is still read; files are read as bytes with
//! [`crate::lineio`], so a line that is not UTF-8, too long, or holds NUL or control bytes is one
//! such error.
//!
//! ```
//! use bitsolve::dataset::read_dataset;
//! let (entries, errors) = read_dataset("# demo\nid\tposition\texpected\na\t0|1;;\twin\nb\t0|;\tbogus\n");
//! assert_eq!(entries.len(), 1);
//! assert_eq!(entries[0].id, "a");
//! assert_eq!(errors[0].line, 4);
//! ```

use std::fmt;

use crate::game::Outcome;
use crate::lineio::lines_of;

/// One position to solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Identifier (the first column, or `L<line>` for plain files).
    pub id: String,
    /// The position text, in the game's notation.
    pub position: String,
    /// The known result for the side to move, if the file gives one.
    pub expected: Option<Outcome>,
    /// 1-based line number in the file.
    pub line: usize,
    /// 1-based column where the position text starts.
    pub column: usize,
}

/// A line of a position file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for DatasetError {}

/// Reads `win`, `draw` or `loss` (also `w`, `d`, `l`, any case).
pub fn parse_outcome(text: &str) -> Option<Outcome> {
    match text.trim().to_ascii_lowercase().as_str() {
        "win" | "w" => Some(Outcome::Win),
        "draw" | "d" => Some(Outcome::Draw),
        "loss" | "l" => Some(Outcome::Loss),
        _ => None,
    }
}

/// Reads every entry of a position file given as text; see [`read_dataset_bytes`].
pub fn read_dataset(text: &str) -> (Vec<Entry>, Vec<DatasetError>) {
    read_dataset_bytes(text.as_bytes())
}

/// Reads every entry of a position file (its bytes, as read from disk); bad lines (bad bytes
/// included) are returned as errors, not fatal.
pub fn read_dataset_bytes(bytes: &[u8]) -> (Vec<Entry>, Vec<DatasetError>) {
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for raw in lines_of(bytes) {
        let line = raw.number;
        let content = match raw.text() {
            Ok(text) => text,
            Err(e) => {
                errors.push(DatasetError { line, column: e.column(), message: e.to_string() });
                continue;
            }
        };
        if content.trim().is_empty() || content.trim_start().starts_with('#') {
            continue;
        }
        if content.starts_with("id\t") {
            continue;
        }
        if !content.contains('\t') {
            let column = content.len() - content.trim_start().len() + 1;
            entries.push(Entry {
                id: format!("L{line}"),
                position: content.trim().to_string(),
                expected: None,
                line,
                column,
            });
            continue;
        }
        let fields: Vec<&str> = content.split('\t').collect();
        let column = fields[0].chars().count() + 2;
        let expected = match fields.get(2).map(|s| s.trim()) {
            None | Some("" | "-" | "?") => None,
            Some(word) => {
                if let Some(o) = parse_outcome(word) {
                    Some(o)
                } else {
                    let col = column + fields[1].chars().count() + 1;
                    errors.push(DatasetError {
                        line,
                        column: col,
                        message: format!("expected `win`, `draw`, `loss` or `-`, found `{word}`"),
                    });
                    continue;
                }
            }
        };
        if fields[0].trim().is_empty() || fields[1].trim().is_empty() {
            errors.push(DatasetError { line, column: 1, message: "empty id or position".into() });
            continue;
        }
        entries.push(Entry {
            id: fields[0].trim().to_string(),
            position: fields[1].to_string(),
            expected,
            line,
            column,
        });
    }
    (entries, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_tsv_lines_are_read_and_bad_ones_reported() {
        let text =
            "# c\n\nx5o/7/7/7/7/7/o5x x 0 1\nid\tposition\texpected\nk\tP\tloss\r\nj\t\tdraw\n";
        let (entries, errors) = read_dataset(text);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].id, "L3");
        assert_eq!(entries[1].expected, Some(Outcome::Loss));
        assert_eq!(entries[1].column, 3);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].line, 6);
    }

    #[test]
    fn bad_bytes_are_located_and_skipped() {
        let mut bytes = b"a\tx5o/7/7/7/7/7/o5x x 0 1\twin\nb\tx\xff\twin\nc\tP\x00\t-\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', crate::lineio::MAX_LINE + 1));
        bytes.extend_from_slice(b"\nd\tQ\tloss\n");
        let (entries, errors) = read_dataset_bytes(&bytes);
        let ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["a", "d"]);
        let found: Vec<(usize, usize)> = errors.iter().map(|e| (e.line, e.column)).collect();
        assert_eq!(found, [(2, 4), (3, 4), (4, crate::lineio::MAX_LINE + 1)]);
        assert!(errors[0].to_string().contains("invalid UTF-8"), "{}", errors[0]);
        assert!(errors[1].to_string().contains("control byte"), "{}", errors[1]);
        assert!(errors[2].to_string().contains("longer than"), "{}", errors[2]);
    }
}
