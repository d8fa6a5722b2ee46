//! A readable text picture of a Gauss position: the hex grid with the void ring marked, both
//! players' supplies and zones, the provisional score and the side to move.
//!
//! ```text
//!       :   :   :   :          inner cells: `.` empty, `r` red, `b` blue
//!     :   .   .   .   :        void cells:  `:` empty, `R` red, `B` blue
//! ```

use std::fmt::Write as _;

use super::board::Board;
use super::{Colour, Gauss};
use crate::game::Player;

/// Draws the grid with `cell(point)` giving each point's text (at most 3 characters).
fn grid(cell: impl Fn(u8) -> String) -> String {
    let b = Board::get();
    let mut out = String::new();
    for row in &b.rows {
        let mut line = String::new();
        for &p in row {
            let col = b.coords[p as usize].1 as usize * 2;
            while line.chars().count() < col {
                line.push(' ');
            }
            let _ = write!(line, "{:<3}", cell(p));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The grid with every point's name (`d4` is the centre; names of void cells in brackets).
pub fn names_picture() -> String {
    let b = Board::get();
    grid(|p| {
        let name = &b.names[p as usize];
        if b.is_inner(p) { name.clone() } else { format!("({name})") }
    })
}

impl Gauss {
    /// A multi-line picture of the position (see the [module docs](self)).
    pub fn picture(&self) -> String {
        let b = Board::get();
        let mut out = grid(|p| {
            let inner = b.is_inner(p);
            let ch = if self.discs(Colour::Red) >> p & 1 != 0 {
                if inner { 'r' } else { 'R' }
            } else if self.discs(Colour::Blue) >> p & 1 != 0 {
                if inner { 'b' } else { 'B' }
            } else if inner {
                '.'
            } else {
                ':'
            };
            ch.to_string()
        });
        let tally = self.tally();
        for player in Player::ALL {
            let c = Colour::of(player);
            let _ = writeln!(
                out,
                "{:<4} player: holds {:>2} r {:>2} b | bonus {:>2} risk {:>2} | {:>2} on void | {:>3} points",
                if c == Colour::Red { "red" } else { "blue" },
                self.supply(player, Colour::Red),
                self.supply(player, Colour::Blue),
                self.bonus(c),
                self.risk(c),
                tally.void_discs[c.index()],
                tally.points[c.index()],
            );
        }
        let mover = if self.side_to_move() == Player::First { "red" } else { "blue" };
        if self.is_over() {
            let _ = writeln!(out, "game over after {} placements", self.placements());
        } else {
            let _ = writeln!(out, "placement {} of 30, {mover} to move", self.placements() + 1);
        }
        out
    }
}
