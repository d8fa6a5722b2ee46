//! retro2 on small GIPF variants.

use super::*;
use crate::notation::Notation;

/// Solved without files by the driver: the sets and cells of every layer from `root`.
fn solved(strong: &GipfStrong) -> (Vec<KeySet>, Vec<Vec<u16>>) {
    let options = BuildOptions { keep_all: true, ..BuildOptions::default() };
    let control = Control::default();
    let built = build(strong, &options, &Hooks { control: &control, log: &|_| {} })
        .unwrap_or_else(|e| panic!("solved: {e}"));
    let cells = built
        .cells
        .into_iter()
        .map(|c| c.map_or_else(Vec::new, |k| (*k).as_ref().to_vec()))
        .collect();
    (built.sets, cells)
}

/// Folded by the board's symmetries, every position reachable from the root has the cell
/// (value and distance) of its class, and the classes are fewer; the reports agree.
#[test]
fn classes_have_the_cells_of_their_positions() {
    let mut compared = 0u64;
    let mut some_images_unreached = false;
    for text in [
        "2 2 6 6/3 3 W/WB/B_W/WB",
        "2 3 7 6/4 3 W/WB/B_W/WB",
        "2 2 8 9/5 6 B/WB/B_W/WB",
        "2 2 9 9/6 6 W/WB/B_W/WB",
        "3 3 4 4/1 1 W/W_B/____/B___W/____/W_B",
        "3 4 5 5/2 2 W/W_B/____/B___W/____/W_B",
        "3 3 4 5/1 2 B/W_B/____/B___W/____/W_B",
    ] {
        let root = Gipf::parse_position(text).unwrap();
        let root = if root.params()[2] > root.params()[3] { root.colour_swapped() } else { root };
        let plain_strong = GipfStrong::new(&root, false, Spilling::DEFAULT).unwrap();
        let sym_strong = GipfStrong::new(&root, true, Spilling::DEFAULT).unwrap();
        let (plain, sym) = (plain_strong.model(), sym_strong.model());
        let (ps, pc) = solved(&plain_strong);
        let (ss, sc) = solved(&sym_strong);
        let (np, ns): (usize, usize) =
            (ps.iter().map(KeySet::len).sum(), ss.iter().map(KeySet::len).sum());
        assert!(ns <= np && (np < 1000 || ns * 3 < np), "{text}: {ns} classes of {np}");
        let idx = &plain.layers.index;
        let mut images = std::collections::HashSet::new();
        let board = sym.sym.expect("a symmetric model");
        for l in 0..ps.len() {
            for (i, &plain_cell) in pc[l].iter().enumerate() {
                let pos = idx.unrank(l, ps[l].rank(i));
                for s in 0..crate::games::gipf::symmetry::SYMMETRIES {
                    let (white, black) = (board.apply(s, pos.white), board.apply(s, pos.black));
                    images.insert((l, idx.rank(&IndexedPos { white, black, ..pos })));
                }
                let r = idx.rank(&sym.canon(pos));
                let j = ss[l].find(r).expect("the class of a reachable position is reached");
                assert_eq!(plain_cell, sc[l][j as usize], "{text}");
                compared += 1;
            }
        }
        let a = solve_gipf_with(&root, &Limits::none(), 1 << 12, &Retro2Options::default());
        let options = Retro2Options { symmetry: true, ..Retro2Options::default() };
        let b = solve_gipf_with(&root, &Limits::none(), 1 << 12, &options);
        assert_eq!((a.0.value(), a.0.plies), (b.0.value(), b.0.plies), "{text}");
        assert_eq!(b.1.reachable, ns as u64);
        assert_eq!(a.1.positions, np as u64, "{text}");
        // The classes stand for the reachable positions and their images.
        assert_eq!(b.1.positions, images.len() as u64, "{text}");
        some_images_unreached |= images.len() > np;
        let mv = b.0.best_move.expect("a best move");
        let mut moves = GipfMoves::default();
        root.generate_moves(&mut moves);
        assert!(moves.contains(&mv), "{text}: a legal best move");
    }
    assert!(compared > 90_000, "{compared}");
    assert!(some_images_unreached, "a root whose images reach other positions");
}
