use super::*;
use crate::notation::Notation;

#[test]
fn start_s2_round_trips() {
    let pos = Gipf::parse_position("2 3 5 5/2 2 W/WB/B_W/WB").unwrap();
    assert_eq!(pos.format_position(), "2 3 5 5/2 2 W/WB/B_W/WB");
    assert_eq!(pos.board_text(), "2 3 5 5\n2 2 W\n W B  \nB _ W \n W B \n");
    assert_eq!(pos.hash(), pos.hash_from_scratch());
}

/// The load format itself (several lines, as after `LOAD_GAME_BOARD`, with CRLF, trailing
/// spaces and blank lines) reads as the same position as the one-line form, and its errors name
/// the line of the load text.
#[test]
fn load_format_reads_as_one_line_form() {
    let text =
        "3 3 10 9 W\r\n7 6 W\r\n  W _ B  \r\n _ _ _ _\r\n\r\nB _ _ _ W\r\n _ _ _ _ \r\n  W _ B\r\n";
    let pos = Gipf::parse_position(text).unwrap();
    assert_eq!(pos.format_position(), "3 3 10 9/7 6 W/W_B/____/B___W/____/W_B");
    assert_eq!(pos.hash(), Gipf::parse_position(&pos.format_position()).unwrap().hash());
    let err = Gipf::parse_position("2 3 5 5\n2 2 X\n W B\nB _ W\n W B\n").unwrap_err();
    assert_eq!((err.line, err.column), (2, 1), "{err}");
    let err = Gipf::parse_position("2 3 5 5\n2 2 W\n W B\nB _ W _\n W B\n").unwrap_err();
    assert_eq!(err.line, 3, "{err}");
    assert!(err.message.contains("invalid board"), "{err}");
    let err = Gipf::parse_position("2 3 5 5/2 2 Q/WB/B_W/WB").unwrap_err();
    assert_eq!((err.line, err.column), (1, 9), "{err}");
}

/// The allocation-free move generator and `play` against the reference [`Gipf::children`]
/// (general resolution of every push), along random playouts on every board size and several
/// `K`, including positions where pushes complete rows.
#[test]
fn fast_moves_match_reference_children() {
    let mut rng = crate::zobrist::KeyStream::new(0x6A1F);
    let mut max_moves = 0;
    let mut row_moves = 0;
    for game in 0..400u64 {
        let side = 2 + (game % 6) as usize;
        let k = 2 + (game / 6 % 4) as u32;
        let cells = 3 * side * (side - 1) + 1;
        let pieces = (cells as u32 / 2).min(4 + (game % 13) as u32 * 3);
        let rows = (0..2 * side - 1)
            .map(|i| "_".repeat(side + i.min(2 * side - 2 - i)))
            .collect::<Vec<_>>()
            .join("/");
        let text = format!("{side} {k} {pieces} {pieces}/{pieces} {pieces} W/{rows}");
        let Ok(mut pos) = Gipf::parse_position(&text) else { continue };
        for _ in 0..200 {
            let reference = if pos.outcome().is_some() { Vec::new() } else { pos.children() };
            let mut moves = GipfMoves::new();
            pos.generate_moves(&mut moves);
            let ref_moves: Vec<GipfMove> = reference.iter().map(|(m, _)| *m).collect();
            assert_eq!(&moves[..], &ref_moves[..], "{}", pos.format_position());
            max_moves = max_moves.max(moves.len());
            for &(mv, st) in &reference {
                let mut child = pos.clone();
                child.play(mv);
                assert_eq!(child.state(), st, "{}", pos.format_position());
                assert_eq!(child.hash(), child.hash_from_scratch());
                if st.pieces() != pos.state().pieces() {
                    row_moves += 1;
                }
            }
            if moves.is_empty() {
                break;
            }
            let mv = moves[(rng.next_key() % moves.len() as u64) as usize];
            pos.play(mv);
        }
    }
    assert!(row_moves > 1000, "too few captures exercised: {row_moves}");
    assert!(max_moves < MAX_MOVES / 2, "{max_moves}");
}

/// Row detection with the window tables equals the line scan, on every push of positions along
/// random playouts for every S and K.
#[test]
fn window_row_detection_matches_line_scan() {
    let mut rng = crate::zobrist::KeyStream::new(0x7769);
    let mut rows = 0;
    for game in 0..240u64 {
        let side = 2 + (game % 6) as usize;
        let k = 2 + (game / 6 % 5) as u32;
        let cells = 3 * side * (side - 1) + 1;
        let pieces = (cells as u32 / 2).min(5 + (game % 11) as u32 * 3);
        let rows_text = (0..2 * side - 1)
            .map(|i| "_".repeat(side + i.min(2 * side - 2 - i)))
            .collect::<Vec<_>>()
            .join("/");
        let text = format!("{side} {k} {pieces} {pieces}/{pieces} {pieces} W/{rows_text}");
        let Ok(mut pos) = Gipf::parse_position(&text) else { continue };
        for _ in 0..150 {
            if pos.outcome().is_some() {
                // The mover may have an empty reserve: nothing can be pushed.
                break;
            }
            for push in 0..pos.geometry().pushes.len() {
                if let Some(st) = pos.pushed(push) {
                    let by_lines = pos.push_makes_run_by_lines(&st);
                    assert_eq!(pos.push_makes_run(&st), by_lines, "{}", pos.format_position());
                    rows += usize::from(by_lines);
                }
            }
            let mut moves = GipfMoves::new();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves[(rng.next_key() % moves.len() as u64) as usize]);
        }
    }
    assert!(rows > 1000, "too few rows completed: {rows}");
}

/// The one-line form of the start of the variant `(side, k, gw, gb)` (sides 2 to 4): three
/// pieces of each colour on the corners, White to move.
pub(crate) fn start_text(side: usize, k: u32, gw: u32, gb: u32) -> String {
    match side {
        2 => format!("2 {k} {gw} {gb}/{} {} W/WB/B_W/WB", gw - 3, gb - 3),
        3 => format!("3 {k} {gw} {gb}/{} {} W/W_B/____/B___W/____/W_B", gw - 3, gb - 3),
        _ => format!(
            "4 {k} {gw} {gb}/{} {} W/W__B/_____/______/B_____W/______/_____/W__B",
            gw - 3,
            gb - 3
        ),
    }
}

/// The colour exchange keeps the move list (same moves, same notation) and commutes with
/// playing a move, along random playouts with captures on several board sizes and `K`; it
/// swaps the parameters and the one-line form's colours, and twice is the identity.
#[test]
fn colour_swap_commutes_with_moves() {
    let mut rng = crate::zobrist::KeyStream::new(0x5A9C);
    let mut plies = 0;
    for game in 0..120u64 {
        let side = 2 + (game % 3) as usize;
        let k = 2 + (game / 3 % 3) as u32;
        let (gw, gb) = (4 + (game % 5) as u32, 3 + (game % 7) as u32);
        let mut pos = Gipf::parse_position(&start_text(side, k, gw, gb)).unwrap();
        let swapped = pos.colour_swapped();
        let [size, row, white, black] = pos.params();
        assert_eq!(swapped.params(), [size, row, black, white]);
        assert_eq!(swapped.colour_swapped(), pos);
        assert_eq!(swapped.hash(), swapped.hash_from_scratch());
        for _ in 0..80 {
            let sw = pos.colour_swapped();
            assert_eq!(sw.to_move(), !pos.to_move());
            assert_eq!(sw.outcome(), pos.outcome(), "{}", pos.format_position());
            let (mut moves, mut swapped_moves) = (GipfMoves::new(), GipfMoves::new());
            pos.generate_moves(&mut moves);
            sw.generate_moves(&mut swapped_moves);
            assert_eq!(moves, swapped_moves, "{}", pos.format_position());
            for &mv in &moves {
                let (mut x, mut y) = (pos.clone(), sw.clone());
                x.play(mv);
                y.play(mv);
                assert_eq!(x.colour_swapped(), y, "{} {mv:?}", pos.format_position());
                assert_eq!(pos.format_move(mv), sw.format_move(mv));
            }
            if moves.is_empty() {
                break;
            }
            pos.play(moves[(rng.next_key() % moves.len() as u64) as usize]);
            plies += 1;
        }
    }
    assert!(plies > 1000, "{plies} plies played");
}
