//! Byte-level line reading for every place where text arrives: protocol loops on stdin or a
//! socket, and position, dataset and result files.
//!
//! [`LineReader`] reads raw bytes, never `String`s, so hostile input costs one line and never
//! the session:
//!
//! * **Terminators:** `\n`, `\r\n` and a bare `\r` each end a line. A bare `\r` ends the line
//!   at once (the reader never waits for the next byte to see whether a `\n` follows, so an
//!   interactive peer that ends its commands with `\r` is answered); a `\n` right after it is
//!   then skipped.
//! * **Length cap:** at most [`MAX_LINE`] bytes of a line are kept (or the cap given to
//!   [`LineReader::with_limit`]). The rest of a longer line is read and dropped without being
//!   buffered, and the line comes back as [`LineError::TooLong`].
//! * **Bad bytes:** a line that is not valid UTF-8 comes back as [`LineError::InvalidUtf8`], and
//!   one holding a NUL or another control byte (anything below `0x20` except tab, and `0x7f`) as
//!   [`LineError::Control`], each with the 1-based column (in characters) of the first bad
//!   byte. The caller answers such a line as its protocol answers any bad line and reads on.
//! * **End of input:** a last line without a terminator is returned like any other.
//!
//! ```
//! use bitsolve::lineio::{LineError, LineReader};
//! let input: &[u8] = b"isready\r\n\xff\xfe\nuai\rgo\x00\nlast";
//! let lines: Vec<_> = LineReader::new(input).map(|l| l.unwrap()).collect();
//! assert_eq!(lines[0].text(), Ok("isready"));
//! assert_eq!(lines[1].text(), Err(&LineError::InvalidUtf8 { column: 1, byte: 0xff }));
//! assert_eq!(lines[2].text(), Ok("uai"));
//! assert_eq!(lines[3].text(), Err(&LineError::Control { column: 3, byte: 0 }));
//! assert_eq!((lines[4].number, lines[4].text()), (5, Ok("last")));
//! ```

use std::fmt;
use std::io::{self, BufRead, ErrorKind};

/// Default cap on the bytes of one line: 64 KiB.
pub const MAX_LINE: usize = 64 * 1024;

/// Why a line cannot be used as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The bytes are not UTF-8; `column` is the character column of the first bad byte.
    InvalidUtf8 {
        /// 1-based column (in characters) of the first byte that is not UTF-8.
        column: usize,
        /// That byte.
        byte: u8,
    },
    /// A NUL or another control byte (below `0x20` except tab, or `0x7f`).
    Control {
        /// 1-based column (in characters) of the byte.
        column: usize,
        /// The byte.
        byte: u8,
    },
    /// The line has more bytes than the cap; they were read and dropped.
    TooLong {
        /// The line's length in bytes, terminator excluded.
        len: usize,
        /// The cap in force.
        limit: usize,
    },
}

impl LineError {
    /// The 1-based column the error points at (the line's first column past the cap for
    /// [`LineError::TooLong`]).
    pub fn column(&self) -> usize {
        match *self {
            LineError::InvalidUtf8 { column, .. } | LineError::Control { column, .. } => column,
            LineError::TooLong { limit, .. } => limit + 1,
        }
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::InvalidUtf8 { byte, .. } => write!(f, "invalid UTF-8 (byte 0x{byte:02x})"),
            LineError::Control { byte, .. } => write!(f, "control byte 0x{byte:02x}"),
            LineError::TooLong { len, limit } => {
                write!(f, "line of {len} bytes is longer than the limit of {limit}")
            }
        }
    }
}

impl std::error::Error for LineError {}

/// One line as read: its 1-based number and its text, or why it has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number (every terminator counts, bad lines included).
    pub number: usize,
    /// The text without its terminator, or the reason it is unusable.
    pub content: Result<String, LineError>,
}

impl Line {
    /// The text, or the reason there is none.
    ///
    /// # Errors
    /// The line's [`LineError`] when it has no usable text.
    pub fn text(&self) -> Result<&str, &LineError> {
        self.content.as_deref()
    }

    /// `line L, column C: what` for a bad line, `None` for a good one.
    pub fn describe_error(&self) -> Option<String> {
        self.content
            .as_ref()
            .err()
            .map(|e| format!("line {}, column {}: {e}", self.number, e.column()))
    }
}

/// Reads lines of bytes from any [`BufRead`]: see the [module docs](self).
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    limit: usize,
    number: usize,
    /// The last line ended with a bare `\r`: a `\n` that comes next belongs to it.
    skip_lf: bool,
    /// Report a line as too long as soon as it passes the cap (see [`LineReader::eager`]).
    eager: bool,
    /// The rest of a line already reported as too long is still to be dropped.
    discarding: bool,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader with the default cap of [`MAX_LINE`] bytes.
    pub fn new(inner: R) -> Self {
        Self::with_limit(inner, MAX_LINE)
    }

    /// A reader that keeps at most `limit` bytes of a line.
    pub fn with_limit(inner: R, limit: usize) -> Self {
        LineReader {
            inner,
            limit,
            number: 0,
            skip_lf: false,
            eager: false,
            discarding: false,
            buf: Vec::new(),
        }
    }

    /// Reports a line as [`LineError::TooLong`] as soon as its bytes pass the cap, without
    /// waiting for its terminator (a peer that streams bytes without a newline is answered at
    /// once); the rest of that line, up to its terminator, is then dropped without being
    /// counted as a line. `len` in the error is then the bytes seen so far.
    #[must_use]
    pub fn eager(mut self) -> Self {
        self.eager = true;
        self
    }

    /// Number of lines returned so far.
    pub fn lines_read(&self) -> usize {
        self.number
    }

    /// The underlying reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The next line, `Ok(None)` at the end of input. Only I/O errors of the underlying reader
    /// are errors here; bad bytes are reported inside the [`Line`].
    ///
    /// # Errors
    /// An I/O error of the underlying reader (interrupted reads are retried).
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        self.buf.clear();
        let mut len = 0usize;
        let mut seen_any = false;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                if !seen_any {
                    return Ok(None);
                }
                break;
            }
            if self.skip_lf {
                self.skip_lf = false;
                if available[0] == b'\n' {
                    self.inner.consume(1);
                    continue;
                }
            }
            let end = available.iter().position(|&b| b == b'\n' || b == b'\r');
            if self.discarding {
                // The rest of a line already reported as too long.
                if let Some(at) = end {
                    self.skip_lf = available[at] == b'\r';
                    self.discarding = false;
                    self.inner.consume(at + 1);
                } else {
                    let n = available.len();
                    self.inner.consume(n);
                }
                continue;
            }
            seen_any = true;
            let chunk = &available[..end.unwrap_or(available.len())];
            let room = self.limit.saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
            len += chunk.len();
            if let Some(at) = end {
                let terminator = available[at];
                self.inner.consume(at + 1);
                self.skip_lf = terminator == b'\r';
                break;
            }
            let n = chunk.len();
            self.inner.consume(n);
            if self.eager && len > self.limit {
                self.discarding = true;
                break;
            }
        }
        self.number += 1;
        let content = if len > self.limit {
            Err(LineError::TooLong { len, limit: self.limit })
        } else {
            check(&self.buf).map(str::to_string)
        };
        Ok(Some(Line { number: self.number, content }))
    }
}

/// The text of `bytes` if it is UTF-8 without control bytes (tab allowed).
///
/// # Errors
/// The first problem, with its 1-based character column.
pub fn check(bytes: &[u8]) -> Result<&str, LineError> {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let good = e.valid_up_to();
            // The prefix is valid UTF-8 by construction.
            let prefix = std::str::from_utf8(&bytes[..good]).unwrap_or("");
            if let Some(err) = control_in(prefix) {
                return Err(err);
            }
            return Err(LineError::InvalidUtf8 {
                column: prefix.chars().count() + 1,
                byte: bytes[good],
            });
        }
    };
    match control_in(text) {
        Some(err) => Err(err),
        None => Ok(text),
    }
}

fn control_in(text: &str) -> Option<LineError> {
    text.chars().enumerate().find_map(|(i, c)| {
        (c != '\t' && (c < ' ' || c == '\u{7f}'))
            .then(|| LineError::Control { column: i + 1, byte: c as u8 })
    })
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = io::Result<Line>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_line().transpose()
    }
}

/// Every line of an in-memory text (a file read with [`std::fs::read`]), bad lines included.
pub fn lines_of(bytes: &[u8]) -> Vec<Line> {
    // Reading from a slice cannot fail.
    LineReader::new(bytes).map_while(Result::ok).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(input: &[u8], limit: usize) -> Vec<Result<String, LineError>> {
        LineReader::with_limit(input, limit).map(|l| l.unwrap().content).collect()
    }

    #[test]
    fn terminators() {
        let got = texts(b"a\nb\r\nc\rd\r\r\ne", 100);
        let want: Vec<Result<String, LineError>> =
            ["a", "b", "c", "d", "", "e"].iter().map(|s| Ok((*s).to_string())).collect();
        assert_eq!(got, want);
        assert!(texts(b"", 10).is_empty());
        assert_eq!(texts(b"\n", 10), vec![Ok(String::new())]);
    }

    #[test]
    fn long_lines_are_capped_and_the_next_line_survives() {
        let mut input = vec![b'x'; 1 << 20];
        input.extend_from_slice(b"\nok\n");
        let got = texts(&input, MAX_LINE);
        assert_eq!(got[0], Err(LineError::TooLong { len: 1 << 20, limit: MAX_LINE }));
        assert_eq!(got[1], Ok("ok".to_string()));
        // Exactly at the cap is fine.
        let got = texts(b"abcd\nabcde\n", 4);
        assert_eq!(got[0], Ok("abcd".into()));
        assert_eq!(got[1], Err(LineError::TooLong { len: 5, limit: 4 }));
    }

    #[test]
    fn eager_reports_a_long_line_before_its_end() {
        let mut input = vec![b'y'; 50];
        input.extend_from_slice(b"\r\nok\n");
        let mut reader = LineReader::with_limit(&input[..], 8).eager();
        let first = reader.next_line().unwrap().unwrap();
        assert!(matches!(first.content, Err(LineError::TooLong { limit: 8, .. })));
        let second = reader.next_line().unwrap().unwrap();
        assert_eq!((second.number, second.text()), (2, Ok("ok")));
        assert!(reader.next_line().unwrap().is_none());
        // A peer that never sends a newline is still answered, from a slow stream too.
        let endless = [b'z'; 40];
        let mut reader =
            LineReader::with_limit(io::BufReader::with_capacity(3, Trickle(&endless)), 8).eager();
        assert!(reader.next_line().unwrap().unwrap().content.is_err());
        assert!(reader.next_line().unwrap().is_none());
    }

    #[test]
    fn bad_bytes_have_columns() {
        assert_eq!(check(b"ab\xffc"), Err(LineError::InvalidUtf8 { column: 3, byte: 0xff }));
        assert_eq!(check("żb\u{0}".as_bytes()), Err(LineError::Control { column: 3, byte: 0 }));
        assert_eq!(check(b"a\x01\xff"), Err(LineError::Control { column: 2, byte: 1 }));
        assert_eq!(check(b"a\tb\x7f"), Err(LineError::Control { column: 4, byte: 0x7f }));
        assert_eq!(check("zażółć\tx".as_bytes()), Ok("zażółć\tx"));
    }

    /// A reader that hands out one byte per `fill_buf`, as a slow socket might.
    struct Trickle<'a>(&'a [u8]);
    impl io::Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(1).min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn split_reads_give_the_same_lines() {
        let input = b"uci\r\nisready\r\xff\n\nposition startpos\rgo";
        let whole = texts(input, 8);
        let trickled: Vec<_> =
            LineReader::with_limit(io::BufReader::with_capacity(1, Trickle(input)), 8)
                .map(|l| l.unwrap().content)
                .collect();
        assert_eq!(whole, trickled);
        assert_eq!(whole.len(), 6);
    }

    #[test]
    fn numbers_and_descriptions() {
        let lines = lines_of(b"ok\nb\xffd\n");
        assert_eq!(lines[1].number, 2);
        assert_eq!(lines[0].describe_error(), None);
        assert_eq!(
            lines[1].describe_error().unwrap(),
            "line 2, column 2: invalid UTF-8 (byte 0xff)"
        );
    }
}
