//! The official GIPF test pack (`datasets/gipf/official`): every expected output is reproduced,
//! compared ignoring blank lines, trailing spaces and CR.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn dataset(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("datasets/gipf/official").join(name)
}

/// Runs `bitsolve gipf` with `input` on stdin and returns stdout.
fn run_gipf(input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .arg("gipf")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn normalise(text: &str) -> Vec<String> {
    text.lines().map(|l| l.trim_end().to_string()).filter(|l| !l.is_empty()).collect()
}

fn check(test: &str) {
    let input = std::fs::read_to_string(dataset(&format!("{test}.in"))).unwrap();
    let expected = std::fs::read_to_string(dataset(&format!("{test}.out"))).unwrap();
    let got = run_gipf(&input);
    let (got, expected) = (normalise(&got), normalise(&expected));
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(g, e, "test {test}: line {} differs", i + 1);
    }
    assert_eq!(got.len(), expected.len(), "test {test}: number of lines");
}

#[test]
fn official_0_load_validation() {
    check("0");
}

#[test]
fn official_1_load_and_print() {
    check("1");
}

#[test]
fn official_2_simple_moves_and_errors() {
    check("2");
}

#[test]
fn official_3_error_found_rows() {
    check("3");
}

#[test]
fn official_4_row_removal() {
    check("4");
}

#[test]
fn official_5_ambiguous_removal_choices() {
    check("5");
}

#[test]
fn official_6_generation_counts() {
    check("6");
}

#[test]
fn official_6a_generation_listing_in_order() {
    check("6a");
}

#[test]
fn official_7_generation_with_choices_and_game_over() {
    check("7");
}

#[test]
fn official_7a_generation_listing_with_choices_in_order() {
    check("7a");
}

#[test]
fn official_8_ext_num() {
    check("8");
}

#[test]
fn official_9_solve_game_state() {
    check("9");
}

/// 9a has no expected output in the pack; these are the answers of the spec's independent model.
#[test]
fn official_9a_solve_matches_the_spec_model() {
    let input = std::fs::read_to_string(dataset("9a.in")).unwrap();
    let got = normalise(&run_gipf(&input));
    let answers: Vec<&str> =
        got.iter().filter(|l| l.ends_with("STRATEGY")).map(String::as_str).collect();
    assert_eq!(
        answers,
        ["WHITE_HAS_WINNING_STRATEGY", "WHITE_HAS_WINNING_STRATEGY", "BLACK_HAS_WINNING_STRATEGY"]
    );
}

#[test]
fn bad_input_never_stops_the_interpreter() {
    let input = "HELLO\r\nPRINT_GAME_BOARD\r\nDO_MOVE a1-b2\r\nLOAD_GAME_BOARD\r\n9 3 5 5\r\n\
                 1 1 W\r\nLOAD_GAME_BOARD\r\nx y\r\n1 1 W\r\nLOAD_GAME_BOARD\r\n2 3 5 5\r\n\
                 2 2 W\r\n W B \r\nB _ Q\r\n W B\r\nLOAD_GAME_BOARD\r\n2 3 5 5\r\n2 2 W\r\n\
                 W B\r\nB _ W\r\n W B\r\nDO_MOVE\r\nDO_MOVE a1\r\nDO_MOVE -\r\nDO_MOVE a1-b2 w:\r\n\
                 DO_MOVE a1-b2 w: zz 9\r\nDO_MOVE a1 - b2\r\nWINNING_SEQUENCE_EXIST\r\n\
                 WINNING_SEQUENCE_EXIST -3\r\nPRINT_GAME_STATE\r\nIS_GAME_OVER\r\n";
    let got = normalise(&run_gipf(input));
    assert_eq!(
        got,
        [
            "UNKNOWN_COMMAND",
            "EMPTY_BOARD",
            "EMPTY_BOARD",
            "WRONG_GAME_PARAMETERS",
            "WRONG_GAME_PARAMETERS",
            "WRONG_BOARD_CONTENT",
            "BOARD_STATE_OK",
            "BAD_MOVE__IS_WRONG_INDEX",
            "BAD_MOVE__IS_WRONG_INDEX",
            "BAD_MOVE__IS_WRONG_INDEX",
            "MOVE_COMMITTED",
            "BAD_MOVE_ROW_IS_FULL",
            "BAD_MOVE_ROW_IS_FULL",
            "WRONG_NUMBER_OF_MOVES",
            "WRONG_NUMBER_OF_MOVES",
            "bad_move B a1 - b2",
            // The first push filled the board: Black cannot move.
            "THE_WINNER_IS_WHITE",
        ]
    );
}

#[test]
fn winning_sequence_exist_is_depth_bounded() {
    // S=2, K=3, 1 0 W: White to move wins at once only if every push leaves Black (reserve 0)
    // to move: it does, so a win within 1 ply exists; within 0 plies none.
    let board = "LOAD_GAME_BOARD\n2 3 5 5\n1 0 W\n _ B\nB W W\n B B\n";
    let input = format!(
        "{board}WINNING_SEQUENCE_EXIST 0\nWINNING_SEQUENCE_EXIST 1\nWINNING_SEQUENCE_EXIST 5\n"
    );
    let got = normalise(&run_gipf(&input));
    assert_eq!(
        got,
        [
            "BOARD_STATE_OK",
            "NO_WINNING_SEQUENCE",
            "WHITE_HAS_WINNING_SEQUENCE",
            "WHITE_HAS_WINNING_SEQUENCE"
        ]
    );
    // Empty S=2 board, 2 2 W with K=3 and 4 pieces each: Black wins (official test 9), but
    // not within 1 ply.
    let board = "LOAD_GAME_BOARD\n2 3 4 4\n2 2 W\n _ _\n_ _ _\n _ _\n";
    let input = format!("{board}WINNING_SEQUENCE_EXIST 1\nWINNING_SEQUENCE_EXIST 20\n");
    let got = normalise(&run_gipf(&input));
    assert_eq!(got, ["BOARD_STATE_OK", "NO_WINNING_SEQUENCE", "BLACK_HAS_WINNING_SEQUENCE"]);
}

#[test]
fn solve_command_line_accepts_the_one_line_form() {
    let out = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args(["solve", "--game", "gipf", "--solver", "alphabeta,dfpn,pns"])
        .args(["--position", "2 3 4 4/2 2 W/__/___/__"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let results: Vec<&str> = text.lines().filter(|l| l.contains("plies=")).collect();
    assert_eq!(results.len(), 3, "{text}");
    assert!(results.iter().all(|l| l.starts_with("loss ")), "{text}");
}

/// `bitsolve solve --game gipf` reads the boards of official test 9 in the load format itself
/// (from a file and from standard input), runs df-pn with GIPF's own settings without any flag,
/// and finds the winner the official output names.
#[test]
fn solve_reads_load_format_boards_of_test_9() {
    let input = std::fs::read_to_string(dataset("9.in")).unwrap().replace('\r', "");
    let expected = normalise(&std::fs::read_to_string(dataset("9.out")).unwrap());
    let answers: Vec<&String> = expected.iter().filter(|l| l.contains("STRATEGY")).collect();
    let boards: Vec<&str> = input
        .split("LOAD_GAME_BOARD")
        .skip(1)
        .map(|block| block.split("SOLVE_GAME_STATE").next().unwrap())
        .collect();
    assert_eq!((boards.len(), answers.len()), (11, 11));
    let dir = std::env::temp_dir().join(format!("bitsolve-gipf-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (board, answer)) in boards.iter().zip(&answers).enumerate() {
        let white_to_move = board.trim().lines().nth(1).unwrap().trim_end().ends_with('W');
        let winner_is_white = answer.starts_with("WHITE");
        let want = if white_to_move == winner_is_white { "win" } else { "loss" };
        let mut command = Command::new(env!("CARGO_BIN_EXE_bitsolve"));
        command.args(["solve", "--game", "gipf", "--solver", "dfpn", "--tt-mib", "16"]);
        let out = if i % 2 == 0 {
            let path = dir.join(format!("{i}.txt"));
            std::fs::write(&path, board).unwrap();
            command.arg("--position-file").arg(&path).output().unwrap()
        } else {
            let mut child = command
                .args(["--position-file", "-"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            child.stdin.take().unwrap().write_all(board.as_bytes()).unwrap();
            child.wait_with_output().unwrap()
        };
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "board {i}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("options=tt16-eps2-nomob-probe"), "board {i}: {stdout}");
        let last = stdout.lines().last().unwrap();
        assert!(last.starts_with(&format!("{want} ")), "board {i}: {answer} -> {last}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
