//! Rule tests, each with the board as a picture: rows of points top to bottom, `.` an empty
//! inner cell, `:` an empty void cell, `r`/`b` discs (on the void too).
//!
//! ```text
//!       a4 b5 c6 d7              (all void)
//!     a3 b4 c5 d6 e6             (a3, e6 void)
//!   a2 b3 c4 d5 e5 f5
//! a1 b2 c3 d4 e4 f4 g4           (d4 the centre)
//!   b1 c2 d3 e3 f3 g3
//!     c1 d2 e2 f2 g2
//!       d1 e1 f1 g1              (all void)
//! ```

use proptest::prelude::*;

use super::board::Board;
use super::*;
use crate::notation::Notation;

/// A position with the discs of `picture`, `side` to move, 5 discs of each colour in each
/// supply and empty zones (rule tests need no consistent history).
fn position(picture: &str, side: Player, rules: Rules) -> Gauss {
    let b = Board::get();
    let mut discs = [0u64; 2];
    let rows: Vec<Vec<&str>> = picture
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect();
    assert_eq!(rows.len(), 7, "seven rows");
    for (r, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), b.rows[r].len(), "row {r}");
        for (i, token) in row.iter().enumerate() {
            let p = b.rows[r][i];
            match *token {
                "r" => discs[0] |= 1 << p,
                "b" => discs[1] |= 1 << p,
                "." => assert!(b.is_inner(p), "`.` on void point {}", b.names[p as usize]),
                ":" => assert!(!b.is_inner(p), "`:` on inner point {}", b.names[p as usize]),
                _ => panic!("bad token {token}"),
            }
        }
    }
    let mut g = Gauss {
        discs,
        supply: [[5, 5], [5, 5]],
        bonus: [0; 2],
        risk: [0; 2],
        side,
        rules,
        hash: 0,
    };
    g.hash = g.hash_from_scratch();
    g
}

/// The board of `g` in the picture form, one row per line, single spaces.
fn picture(g: &Gauss) -> String {
    let b = Board::get();
    let mut out = String::new();
    for row in &b.rows {
        let tokens: Vec<&str> = row
            .iter()
            .map(|&p| {
                if g.discs[0] >> p & 1 != 0 {
                    "r"
                } else if g.discs[1] >> p & 1 != 0 {
                    "b"
                } else if b.is_inner(p) {
                    "."
                } else {
                    ":"
                }
            })
            .collect();
        out.push_str(&tokens.join(" "));
        out.push('\n');
    }
    out
}

fn normalise(picture: &str) -> String {
    picture
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .map(|l| l + "\n")
        .collect()
}

/// Plays `mv` on `before` (red to move, default rules) and checks the board against `after`.
fn check(before: &str, mv: &str, after: &str) -> Gauss {
    let mut g = position(before, Player::First, Rules::default());
    let m = g.parse_move(mv).unwrap();
    g.play(m);
    assert_eq!(picture(&g), normalise(after), "after {mv}");
    g
}

#[test]
fn attraction_pulls_the_first_other_colour_disc_next_to_the_trigger() {
    check(
        "      :  :  :  :
             :  .  .  .  :
           :  .  .  .  .  :
         :  .  .  .  .  b  :
           :  .  .  .  .  :
             :  .  .  .  :
               :  :  :  :",
        "d4r",
        "      :  :  :  :
             :  .  .  .  :
           :  .  .  .  .  :
         :  .  .  r  b  .  :
           :  .  .  .  .  :
             :  .  .  .  :
               :  :  :  :",
    );
}

#[test]
fn repulsion_pushes_the_first_same_colour_disc_to_the_void() {
    // e4 is repelled East past the empty f4 onto the void cell g4; c3 (West) likewise onto a1.
    check(
        ": : : :
         : . . . :
         : . . . . :
         : . r . r . :
         : . . . . :
         : . . . :
         : : : :",
        "d4r",
        ": : : :
         : . . . :
         : . . . . :
         r . . r . . r
         : . . . . :
         : . . . :
         : : : :",
    );
}

#[test]
fn repulsion_stops_before_the_next_disc() {
    // Red d5 (north-east of d4) is pushed north-east up to the cell before blue on d7.
    check(
        ": : : b
         : . . . :
         : . . r . :
         : . . . . . :
         : . . . . :
         : . . . :
         : : : :",
        "d4r",
        ": : : b
         : . . r :
         : . . . . :
         : . . r . . :
         : . . . . :
         : . . . :
         : : : :",
    );
}

#[test]
fn blocked_discs_do_not_move() {
    // East: red e4 cannot be repelled (f4 is occupied); West: blue b2 is attracted to c3.
    check(
        ": : : :
         : . . . :
         : . . . . :
         : b . . r b :
         : . . . . :
         : . . . :
         : : : :",
        "d4r",
        ": : : :
         : . . . :
         : . . . . :
         : . b r r b :
         : . . . . :
         : . . . :
         : : : :",
    );
    check(
        ": : : :
         : . . . :
         : . . . . :
         : . . . . . :
         : . b . . :
         : . . . :
         : : : :",
        // Blue d3 is next to the trigger already: it stays.
        "d4r",
        ": : : :
         : . . . :
         : . . . . :
         : . . r . . :
         : . b . . :
         : . . . :
         : : : :",
    );
}

#[test]
fn void_discs_are_attracted_back_and_repelled_nowhere() {
    // Blue on the void cell g4 is pulled in to e4; red on the void cell d1 (end of the ray
    // d4-d3-d2-d1) stays where it is.
    check(
        ": : : :
         : . . . :
         : . . . . :
         : . . . . . b
         : . . . . :
         : . . . :
         r : : :",
        "d4r",
        ": : : :
         : . . . :
         : . . . . :
         : . . r b . :
         : . . . . :
         : . . . :
         r : : :",
    );
}

#[test]
fn collection_across_the_ring_splits_bonus_and_risk() {
    // Red on the void cells f5, g4, g3 (each at the end of its ray from f4, so they stay) and
    // on e4 (blocked by blue d4). Red on f4 makes the group e4 f4 g4 g3 f5: e4 and f4 go to
    // red's bonus, the three void discs to red's risk.
    let g = check(
        ": : : :
         : . . . :
         : . . . . r
         : . . b r . r
         : . . . . r
         : . . . :
         : : : :",
        "f4r",
        ": : : :
         : . . . :
         : . . . . :
         : . . b . . :
         : . . . . :
         : . . . :
         : : : :",
    );
    assert_eq!((g.bonus(Colour::Red), g.risk(Colour::Red)), (2, 3));
    assert_eq!((g.bonus(Colour::Blue), g.risk(Colour::Blue)), (0, 0));
}

#[test]
fn the_other_colour_is_collected_too_whoever_moves() {
    // Red on d4 attracts blue from the void cell g4 to e4, joining e5 (and f5 on the void)
    // and f3: blue's group e4 e5 f5 f3 is collected into blue's bonus (3) and risk (1).
    let g = check(
        ": : : :
         : . . . :
         : . . . b b
         : . . . . . b
         : . . . b :
         : . . . :
         : : : :",
        "d4r",
        ": : : :
         : . . . :
         : . . . . :
         : . . r . . :
         : . . . . :
         : . . . :
         : : : :",
    );
    assert_eq!((g.bonus(Colour::Blue), g.risk(Colour::Blue)), (3, 1));
    assert_eq!(g.bonus(Colour::Red), 0);
}

#[test]
fn row_rule_collects_only_straight_rows() {
    // The red player places blue on c3, attracting red f4 to d4: red d4 d5 e5 e3 is a bent
    // group of four (no straight row of four).
    let before = ": : : :
         : . . . :
         : . . r r :
         : . . . . r :
         : . . r . :
         : . . . :
         : : : :";
    let mut g = position(before, Player::First, Rules::default());
    g.play(g.parse_move("c3b").unwrap());
    assert_eq!(g.discs(Colour::Red), 0, "{}", picture(&g));
    assert_eq!(g.bonus(Colour::Red), 4);
    let rules = Rules { collection: Collection::Row, ..Rules::default() };
    let mut g = position(before, Player::First, rules);
    g.play(g.parse_move("c3b").unwrap());
    assert_eq!(g.discs(Colour::Red).count_ones(), 4, "{}", picture(&g));
    assert_eq!(g.bonus(Colour::Red), 0);
}

#[test]
fn final_score_and_tie_breaks() {
    let mut g = position(
        ": : : :
         : . . . :
         : . . . . :
         r . . . . . b
         r . . . . :
         : . . . :
         : : : :",
        Player::First,
        Rules::default(),
    );
    g.supply = [[0; 2]; 2];
    g.bonus = [3, 5];
    g.risk = [2, 4];
    // Red has 2 discs on the void, blue 1: red pays its 2 risk discs.
    assert_eq!(g.tally().points, [1, 5]);
    assert_eq!(g.final_score(), Some(-4));
    assert_eq!(g.outcome(), Some(Outcome::Loss));
    g.bonus = [7, 5];
    assert_eq!(g.final_score(), Some(0));
    // Equal scores: red has more discs on the void, so red loses the first tie-break...
    assert_eq!(g.outcome(), Some(Outcome::Loss));
    // ...but wins on fewer risk discs when that tie-break comes first.
    g.rules.tie_break = TieBreak::RiskThenVoid;
    assert_eq!(g.outcome(), Some(Outcome::Win));
}

#[test]
fn start_position_round_trips_and_has_38_moves() {
    let g = Gauss::default();
    assert_eq!(g.format_position(), notation::START);
    assert_eq!(Gauss::parse_position(notation::START).unwrap(), g);
    let mut moves = GaussMoves::new();
    g.generate_moves(&mut moves);
    assert_eq!(moves.len(), 38);
    assert_eq!(g.perft(2), 38 * 36);
}

#[test]
fn bad_positions_and_moves_are_errors() {
    for (text, column) in [
        ("", 1),
        ("..../...../....../......./....../...../.... x 10/5 5/10 0/0 0/0", 45),
        ("..../...../....../......x/....../...../.... r 10/5 5/10 0/0 0/0", 25),
        ("..../...../....../......../....../...../.... r 10/5 5/10 0/0 0/0", 26),
        ("..../...../....../......./....../...../.... r 10/5 5/10 0/0 0/0 rows", 65),
        ("..../...../....../......./....../...../.... r 10/5 5/9 0/0 0/0", 1),
        ("..../...../....../......./....../...../.... r 10/5 5/x 0/0 0/0", 52),
    ] {
        let err = Gauss::parse_position(text).unwrap_err();
        assert_eq!(err.column, column, "{text}: {err}");
    }
    let g = Gauss::default();
    for m in ["", "d4", "d4x", "a1r", "z9r", "d4"] {
        assert!(g.parse_move(m).is_err(), "{m}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every random game lasts exactly 30 placements (default rules), conserves 15 discs per colour, never
    /// leaves a group of four, and its notation round-trips at every step.
    #[test]
    fn random_games_last_exactly_30_placements(seed: u64, row in any::<bool>()) {
        let rules = Rules {
            collection: if row { Collection::Row } else { Collection::Group },
            ..Rules::default()
        };
        let mut rng = crate::zobrist::KeyStream::new(seed);
        let mut g = Gauss::start(rules);
        let mut placements = 0;
        while g.outcome().is_none() {
            let mut moves = GaussMoves::new();
            g.generate_moves(&mut moves);
            prop_assert!(!moves.is_empty());
            let mv = moves[(rng.next_key() % moves.len() as u64) as usize];
            g.play(mv);
            placements += 1;
            prop_assert_eq!(g.hash(), g.hash_from_scratch());
            let text = g.format_position();
            prop_assert_eq!(Gauss::parse_position(&text).unwrap(), g);
        }
        // Under the row option a full inner area without a row of four ends the game early.
        if row {
            prop_assert!(placements <= 30);
        } else {
            prop_assert_eq!(placements, 30);
            prop_assert_eq!(g.remaining(), 0);
        }
        let s = g.final_score().unwrap();
        match g.outcome().unwrap() {
            Outcome::Win => prop_assert!(s >= 0),
            Outcome::Loss => prop_assert!(s <= 0),
            Outcome::Draw => prop_assert_eq!(s, 0),
        }
    }
}

/// `rules::collects_own` says exactly whether a placement of either colour on each empty
/// inner point collects a disc of that colour (groups rule), on random positions; and with
/// one placement left, where `final_bound` gives a bound, every move that `final_at_most`
/// passes is worth at most that bound (its value is minus the child's final score), on
/// thousands of positions.
#[test]
fn last_placement_bound_is_sound() {
    let mut rng = crate::zobrist::KeyStream::new(0xB0_0D);
    let (mut collecting, mut bounded, mut passed) = (0, 0, 0);
    for i in 0..4000 {
        let rules = Rules { collection: Collection::Group, ..Rules::mixed(i) };
        let remaining = if i % 4 == 0 { 1 + (i as u32 / 4) % 20 } else { 1 };
        let g = Gauss::random(remaining, rules, &mut rng);
        if g.is_over() {
            continue;
        }
        let occupied = g.discs[0] | g.discs[1];
        let empty = Board::get().inner & !occupied;
        for p in 0..POINTS as u8 {
            if empty >> p & 1 == 0 {
                continue;
            }
            for c in Colour::ALL {
                let mut after = g;
                rules::place::<false>(&mut after, GaussMove::new(p, c));
                let i = c.index();
                let collected = after.bonus[i] + after.risk[i] > g.bonus[i] + g.risk[i];
                collecting += usize::from(collected);
                let said = rules::collects_own(g.discs[i], occupied, p);
                assert_eq!(said, collected, "{} {p}{}", g.format_position(), c.letter());
            }
        }
        let Some(bound) = g.final_bound(i32::MAX) else {
            continue;
        };
        assert_eq!(bound, g.provisional_score());
        assert_eq!(g.final_bound(bound - 1), None, "a bound above alpha is no use");
        bounded += 1;
        let mut moves = GaussMoves::new();
        g.generate_moves(&mut moves);
        for &mv in &moves {
            if g.final_at_most(mv) {
                passed += 1;
                let value = -g.final_score_after(mv).expect("the last placement");
                assert!(value <= bound, "{} {mv:?}: {value} > {bound}", g.format_position());
            }
        }
    }
    assert!(
        collecting > 1000 && bounded > 1000 && passed > 10_000,
        "{collecting} {bounded} {passed}"
    );
}
