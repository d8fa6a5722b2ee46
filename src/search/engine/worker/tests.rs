//! Unit tests of the worker's pruning and reduction rules.

use super::*;
use crate::games::ataxx::AtaxxStandard;
use crate::games::ataxx::nnue::NetAtaxx;

/// The net evaluation, whose margins are 160 + 80 per ply.
type Net = NetAtaxx<false>;

#[test]
fn futility_needs_the_games_margins_little_depth_and_an_open_alpha() {
    // The hand-made Ataxx evaluation has no margins: no bound, whatever the evaluation.
    assert_eq!(futility_bound::<AtaxxStandard>(Some(-5000), 1, 0), None);
    assert_eq!(futility_bound::<Net>(Some(-500), 3, 0), Some(-500 + 160 + 240));
    assert_eq!(futility_bound::<Net>(Some(-500), FP_DEPTH + 1, 0), None);
    assert_eq!(futility_bound::<Net>(None, 3, 0), None);
    assert_eq!(futility_bound::<Net>(Some(-500), 3, EVAL_LIMIT), None);
    assert_eq!(futility_bound::<Net>(Some(-500), 3, -EVAL_LIMIT), None);
}

#[test]
fn a_node_below_its_futility_bound_stops_after_its_first_moves() {
    let below = (false, true);
    assert!(!late_move_prunes(true, 9, 0, FP_MOVES - 1, below));
    assert!(late_move_prunes(true, 9, 0, FP_MOVES, below));
    // Not while every move tried so far loses.
    assert!(!late_move_prunes(true, 9, -INFINITY, FP_MOVES, below));
    // And not when the bound is above alpha.
    assert!(!late_move_prunes(true, 9, 0, FP_MOVES + 5, (false, false)));
}

#[test]
fn history_reductions_are_the_net_evaluations_only() {
    // The hand-made evaluation keeps depth^2 bonuses and plain reductions.
    assert_eq!(history_bonus::<AtaxxStandard>(5), 25);
    assert_eq!(history_bonus::<AtaxxStandard>(200), HISTORY_MAX / 4);
    assert_eq!(history_relief::<AtaxxStandard>(HISTORY_MAX), 0);
    // The net's: 300 a ply up to 1,500.
    assert_eq!(history_bonus::<Net>(1), 300);
    assert_eq!(history_bonus::<Net>(4), 1200);
    assert_eq!(history_bonus::<Net>(9), 1500);
    // Its relief is the history over 12,288 rounded half away from zero, as
    // `(h as f32 / 12288.0).round()` (the form the match tested) over the whole range.
    for h in -HISTORY_MAX..=HISTORY_MAX {
        assert_eq!(history_relief::<Net>(h), (h as f32 / 12288.0).round() as i32, "{h}");
    }
    assert_eq!(history_relief::<Net>(6143), 0);
    assert_eq!(history_relief::<Net>(6144), 1);
    assert_eq!(history_relief::<Net>(-6144), -1);
}
