//! A whole Ataxx game as a referee sees it: the moves played, the positions seen (for threefold
//! repetition), adjudication under either rule set, and the PGN text of the game.
//!
//! [`Game::outcome`] leaves out every rule that needs more than the position (the clocks and
//! repetition); [`GameRecord::adjudicate`] adds them:
//!
//! * `polish` (the assignment's rules): board full (more stones wins), one colour left (it wins),
//!   the side to move stuck with empty squares left (it loses), the same position with the same
//!   side to move for the third time (draw), 50 plies in a row that were all jumps (draw).
//! * `standard` (community rules, as libataxx and cuteataxx): a side without stones loses, no
//!   empty square within reach of either side ends the game by stone count, and the halfmove
//!   clock reaching 100 (100 plies without a clone) is a draw. A side without a move but with
//!   the game not over passes (`0000`). There is no repetition rule.
//!
//! ```
//! use bitsolve::games::ataxx::record::{GameRecord, GameResult, Termination};
//! use bitsolve::{AtaxxPolish, Notation};
//! let start = AtaxxPolish::parse_position("x1o/3/o1x x 0 1").unwrap();
//! let mut game = GameRecord::new(start);
//! game.play_text("b2").unwrap(); // x clones to the centre and takes every o stone
//! assert_eq!(game.adjudicate(), Some((GameResult::FirstWins, Termination::WipeOut)));
//! ```

use std::fmt::{self, Write as _};

use super::{Ataxx, AtaxxMove, POLISH_CLOCK_LIMIT, STANDARD_CLOCK_LIMIT};
use crate::game::{Game, Player};
use crate::notation::{Notation, ParseError};

/// The result of a finished game, by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The first player (`x`, black) won.
    FirstWins,
    /// The second player (`o`, white) won.
    SecondWins,
    /// Nobody won.
    Draw,
}

impl GameResult {
    /// A win for `player`.
    pub const fn win_for(player: Player) -> GameResult {
        match player {
            Player::First => GameResult::FirstWins,
            Player::Second => GameResult::SecondWins,
        }
    }

    /// The PGN result: `1-0`, `0-1` or `1/2-1/2` (first player first).
    pub const fn pgn(self) -> &'static str {
        match self {
            GameResult::FirstWins => "1-0",
            GameResult::SecondWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Points scored by `player`: 1, 0.5 or 0.
    pub fn points(self, player: Player) -> f64 {
        match (self, player) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::FirstWins, Player::First) | (GameResult::SecondWins, Player::Second) => {
                1.0
            }
            _ => 0.0,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// No empty square left; more stones wins.
    BoardFull,
    /// Only one colour is left on the board; it wins.
    WipeOut,
    /// Polish rules: the side to move has no move but empty squares remain; it loses.
    Stuck,
    /// Standard rules: no empty square is within reach of either side; more stones wins.
    NoMoves,
    /// Polish rules: the same position with the same side to move for the third time.
    Repetition,
    /// Polish rules: the last 50 plies were all jumps.
    JumpRule,
    /// Standard rules: 100 plies without a clone.
    HalfmoveClock,
    /// The player named lost by playing an illegal or unreadable move (the text it sent).
    IllegalMove(Player, String),
    /// The player named lost on time.
    TimeForfeit(Player),
    /// The player named stopped answering (crashed, closed its output, or failed the handshake).
    Disconnected(Player, String),
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let colour = |p: &Player| if *p == Player::First { "x" } else { "o" };
        match self {
            Termination::BoardFull => f.write_str("board full"),
            Termination::WipeOut => f.write_str("one colour left"),
            Termination::Stuck => f.write_str("side to move stuck (polish: loses)"),
            Termination::NoMoves => f.write_str("no moves for either side"),
            Termination::Repetition => f.write_str("threefold repetition"),
            Termination::JumpRule => f.write_str("50 jumps in a row"),
            Termination::HalfmoveClock => f.write_str("100 plies without a clone"),
            Termination::IllegalMove(p, text) => {
                write!(f, "illegal move by {}: {text:?}", colour(p))
            }
            Termination::TimeForfeit(p) => write!(f, "{} lost on time", colour(p)),
            Termination::Disconnected(p, why) => write!(f, "{} disconnected: {why}", colour(p)),
        }
    }
}

impl Termination {
    /// Whether this is a forfeit (illegal move, time, disconnection) rather than an end by the
    /// rules of the game.
    pub fn is_forfeit(&self) -> bool {
        matches!(
            self,
            Termination::IllegalMove(..)
                | Termination::TimeForfeit(_)
                | Termination::Disconnected(..)
        )
    }
}

/// An illegal or unreadable move offered to [`GameRecord::play`] or [`GameRecord::play_text`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move as text.
    pub text: String,
    /// Why it was refused.
    pub reason: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move `{}`: {}", self.text, self.reason)
    }
}

impl std::error::Error for IllegalMove {}

impl From<(&str, ParseError)> for IllegalMove {
    fn from((text, err): (&str, ParseError)) -> Self {
        IllegalMove { text: text.to_owned(), reason: err.message }
    }
}

/// A game from a start position: moves, positions seen, and the rules that need the history.
#[derive(Clone, Debug)]
pub struct GameRecord<const POLISH: bool> {
    start: Ataxx<POLISH>,
    position: Ataxx<POLISH>,
    moves: Vec<AtaxxMove>,
    /// Hashes of the positions before the current one, oldest first.
    history: Vec<u64>,
}

impl<const POLISH: bool> GameRecord<POLISH> {
    /// A game that starts at `start` (nothing played yet).
    pub fn new(start: Ataxx<POLISH>) -> Self {
        GameRecord { position: start.clone(), start, moves: Vec::new(), history: Vec::new() }
    }

    /// A game from `start` with the UAI- or arbiter-form `moves` played, each checked.
    ///
    /// # Errors
    /// The first move that is unreadable or illegal, or that comes after the end of the game.
    pub fn with_moves<'a>(
        start: Ataxx<POLISH>,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<Self, IllegalMove> {
        let mut game = GameRecord::new(start);
        for text in moves {
            game.play_text(text)?;
        }
        Ok(game)
    }

    /// The start position.
    pub fn start(&self) -> &Ataxx<POLISH> {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Ataxx<POLISH> {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[AtaxxMove] {
        &self.moves
    }

    /// Hashes of the earlier positions of the game, oldest first, without the current one (what
    /// [`Engine::search`](crate::search::engine::Engine::search) takes as history).
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// How many times the current position has occurred in this game, counting itself.
    pub fn occurrences(&self) -> usize {
        let h = self.position.hash();
        1 + self.history.iter().filter(|&&x| x == h).count()
    }

    /// Plays `mv` after checking that it is legal and that the game is not over.
    ///
    /// # Errors
    /// When `mv` is illegal here or the game has already ended; the record is unchanged.
    pub fn play(&mut self, mv: AtaxxMove) -> Result<(), IllegalMove> {
        if let Some((result, why)) = self.adjudicate() {
            return Err(IllegalMove {
                text: mv.to_string(),
                reason: format!("the game is over ({}, {why})", result.pgn()),
            });
        }
        if !self.position.is_legal(mv) {
            return Err(IllegalMove { text: mv.to_string(), reason: "not legal here".into() });
        }
        self.history.push(self.position.hash());
        self.position.play(mv);
        self.moves.push(mv);
        Ok(())
    }

    /// Reads a move in UAI form (`f1`, `g1e3`, `0000`) or in the arbiter's `<from><to>` form
    /// (`a7a6`), checks it and plays it; returns the move.
    ///
    /// # Errors
    /// When the text is not a legal move here; the record is unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<AtaxxMove, IllegalMove> {
        let mv = self.position.parse_move(text).map_err(|e| IllegalMove::from((text, e)))?;
        self.play(mv)?;
        Ok(mv)
    }

    /// The result and the reason if the game is over under its rule set, `None` while it goes
    /// on. Forfeits (time, illegal moves) are the referee's business and never returned here.
    pub fn adjudicate(&self) -> Option<(GameResult, Termination)> {
        adjudicate_position(&self.position, self.occurrences())
    }

    /// The game in PGN: the tags given (`Black` is the first player `x`, `White` the second),
    /// a `FEN` tag when the start is not the standard one, the moves in UAI form and the
    /// result.
    pub fn pgn(&self, tags: &[(&str, &str)], result: Option<(GameResult, &Termination)>) -> String {
        let mut out = String::new();
        for (name, value) in tags {
            let _ = writeln!(out, "[{name} \"{}\"]", escape_pgn(value));
        }
        let start_fen = self.start.format_position();
        if start_fen != Ataxx::<POLISH>::startpos().format_position() {
            let _ = writeln!(out, "[SetUp \"1\"]\n[FEN \"{start_fen}\"]");
        }
        let result_text = result.map_or("*", |(r, _)| r.pgn());
        let _ = writeln!(out, "[Result \"{result_text}\"]");
        if let Some((_, why)) = result {
            let _ = writeln!(out, "[Termination \"{}\"]", escape_pgn(&why.to_string()));
        }
        out.push('\n');
        let mut line = String::new();
        let mut pos = self.start.clone();
        for (i, &mv) in self.moves.iter().enumerate() {
            let mut word = String::new();
            if pos.side_to_move() == Player::First {
                let _ = write!(word, "{}. ", pos.fullmove());
            } else if i == 0 {
                let _ = write!(word, "{}... ", pos.fullmove());
            }
            word.push_str(&mv.to_string());
            push_word(&mut out, &mut line, &word);
            pos.play(mv);
        }
        push_word(&mut out, &mut line, result_text);
        out.push_str(&line);
        out.push_str("\n\n");
        out
    }
}

/// Appends `word` to the current PGN movetext line, wrapping lines before 80 characters.
fn push_word(out: &mut String, line: &mut String, word: &str) {
    if !line.is_empty() && line.len() + 1 + word.len() > 79 {
        out.push_str(line);
        out.push('\n');
        line.clear();
    }
    if !line.is_empty() {
        line.push(' ');
    }
    line.push_str(word);
}

/// Escapes `"` and `\` in a PGN tag value.
fn escape_pgn(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Adjudicates `pos` given how many times it has occurred in the game (1 = first time): the
/// rules of [`GameRecord::adjudicate`].
pub fn adjudicate_position<const POLISH: bool>(
    pos: &Ataxx<POLISH>,
    occurrences: usize,
) -> Option<(GameResult, Termination)> {
    let side = pos.side_to_move();
    let (own, opp) = (pos.stones(side).count(), pos.stones(!side).count());
    let by_count = || match own.cmp(&opp) {
        std::cmp::Ordering::Greater => GameResult::win_for(side),
        std::cmp::Ordering::Less => GameResult::win_for(!side),
        std::cmp::Ordering::Equal => GameResult::Draw,
    };
    if own == 0 || opp == 0 {
        return Some((by_count(), Termination::WipeOut));
    }
    if pos.empties().is_empty() {
        return Some((by_count(), Termination::BoardFull));
    }
    if POLISH {
        if !pos.can_move(side) {
            return Some((GameResult::win_for(!side), Termination::Stuck));
        }
        if occurrences >= 3 {
            return Some((GameResult::Draw, Termination::Repetition));
        }
        if pos.halfmove() >= POLISH_CLOCK_LIMIT {
            return Some((GameResult::Draw, Termination::JumpRule));
        }
    } else {
        if !pos.can_move(side) && !pos.can_move(!side) {
            return Some((by_count(), Termination::NoMoves));
        }
        if pos.halfmove() >= STANDARD_CLOCK_LIMIT {
            return Some((GameResult::Draw, Termination::HalfmoveClock));
        }
    }
    None
}

/// Converts a move in either text form to the arbiter's `<from><to>` form, in `pos` (where it
/// must be legal).
///
/// # Errors
/// When the text is not a legal move in `pos`.
pub fn to_arbiter_notation<const POLISH: bool>(
    pos: &Ataxx<POLISH>,
    text: &str,
) -> Result<String, ParseError> {
    let mv = pos.parse_move(text)?;
    Ok(pos.format_move_long(mv))
}

/// Converts a move in either text form to the UAI form (`f1` clone, `g1e3` jump, `0000`), in
/// `pos` (where it must be legal).
///
/// # Errors
/// When the text is not a legal move in `pos`.
pub fn to_uai_notation<const POLISH: bool>(
    pos: &Ataxx<POLISH>,
    text: &str,
) -> Result<String, ParseError> {
    Ok(pos.parse_move(text)?.to_string())
}
