use super::*;
use crate::search::brute::BruteSolver;
use crate::search::{Limits, Solver};

#[test]
fn packing_round_trips() {
    let inst = Instance::new(
        8,
        8,
        &[],
        &[('k', 1, 1), ('q', 8, 8), ('n', 3, 4), ('n', 5, 6), ('r', 2, 7)],
    )
    .unwrap();
    let key = encode(&inst.start);
    assert_eq!(decode(key, &counts(&inst.start)), inst.start);
}

#[test]
fn notation_round_trips_with_history() {
    let mut g = Szochy::parse_position("3 3|2,1 2,2 2,3|k1,2 q3,3").unwrap();
    let mv = g.parse_move("k1,2-1,1").unwrap();
    g.play(mv);
    let text = g.format_position();
    assert_eq!(text, "3 3|2,1 2,2 2,3|k1,1 q3,3|k1,2 q3,3");
    let back = Szochy::parse_position(&text).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.hash(), g.hash());
    assert!(back.parse_move("k1,1-1,2").is_err(), "returning to a visited position is illegal");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for bad in [
        "",
        "3|",
        "3 3||x1,1",
        "3 3||k1",
        "3 3||k1,1 k1,1",
        "0 3||",
        "12 12||",
        "3 3|a,1|",
        "3 3||k1,1|q1,1",
    ] {
        assert!(Szochy::parse_position(bad).is_err(), "{bad}");
    }
    let e = Szochy::parse_position("3 3|2,2|k1,x").unwrap_err();
    assert_eq!(e.column, 12);
}

#[test]
fn matching_agrees_with_brute_force_on_official_small_cases() {
    // Tests 0, 1, 8, 13 by hand.
    for (line, wins) in [
        ("1 3||k1,2", true),
        ("1 3||k1,1", false),
        ("3 3|2,1 2,2 2,3|k1,2 q3,3", false),
        ("3 2||k3,2 n1,2", true),
    ] {
        let g = Szochy::parse_position(line).unwrap();
        let brute = BruteSolver::new().solve(&g, &Limits::none());
        assert_eq!(brute.outcome == Some(Outcome::Win), wins, "{line}");
        let m = crate::search::matching::MatchingSolver.solve(&g, &Limits::none());
        assert_eq!(m.outcome, brute.outcome, "{line}");
    }
}
