//! The 36 official szochy tests (copied into `datasets/szochy/`) are reproduced, by the library
//! and through the `Game` trait's matching solver on the TSV form.

use bitsolve::dataset::read_dataset;
use bitsolve::games::szochy::{SolveOptions, Szochy, parse_tests, solve};
use bitsolve::graph::matching::{GallaiEdmonds, gallai_edmonds};
use bitsolve::{Game, Limits, Notation, Outcome, SolverKind, SolverOptions, make_solver};

fn dataset(name: &str) -> String {
    let path = format!("{}/datasets/szochy/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn official_answers_are_reproduced() {
    let cases = parse_tests(&dataset("official.json")).unwrap();
    assert_eq!(cases.len(), 36);
    for case in &cases {
        let inst = case.instance().unwrap();
        let s = solve(&inst, &SolveOptions::default()).unwrap();
        assert_eq!(Some(s.first_player_wins), case.expected, "test {}", case.test);
        // The Gallai-Edmonds classes say the same, and the matching's line of play ends with
        // the winner's move.
        let classes = gallai_edmonds(&s.graph.graph, &s.matching);
        assert_eq!(classes[0] != GallaiEdmonds::D, s.first_player_wins, "test {}", case.test);
        assert_eq!(s.winning_line().len() % 2 == 1, s.first_player_wins, "test {}", case.test);
    }
    // Bad data is read as the spec says: tests 21, 30 and 35 warn.
    for t in [21, 30, 35] {
        assert!(!cases[t].instance().unwrap().warnings.is_empty(), "test {t}");
    }
}

#[test]
fn official_tsv_through_the_matching_solver() {
    let (entries, errors) = read_dataset(&dataset("official.tsv"));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(entries.len(), 36);
    let mut solver = make_solver::<Szochy>(SolverKind::Matching, &SolverOptions::default());
    for e in &entries {
        let pos = Szochy::parse_position(&e.position).unwrap();
        let report = solver.solve(&pos, &Limits::none());
        assert_eq!(report.outcome, e.expected, "{}", e.id);
        assert_eq!(report.best_move.is_some(), pos.outcome().is_none(), "{}", e.id);
    }
    assert_eq!(entries[0].expected, Some(Outcome::Win));
}
