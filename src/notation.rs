//! Text forms of positions and moves, kept apart from the rules in [`Game`].

use std::fmt;

use crate::game::Game;

/// Why a text could not be read, and where: 1-based line and column of the offending character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number within the text that was parsed.
    pub line: usize,
    /// 1-based column (in characters) within that line.
    pub column: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl ParseError {
    /// An error at `line`, `column` (both 1-based).
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> Self {
        ParseError { line, column, message: message.into() }
    }

    /// An error at a 0-based byte offset of `text`, converted to line and column.
    pub fn at_offset(text: &str, offset: usize, message: impl Into<String>) -> Self {
        let offset = offset.min(text.len());
        let before = &text[..text.floor_char_boundary(offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        ParseError::new(line, column, message)
    }

    /// The same error moved down by `lines` lines (for texts embedded in a larger file).
    #[must_use]
    pub fn shifted(mut self, lines: usize) -> Self {
        self.line += lines;
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Reading and writing positions and moves of a [`Game`].
pub trait Notation: Game + Sized {
    /// Reads a position (the game's one-line form where it has one).
    ///
    /// # Errors
    /// A [`ParseError`] naming the line and column of the first problem.
    fn parse_position(text: &str) -> Result<Self, ParseError>;
    /// Writes the position in the form [`Notation::parse_position`] reads.
    fn format_position(&self) -> String;
    /// Reads a move and checks that it is legal here.
    ///
    /// # Errors
    /// A [`ParseError`] when the text is not a move or the move is illegal in this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError>;
    /// Writes a move in the form [`Notation::parse_move`] reads.
    fn format_move(&self, mv: Self::Move) -> String;
}
