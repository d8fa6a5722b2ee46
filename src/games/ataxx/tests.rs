use super::*;
use crate::game::Perft;
use crate::notation::Notation;

#[test]
fn smoke() {
    for fen in ["x5o/7/7/7/7/7/o5x x 0 1", "7/7/7/7/-------/-------/x5o x 0 1", "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1"] {
        eprintln!("{fen}");
        let p = AtaxxStandard::parse_position(fen).unwrap();
        eprintln!("{}", p.format_position());
        for d in 1..4 { eprintln!("{d} {}", p.perft(d)); }
    }
}
