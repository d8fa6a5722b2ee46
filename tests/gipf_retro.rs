//! The indexed retrograde engine on GIPF (`--solver retro2`): un-pushes against forward move
//! generation, and the solver against the brute-force oracle and against the hashed
//! retrograde solver (`retro`) on small variants and random positions.

use crate::common;
use common::TempDir;

use std::collections::HashSet;

use bitsolve::games::gipf::index::{GipfIndex, GipfLayers};
use bitsolve::search::brute::BruteSolver;
use bitsolve::search::retro::gipf::solve_gipf;
use bitsolve::unmove::LayeredIndex;
use bitsolve::zobrist::KeyStream;
use bitsolve::{Game, Gipf, Limits, Notation, Solver, SolverKind, SolverOptions, make_solver};

fn pick(rng: &mut KeyStream, n: u64) -> u64 {
    rng.next_key() % n
}

fn empty_rows(side: usize) -> String {
    (0..2 * side - 1)
        .map(|i| "_".repeat(side + i.min(2 * side - 2 - i)))
        .collect::<Vec<_>>()
        .join("/")
}

/// A random legal position: parameters (totals up to `max_pieces`), then random moves from the
/// start or from an empty board.
fn random_position(rng: &mut KeyStream, side: usize, max_pieces: u64) -> Gipf {
    let k = 2 + pick(rng, 3) as u32;
    let (gw, gb) = (3 + pick(rng, max_pieces - 2) as u32, 3 + pick(rng, max_pieces - 2) as u32);
    let text = if pick(rng, 2) == 0 {
        let start = if side == 2 { "WB/B_W/WB" } else { "W_B/____/B___W/____/W_B" };
        format!("{side} {k} {gw} {gb}/{} {} W/{start}", gw - 3, gb - 3)
    } else {
        format!("{side} {k} {gw} {gb}/{gw} {gb} W/{}", empty_rows(side))
    };
    let mut pos = Gipf::parse_position(&text).unwrap();
    for _ in 0..pick(rng, 30) {
        if pos.outcome().is_some() {
            break;
        }
        let mut moves = bitsolve::games::gipf::GipfMoves::new();
        pos.generate_moves(&mut moves);
        pos.play(moves[pick(rng, moves.len() as u64) as usize]);
    }
    pos
}

/// A random position small enough for the engine in a test: S = 2 with totals up to 8, or
/// (one in `s3`) S = 3 with totals 3 (an index of 2.5M positions).
fn small_position(rng: &mut KeyStream, s3: u64) -> Gipf {
    if pick(rng, s3) == 0 { random_position(rng, 3, 3) } else { random_position(rng, 2, 8) }
}

/// `for_each_child_state` lists exactly the states of `generate_moves` + `play`.
#[test]
fn child_states_match_the_move_generator() {
    let mut rng = KeyStream::new(0xC41D);
    for _ in 0..3000 {
        let side = 2 + pick(&mut rng, 2) as usize;
        let pos = random_position(&mut rng, side, 8);
        let mut moves = bitsolve::games::gipf::GipfMoves::new();
        pos.generate_moves(&mut moves);
        let want: HashSet<_> = moves
            .iter()
            .map(|&m| {
                let mut c = pos.clone();
                c.play(m);
                c.state()
            })
            .collect();
        let mut got = Vec::new();
        pos.for_each_child_state(|st, _| got.push(st));
        assert_eq!(got.len(), want.len(), "{}", pos.format_position());
        assert_eq!(got.into_iter().collect::<HashSet<_>>(), want, "{}", pos.format_position());
    }
}

/// Un-pushes against forward moves on 3 * 10^4 random indexed positions (10^5 in the deep
/// test; any placement, legal or not): every plain parent found is a parent by a plain move,
/// and every plain move of a position is undone by an un-push of its child (no false parent,
/// every parent found).
#[test]
fn unpushes_match_plain_moves() {
    unpushes_match_plain_moves_on(30_000);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn unpushes_match_plain_moves_deep() {
    unpushes_match_plain_moves_on(100_000);
}

/// The check of `unpushes_match_plain_moves` on `count` random positions.
fn unpushes_match_plain_moves_on(count: u64) {
    let mut rng = KeyStream::new(0x0A9E);
    let (mut edges, mut hidden) = (0u64, 0u64);
    for t in 0..count {
        let side = 2 + (t % 2) as usize;
        let k = 2 + (t / 2 % 3) as u32;
        let (gw, gb) = (3 + pick(&mut rng, 6) as u32, 3 + pick(&mut rng, 6) as u32);
        let text = format!("{side} {k} {gw} {gb}/{gw} {gb} W/{}", empty_rows(side));
        let template = Gipf::parse_position(&text).unwrap();
        let layers = GipfLayers::new(&template).unwrap();
        let l = pick(&mut rng, layers.layers() as u64) as usize;
        let r = pick(&mut rng, layers.layer_size(l));
        let pos = layers.unrank(l, r);
        // As a parent: each plain child finds it back.
        pos.for_each_child_state(|st, plain| {
            if !plain {
                hidden += 1;
                return;
            }
            edges += 1;
            let child = pos.with_state(st, !pos.to_move());
            let mut found = 0;
            child.for_each_plain_parent(|p| {
                if p.state() == pos.state() && p.to_move() == pos.to_move() {
                    found += 1;
                }
            });
            assert_eq!(found, 1, "{} -> {}", pos.format_position(), child.format_position());
        });
        // As a child: each plain parent has it as a plain child, once.
        let mut parents = HashSet::new();
        pos.for_each_plain_parent(|p| {
            assert!(parents.insert(p.state()), "parent twice");
            assert_eq!(p.to_move(), !pos.to_move());
            let mut hits = 0;
            p.for_each_child_state(|st, plain| {
                if st == pos.state() {
                    assert!(
                        plain,
                        "{} -> {} not plain",
                        p.format_position(),
                        pos.format_position()
                    );
                    hits += 1;
                }
            });
            assert_eq!(
                hits,
                1,
                "false parent {} of {}",
                p.format_position(),
                pos.format_position()
            );
        });
    }
    assert!(edges > count && hidden * 100 > count, "plain {edges}, hidden {hidden}");
}

#[test]
fn the_index_ranks_legal_positions_back() {
    let mut rng = KeyStream::new(0x1D);
    for _ in 0..2000 {
        let side = 2 + pick(&mut rng, 2) as usize;
        let pos = random_position(&mut rng, side, 8);
        let layers = GipfLayers::new(&pos).unwrap();
        let (l, r) = layers.rank(&pos).unwrap();
        assert_eq!(l, 0);
        assert_eq!(layers.unrank(l, r), pos);
    }
    assert!(GipfIndex::new(65, (3, 3)).is_none());
}

fn retro2(pos: &Gipf) -> bitsolve::Report<bitsolve::games::gipf::GipfMove> {
    solve_gipf(pos, &Limits::none(), 1 << 12).0
}

/// Equal to the hashed retrograde solver, value and distance, on random small positions of
/// S = 2 and 3 and on every S = 2 variant of the table.
#[test]
fn retro2_equals_retro() {
    retro2_equals_retro_on(60, 1);
    retro2_equals_retro_on_variants();
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn retro2_equals_retro_deep() {
    retro2_equals_retro_on(200, 5);
}

/// The breadth-first retrograde solver, within 200,000 positions.
fn retro(p: &Gipf) -> bitsolve::search::Report<<Gipf as bitsolve::Game>::Move> {
    make_solver::<Gipf>(SolverKind::Retro, &SolverOptions::default())
        .solve(p, &Limits::nodes(200_000))
}

/// Both retrograde engines give the same values and reachable counts on `count` random
/// small positions, each outcome more than `least` times.
fn retro2_equals_retro_on(count: usize, least: usize) {
    let mut rng = KeyStream::new(0x2E7);
    let mut kinds = [0usize; 3];
    for _ in 0..count {
        let pos = small_position(&mut rng, 40);
        let want = retro(&pos);
        if want.outcome.is_none() {
            continue;
        }
        let got = retro2(&pos);
        assert_eq!(got.value(), want.value(), "{}", pos.format_position());
        assert_eq!(
            got.stats.nodes,
            want.stats.nodes,
            "reachable positions of {}",
            pos.format_position()
        );
        kinds[want.outcome.unwrap() as usize] += 1;
        if let Some(mv) = got.best_move {
            let mut c = pos.clone();
            c.play(mv);
            assert_eq!(retro(&c).value().unwrap().parent(), want.value().unwrap());
        }
    }
    assert!(kinds.iter().all(|&n| n > least), "outcomes (loss, draw, win) {kinds:?}");
}

/// Both retrograde engines agree on the S = 2 variants.
fn retro2_equals_retro_on_variants() {
    for k in 2..=3 {
        for gw in 3..=8u32 {
            for gb in 3..=8u32 {
                let text = format!("2 {k} {gw} {gb}/{} {} W/WB/B_W/WB", gw - 3, gb - 3);
                let pos = Gipf::parse_position(&text).unwrap();
                let (want, got) = (retro(&pos), retro2(&pos));
                assert_eq!(got.value(), want.value(), "{text}");
                assert_eq!(got.stats.nodes, want.stats.nodes, "{text}");
            }
        }
    }
}

/// Equal to the brute-force oracle (value and distance) wherever it finishes.
#[test]
fn retro2_equals_brute_force() {
    retro2_equals_brute_force_on(100);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn retro2_equals_brute_force_deep() {
    retro2_equals_brute_force_on(300);
}

/// The check of `retro2_equals_brute_force` on `count` samples.
fn retro2_equals_brute_force_on(count: usize) {
    let mut rng = KeyStream::new(0xB2);
    let mut checked = 0;
    for _ in 0..count {
        let pos = small_position(&mut rng, 60);
        let Some(truth) = BruteSolver::new().solve(&pos, &Limits::nodes(50_000)).value() else {
            continue;
        };
        checked += 1;
        assert_eq!(retro2(&pos).value(), Some(truth), "{}", pos.format_position());
    }
    assert!(checked * 3 >= count, "only {checked}");
}

/// The memory budget and the position cap give `unknown` with the reason.
#[test]
fn the_budget_gives_unknown() {
    let pos = Gipf::parse_position("3 3 5 5/2 2 W/W_B/____/B___W/____/W_B").unwrap();
    let (r, _) = solve_gipf(&pos, &Limits::none(), 1);
    assert_eq!(r.outcome, None);
    assert!(r.unknown.unwrap().to_string().contains("budget"));
    let r = solve_gipf(&pos, &Limits::nodes(1000), 1 << 12).0;
    assert!(matches!(r.unknown, Some(bitsolve::search::Unknown::TooLarge { .. })));
}

/// With checkpoints: a second solve of a root answers from its files; the colour-swapped
/// start of a variant is answered from the table of the other start when its position is in
/// it (S = 2: the two reachable sets are equal) and solved afresh when it is not (S = 3,
/// 4 + 5); deleted layer files and a deleted reachable set are made again. Every answer
/// equals a solve without files, and best moves lead where the value says.
#[test]
fn checkpoints_resume_and_answer_the_colour_twin() {
    use bitsolve::search::retro::gipf::solve_gipf_in;
    let base = TempDir::new("retro2-ckpt");
    let solve =
        |p: &Gipf, dir: Option<&std::path::Path>| solve_gipf_in(p, &Limits::none(), 1 << 12, dir);
    let check_move = |p: &Gipf, r: &bitsolve::Report<bitsolve::games::gipf::GipfMove>| {
        let mv = r.best_move.expect("a best move");
        let mut c = p.clone();
        c.play(mv);
        assert_eq!(solve(&c, None).0.value().unwrap().parent(), r.value().unwrap());
    };
    for (a, b, shared) in [
        ("2 2 4 5/1 2 W/WB/B_W/WB", "2 2 5 4/2 1 W/WB/B_W/WB", true),
        ("2 2 6 7/3 4 W/WB/B_W/WB", "2 2 7 6/4 3 W/WB/B_W/WB", true),
        ("2 3 6 7/3 4 W/WB/B_W/WB", "2 3 7 6/4 3 W/WB/B_W/WB", false),
        ("3 3 4 5/1 2 W/W_B/____/B___W/____/W_B", "3 3 5 4/2 1 W/W_B/____/B___W/____/W_B", false),
    ] {
        let (ra, rb) = (Gipf::parse_position(a).unwrap(), Gipf::parse_position(b).unwrap());
        let (want_a, want_b) = (solve(&ra, None).0, solve(&rb, None).0);
        let (got, info) = solve(&ra, Some(&base));
        assert_eq!((got.value(), got.stats.nodes), (want_a.value(), want_a.stats.nodes), "{a}");
        assert!(!info.reused);
        let (got, info) = solve(&ra, Some(&base));
        assert_eq!(got.value(), want_a.value(), "{a} again");
        assert!(!info.reused, "its own table");
        let (got, info) = solve(&rb, Some(&base));
        assert_eq!((got.value(), got.stats.nodes), (want_b.value(), want_b.stats.nodes), "{b}");
        assert_eq!(info.reused, shared, "{b}");
        check_move(&rb, &got);
        check_move(&ra, &want_a);
    }
    // Delete the tables: solved again.
    let mut deleted = 0;
    for f in std::fs::read_dir(&base).unwrap() {
        let f = f.unwrap().path();
        if f.extension().is_some_and(|e| e == "tbl") {
            std::fs::remove_file(&f).unwrap();
            deleted += 1;
        }
    }
    assert!(deleted >= 4, "{deleted} tables deleted");
    let ra = Gipf::parse_position("3 3 4 5/1 2 W/W_B/____/B___W/____/W_B").unwrap();
    let want = solve(&ra, None).0;
    let (got, info) = solve(&ra, Some(&base));
    assert_eq!((got.value(), got.stats.nodes), (want.value(), want.stats.nodes));
    assert!(!info.reused);
}

/// Layers scanned in ranges with their hidden edges spilled to a file and grouped by child
/// give the same cells, byte for byte, as layers scanned whole with the edges in memory.
#[test]
fn spilled_hidden_edges_give_the_same_cells() {
    use bitsolve::search::retro::gipf::{Retro2Options, Spilling, solve_gipf_with};
    let base = TempDir::new("retro2-spill");
    let (whole, spilled) = (base.join("whole"), base.join("spilled"));
    let whole_options =
        Retro2Options { checkpoint: Some(whole.clone()), ..Retro2Options::default() };
    let small = Retro2Options {
        spilling: Spilling { from: 50, range: 37 },
        checkpoint: Some(spilled.clone()),
        ..Retro2Options::default()
    };
    for text in [
        "2 2 9 9/6 6 W/WB/B_W/WB",
        "2 2 8 9/5 6 B/WB/B_W/WB",
        "3 4 5 5/2 2 W/W_B/____/B___W/____/W_B",
    ] {
        let root = Gipf::parse_position(text).unwrap();
        let limits = Limits::none();
        let (a, ia) = solve_gipf_with(&root, &limits, 1 << 12, &whole_options);
        let (b, ib) = solve_gipf_with(&root, &limits, 1 << 12, &small);
        assert_eq!((a.value(), a.stats.nodes), (b.value(), b.stats.nodes), "{text}");
        assert_eq!(ia.hidden, ib.hidden, "{text}");
        assert!(ia.hidden > 0 && ia.reachable > 1000, "{text}: {ia:?}");
    }
    // The table files, byte for byte (their layers, checksums and descriptions).
    let mut compared = 0;
    for f in std::fs::read_dir(&whole).unwrap() {
        let f = f.unwrap().path();
        let name = f.file_name().unwrap().to_owned();
        assert!(f.extension().is_some_and(|e| e == "tbl"), "only tables are left: {}", f.display());
        let (x, y) = (std::fs::read(&f).unwrap(), std::fs::read(spilled.join(&name)).unwrap());
        assert_eq!(x, y, "{}", f.display());
        compared += 1;
    }
    assert_eq!(compared, 3, "{compared} tables compared");
}
