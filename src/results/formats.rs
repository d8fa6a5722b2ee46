//! Result files: CSV (with a header) and JSON Lines, written and read with `csv`, `serde_json`
//! and the byte-level [`crate::lineio`] reader.
//!
//! Reading is tolerant: columns are found by their header names, so files written before a
//! column was added still read (the missing column takes its default); a repeated header line
//! (from concatenated files) is skipped; a bad line (not UTF-8, too long, control bytes, broken
//! quoting, a bad value) becomes a [`RowError`] with its line and column and the rest is read.

use std::fmt;

use crate::lineio::{Line, lines_of};

use super::row::{HEADER, Row};

/// A line of a result file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (1 when the whole line is at fault).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for RowError {}

/// The header line of a result CSV (no newline).
pub fn csv_header() -> String {
    HEADER.join(",")
}

/// Quotes a CSV field when it holds a comma, quote or line break (`csv`'s necessary quoting).
pub fn csv_field(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    // A whole one-field record: the closing quote of a field is only written when the field
    // ends, so writing a lone field and stopping would lose it (found by the results fuzz target).
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    // Writing to memory cannot fail.
    let _ = writer.write_record([text]);
    let mut bytes = writer.into_inner().unwrap_or_default();
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    }
    String::from_utf8(bytes).unwrap_or_default()
}

impl Row {
    /// The row as one CSV line (no newline), columns in [`HEADER`] order.
    pub fn to_csv(&self) -> String {
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        // A row is plain strings and numbers: serialising it to memory cannot fail.
        let _ = writer.serialize(self);
        let mut bytes = writer.into_inner().unwrap_or_default();
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
        }
        String::from_utf8(bytes).unwrap_or_default()
    }

    /// The row as one JSON object on one line (numbers as numbers, missing values as `null`).
    pub fn to_json(&self) -> String {
        // Plain strings and finite numbers: serialising cannot fail (a NaN would be `null`).
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Splits one CSV line into fields (RFC 4180 quoting, no line breaks inside fields), checking
/// the quoting strictly (`csv` itself is lenient) and giving each field's 1-based start column.
///
/// # Errors
/// An unterminated quote or text after a closing quote, with its 1-based column.
pub fn split_csv(line: &str) -> Result<Vec<(usize, String)>, (usize, String)> {
    // Strict quoting first: the columns of the fields and of any error.
    let mut starts = vec![1];
    let mut chars = line.chars().enumerate().peekable();
    let mut at_start = true;
    while let Some((i, c)) = chars.next() {
        if at_start && c == '"' {
            loop {
                match chars.next() {
                    None => return Err((i + 1, "unterminated quoted field".into())),
                    Some((_, '"')) if chars.peek().is_some_and(|&(_, c)| c == '"') => {
                        chars.next();
                    }
                    Some((_, '"')) => break,
                    Some(_) => {}
                }
            }
            match chars.peek() {
                None | Some((_, ',')) => {}
                Some(&(j, _)) => return Err((j + 1, "text after a closing quote".into())),
            }
            at_start = false;
            continue;
        }
        at_start = c == ',';
        if at_start {
            starts.push(i + 2);
        }
    }
    let mut reader =
        csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(line.as_bytes());
    let mut record = csv::StringRecord::new();
    match reader.read_record(&mut record) {
        Ok(_) => {}
        Err(e) => return Err((1, e.to_string())),
    }
    Ok(starts.into_iter().zip(record.iter().map(str::to_string)).collect())
}

/// Reads a result CSV (bytes of a whole file): the rows, and the lines that could not be read.
pub fn parse_csv(bytes: &[u8]) -> (Vec<Row>, Vec<RowError>) {
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    let mut header: Option<csv::StringRecord> = None;
    for line in lines_of(bytes) {
        let Some(text) = usable(&line, &mut errors) else { continue };
        let fields = match split_csv(text) {
            Ok(f) => f,
            Err((column, message)) => {
                errors.push(RowError { line: line.number, column, message });
                continue;
            }
        };
        if fields.first().is_some_and(|(_, f)| f == "game") {
            header = Some(fields.iter().map(|(_, f)| f.as_str()).collect());
            continue;
        }
        let Some(names) = &header else {
            errors.push(RowError {
                line: line.number,
                column: 1,
                message: "row before the header".into(),
            });
            continue;
        };
        if fields.len() < names.len() {
            let message = format!("{} fields, the header has {}", fields.len(), names.len());
            errors.push(RowError { line: line.number, column: 1, message });
            continue;
        }
        let record: csv::StringRecord = fields.iter().map(|(_, f)| f.as_str()).collect();
        match record.deserialize::<Row>(Some(names)) {
            Ok(row) => rows.push(row),
            Err(e) => {
                let (column, message) = match e.kind() {
                    csv::ErrorKind::Deserialize { err, .. } => {
                        // Errors raised by the row's own field readers name their column.
                        let named = || {
                            let message = err.kind().to_string();
                            let name =
                                message.strip_prefix("column `")?.split('`').next()?.to_string();
                            names.iter().position(|n| n == name)
                        };
                        let index = err.field().map(|f| f as usize).or_else(named);
                        let column = index.and_then(|i| fields.get(i)).map_or(1, |(c, _)| *c);
                        let name = index.and_then(|i| names.get(i)).unwrap_or("?");
                        match index {
                            Some(_) if err.kind().to_string().starts_with("column `") => {
                                (column, err.kind().to_string())
                            }
                            Some(_) => (column, format!("column `{name}`: {}", err.kind())),
                            None => (1, err.kind().to_string()),
                        }
                    }
                    _ => (1, e.to_string()),
                };
                errors.push(RowError { line: line.number, column, message });
            }
        }
    }
    (rows, errors)
}

/// Reads a JSON Lines result file (one row object per line), tolerant like [`parse_csv`].
pub fn parse_jsonl(bytes: &[u8]) -> (Vec<Row>, Vec<RowError>) {
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for line in lines_of(bytes) {
        let Some(text) = usable(&line, &mut errors) else { continue };
        match serde_json::from_str::<Row>(text) {
            Ok(row) => rows.push(row),
            Err(e) => errors.push(RowError {
                line: line.number,
                column: e.column().max(1),
                message: e.to_string(),
            }),
        }
    }
    (rows, errors)
}

/// The text of a line worth parsing: `None` for blank and `#` comment lines and for bad bytes
/// (recorded in `errors`).
fn usable<'a>(line: &'a Line, errors: &mut Vec<RowError>) -> Option<&'a str> {
    match line.text() {
        Ok(text) if text.trim().is_empty() || text.starts_with('#') => None,
        Ok(text) => Some(text),
        Err(e) => {
            errors.push(RowError { line: line.number, column: e.column(), message: e.to_string() });
            None
        }
    }
}

/// The complete lines of a file that may end in a torn line (a run killed mid-write): the
/// length to keep, up to and including the last line break.
pub fn complete_len(bytes: &[u8]) -> usize {
    bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
}
