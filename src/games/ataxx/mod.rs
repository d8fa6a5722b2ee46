//! Placeholder: replaced by the real Ataxx.

use crate::game::{Game, Outcome, Perft};
use crate::notation::{Notation, ParseError};

/// Placeholder.
#[derive(Clone, Debug)]
pub struct Ataxx<const POLISH: bool>;
/// Placeholder.
pub type AtaxxStandard = Ataxx<false>;
/// Placeholder.
pub type AtaxxPolish = Ataxx<true>;
/// Placeholder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AtaxxMove(u16);

impl<const P: bool> Game for Ataxx<P> {
    type Move = AtaxxMove;
    type Moves = Vec<AtaxxMove>;
    fn generate_moves(&self, _moves: &mut Self::Moves) {}
    fn play(&mut self, _mv: AtaxxMove) {}
    fn outcome(&self) -> Option<Outcome> {
        Some(Outcome::Draw)
    }
    fn hash(&self) -> u64 {
        0
    }
}
impl<const P: bool> Perft for Ataxx<P> {}
impl<const P: bool> Notation for Ataxx<P> {
    fn parse_position(_text: &str) -> Result<Self, ParseError> {
        Err(ParseError::new(1, 1, "todo"))
    }
    fn format_position(&self) -> String {
        String::new()
    }
    fn parse_move(&self, _text: &str) -> Result<AtaxxMove, ParseError> {
        Err(ParseError::new(1, 1, "todo"))
    }
    fn format_move(&self, _mv: AtaxxMove) -> String {
        String::new()
    }
}
