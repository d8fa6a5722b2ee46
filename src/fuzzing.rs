//! Fuzz targets for every input surface of the library, and the small mutation engine of the
//! stable fuzz driver (`bitsolve fuzz`, `tests/fuzz_smoke.rs`). The cargo-fuzz crate in
//! `fuzz/` calls the same targets with libFuzzer's inputs.
//!
//! A target takes any bytes and must neither panic nor take long; where the surface has a
//! property beyond that (a position written back reads back the same, every GIPF command gets
//! an answer, ...) the target checks it and panics with a message when it fails. Targets whose
//! code lives in the binary (the UAI and arbiter loops) are added by `bitsolve fuzz`.

use std::io::{self, Write};

use crate::games::szochy::{Szochy, instance::parse_line, parse_tests};
use crate::lineio::{LineError, LineReader, check};
use crate::protocol::gipf::Interpreter;
use crate::{
    Ataxx, Digraph, Gauss, Geography, Gipf, MoveList, Notation, SolverKind, dataset, results,
};

/// A fuzz target: a name, the function, and where its seed inputs come from.
#[derive(Clone, Copy)]
pub struct Target {
    /// The name used on the command line and for the cargo-fuzz target.
    pub name: &'static str,
    /// Runs one input; panics when a property fails.
    pub run: fn(&[u8]),
    /// Seed files (paths from the repository root); each line or the whole file is a seed,
    /// as [`Target::whole_files`] says.
    pub seed_files: &'static [&'static str],
    /// Whether a seed is a whole file (command streams, JSON) rather than one line.
    pub whole_files: bool,
    /// Seeds written here (for surfaces without a file of examples).
    pub seeds: &'static [&'static str],
    /// Words the mutator splices in (the surface's keywords).
    pub words: &'static [&'static str],
}

const ATAXX_FILES: &[&str] = &[
    "datasets/ataxx/random-small.tsv",
    "datasets/ataxx/small-boards.tsv",
    "datasets/ataxx/openings.txt",
    "datasets/perft/ataxx.txt",
];
const ATAXX_WORDS: &[&str] = &["x", "o", "-", "/", " x 0 1", "a1", "g7", "a7a6", "0000", "b2d4"];

/// Every library target.
pub const TARGETS: &[Target] = &[
    Target {
        name: "lineio",
        run: lineio,
        seed_files: &["datasets/gipf/official/1.in", "datasets/geography/contest-transcript.txt"],
        whole_files: true,
        seeds: &["uai\r\nisready\r\u{7f}\n\nposition startpos\rgo", "a\0b\n\r\r\n"],
        words: &["\r", "\n", "\r\n", "\t", "\u{7f}", "ż", "\u{0}"],
    },
    Target {
        name: "ataxx",
        run: notation::<Ataxx<false>>,
        seed_files: ATAXX_FILES,
        whole_files: false,
        seeds: &["x5o/7/7/7/7/7/o5x x 0 1\nf1\ng1e3\n0000", "7/7/7/7/7/7/7 o 99 300\na1"],
        words: ATAXX_WORDS,
    },
    Target {
        name: "ataxx-polish",
        run: notation::<Ataxx<true>>,
        seed_files: ATAXX_FILES,
        whole_files: false,
        seeds: &["x5o/7/7/7/7/7/o5x x 0 1\na7a6\ng1e3", "xo/ox x 0 1\na1b1"],
        words: ATAXX_WORDS,
    },
    Target {
        name: "gipf-notation",
        run: notation::<Gipf>,
        seed_files: &["datasets/gipf/random-small.tsv", "datasets/gipf/small-variants.tsv"],
        whole_files: false,
        seeds: &["2 3 5 5/2 2 W/WB/B_W/WB\na1-b2\na1-b2:0"],
        words: &["W", "B", "_", "/", "a1-b2", ":1", " 4 4 15 15"],
    },
    Target {
        name: "gipf-interpreter",
        run: gipf_interpreter,
        seed_files: &[
            "datasets/gipf/official/0.in",
            "datasets/gipf/official/1.in",
            "datasets/gipf/official/2.in",
            "datasets/gipf/official/3.in",
            "datasets/gipf/official/4.in",
            "datasets/gipf/official/5.in",
            "datasets/gipf/official/6.in",
            "datasets/gipf/official/7.in",
            "datasets/gipf/official/8.in",
            "datasets/gipf/official/9.in",
        ],
        whole_files: true,
        seeds: &["LOAD_GAME_BOARD\n2 3 4 4\n2 1 W\n _ _\n_ _ _\n _ _\nSOLVE_GAME_STATE\n"],
        words: &[
            "LOAD_GAME_BOARD\n",
            "DO_MOVE a1-b2",
            " w: ",
            "PRINT_GAME_BOARD\n",
            "PRINT_GAME_STATE\n",
            "IS_GAME_OVER\n",
            "GEN_ALL_POS_MOV_EXT_NUM\n",
            "GEN_ALL_POS_MOV\n",
            "SOLVE_GAME_STATE\n",
            "WINNING_SEQUENCE_EXIST 3\n",
            "\r\n",
        ],
    },
    Target {
        name: "gauss",
        run: notation::<Gauss>,
        seed_files: &["datasets/gauss/endgames.tsv"],
        whole_files: false,
        seeds: &["d4r\nd5b"],
        words: &["r", "b", "/", "d4r"],
    },
    Target {
        name: "geography",
        run: notation::<Geography>,
        seed_files: &["datasets/geography/contest-transcript.txt"],
        whole_files: false,
        seeds: &["4 0 4 0 1 1 2 2 3 3 0\n1\n2", "5 2 4 0 1 1 2 2 3 3 4\n1\n3"],
        words: &["0", "255", " ", "-1"],
    },
    Target {
        name: "digraph",
        run: notation::<Digraph>,
        seed_files: &["datasets/digraph/random-graphs.tsv"],
        whole_files: false,
        seeds: &["0|1;2;0;\n1\n2"],
        words: &["|", ";", ",", "0", "63"],
    },
    Target {
        name: "szochy",
        run: szochy,
        seed_files: &["datasets/szochy/official.tsv"],
        whole_files: false,
        seeds: &["3 3|2,2|k1,1 n3,3\nk1,1-1,2"],
        words: &["|", ",", "k", "q", "n", "b", "r", "p", "99999999999"],
    },
    Target {
        name: "szochy-json",
        run: szochy_json,
        seed_files: &["datasets/szochy/official.json"],
        whole_files: true,
        seeds: &[r#"[{"test": 0, "N": 1, "M": 3, "holes": [], "pieces": [["k", 1, 2]]}]"#],
        words: &["[", "]", "{", "}", "\"N\"", "-9223372036854775808", "1e999", "\"\\u0000\""],
    },
    Target {
        name: "dataset",
        run: dataset_reader,
        seed_files: &["datasets/ataxx/random-small.tsv", "datasets/gipf/random-small.tsv"],
        whole_files: true,
        seeds: &["id\tposition\texpected\na\tx5o/7/7/7/7/7/o5x x 0 1\twin\n"],
        words: &["\t", "#", "win", "loss", "draw", "\n"],
    },
    Target {
        name: "results",
        run: results_reader,
        seed_files: &[],
        whole_files: true,
        seeds: &[
            "game,id,solver,threads,outcome,nodes\nataxx,a,dfpn,1,win,10\n",
            "a,\"b,\"\"c\"\"\",d\n\"unterminated\n",
        ],
        words: &[",", "\"", "\"\"", "\n", "win", "unknown"],
    },
];

/// The target named `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

/// The input as text, the way a reader of a file that is not UTF-8 would see it.
fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// The shared line reader: line numbers count up by one, good lines hold no terminator or
/// control byte and respect the cap, and reading the bytes one at a time gives the same lines.
pub fn lineio(data: &[u8]) {
    let limit = 1 + usize::from(data.first().copied().unwrap_or(0)) % 64;
    let whole: Vec<_> = LineReader::with_limit(data, limit).map(|l| l.expect("slice")).collect();
    for (i, line) in whole.iter().enumerate() {
        assert_eq!(line.number, i + 1);
        match &line.content {
            Ok(t) => {
                assert!(t.len() <= limit, "{t:?} longer than {limit}");
                assert!(check(t.as_bytes()).is_ok(), "{t:?}");
            }
            Err(LineError::TooLong { len, .. }) => assert!(*len > limit),
            Err(e) => assert!(e.column() >= 1),
        }
    }
    let trickled: Vec<_> = LineReader::with_limit(io::BufReader::with_capacity(1, data), limit)
        .map_while(Result::ok)
        .collect();
    assert_eq!(trickled, whole, "reading byte by byte gave other lines");
    // The eager reader gives the same good lines.
    let eager: Vec<_> = LineReader::with_limit(data, limit)
        .eager()
        .map_while(Result::ok)
        .filter_map(|l| l.content.ok())
        .collect();
    let good: Vec<_> = whole.iter().filter_map(|l| l.content.clone().ok()).collect();
    assert_eq!(eager, good);
}

/// A position (first line) and moves (the other lines) of game `G`: a position that reads
/// writes back to a text that reads to the same position; a move that reads is legal, writes
/// back to a text that reads to the same move, and is played.
pub fn notation<G: Notation>(data: &[u8]) {
    let text = text(data);
    let mut lines = text.lines();
    let Some(first) = lines.next() else { return };
    // A dataset line: the position is the second tab-separated field.
    let first = first.split('\t').nth(1).unwrap_or(first);
    let Ok(mut pos) = G::parse_position(first) else { return };
    let written = pos.format_position();
    let again = G::parse_position(&written)
        .unwrap_or_else(|e| panic!("{first:?} reads, but its text {written:?} does not: {e}"));
    assert_eq!(again.format_position(), written, "{first:?} does not read back the same");
    assert_eq!(again.hash(), pos.hash(), "{first:?}: {written:?} reads to another position");
    let mut moves = G::Moves::default();
    for line in lines {
        if pos.outcome().is_some() {
            break;
        }
        let Ok(mv) = pos.parse_move(line) else { continue };
        moves.clear();
        pos.generate_moves(&mut moves);
        assert!(moves.contains(&mv), "{line:?} reads to an illegal move in {written:?}");
        let text = pos.format_move(mv);
        let back = pos
            .parse_move(&text)
            .unwrap_or_else(|e| panic!("move {line:?} writes as {text:?}, which fails: {e}"));
        assert_eq!(back, mv, "move {line:?} writes as {text:?}, which reads to another move");
        pos.play(mv);
    }
}

/// Szochy: the one-line instance form, then moves as for [`notation`].
pub fn szochy(data: &[u8]) {
    let text = text(data);
    if let Some(first) = text.lines().next() {
        let first = first.split('\t').nth(1).unwrap_or(first);
        let _ = parse_line(first);
    }
    notation::<Szochy>(data);
}

/// Szochy's official JSON test format.
pub fn szochy_json(data: &[u8]) {
    if let Ok(cases) = parse_tests(&text(data)) {
        for case in cases.iter().take(64) {
            let _ = case.instance();
        }
    }
}

/// Dataset files.
pub fn dataset_reader(data: &[u8]) {
    let (entries, errors) = dataset::read_dataset_bytes(data);
    for e in &errors {
        assert!(e.line >= 1 && e.column >= 1, "{e:?}");
    }
    for e in &entries {
        assert!(e.line >= 1);
    }
}

/// Result files (CSV) and their field splitter.
pub fn results_reader(data: &[u8]) {
    let (rows, errors) = results::parse_csv(data);
    for e in &errors {
        assert!(e.line >= 1 && e.column >= 1, "{e:?}");
    }
    let _ = rows;
    let text = text(data);
    for line in text.lines().take(16) {
        // A line of one empty field (`""`) writes back as an empty line, which has no field.
        if let Ok(fields) = results::split_csv(line)
            && !(fields.len() == 1 && fields[0].1.is_empty())
        {
            let joined: Vec<String> = fields.iter().map(|(_, f)| results::csv_field(f)).collect();
            let again = results::split_csv(&joined.join(","))
                .unwrap_or_else(|e| panic!("{line:?}: its fields written back fail: {e:?}"));
            let texts =
                |v: &[(usize, String)]| v.iter().map(|(_, f)| f.clone()).collect::<Vec<_>>();
            assert_eq!(texts(&again), texts(&fields), "{line:?}: fields written back differ");
        }
    }
}

/// Node cap of each search in the interpreter target: enough to solve small boards, small
/// enough that a whole stream of solving commands ends in milliseconds.
pub const GIPF_NODE_CAP: u64 = 3_000;

/// Collects each answer of the interpreter and checks that it is a non-empty set of lines.
struct Answers(usize);

impl Write for Answers {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        assert!(!buf.is_empty() && buf.ends_with(b"\n"), "answer {buf:?} is not lines");
        assert!(std::str::from_utf8(buf).is_ok(), "answer {buf:?} is not text");
        self.0 += 1;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The GIPF interpreter on a whole command stream (searches capped at [`GIPF_NODE_CAP`]
/// nodes): every command gets an answer of whole lines of text, and a stream with a
/// non-blank line gets at least one.
pub fn gipf_interpreter(data: &[u8]) {
    let mut interp = Interpreter::new(1, SolverKind::Auto).with_node_cap(GIPF_NODE_CAP);
    let mut answers = Answers(0);
    interp.serve(&mut LineReader::new(data), &mut answers).expect("in memory");
    let has_command = LineReader::new(data)
        .map_while(Result::ok)
        .any(|l| l.text().map_or(true, |t| !t.trim().is_empty()));
    assert_eq!(answers.0 > 0, has_command, "answers: {}", answers.0);
}

/// A small, fast pseudo-random generator (xorshift64*), for the mutator.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value).
    pub fn new(seed: u64) -> Self {
        Rng(crate::zobrist::splitmix64(seed).1 | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// The hostile byte strings every target gets spliced in.
pub const HOSTILE: &[&[u8]] =
    &[b"\xff\xfe", b"\r", b"\r\n", b"\0", b"\n", b"\x1b[2J", b"\xc3", b"\xf0\x9f\x98", b"\t"];

/// Largest input the mutator makes (a line past the 64 KiB cap is made on purpose, rarely).
pub const MAX_INPUT: usize = 8192;

/// Mutates `input` in place: a few random edits (bytes, hostile strings, the target's words,
/// copies, deletions, splices of `other`), and rarely a line longer than the line cap.
pub fn mutate(input: &mut Vec<u8>, other: &[u8], words: &[&str], rng: &mut Rng) {
    let edits = 1 + rng.below(6);
    for _ in 0..edits {
        let at = rng.below(input.len() + 1);
        match rng.below(10) {
            0 => {
                if at < input.len() {
                    input[at] ^= 1 << rng.below(8);
                }
            }
            1 => input.insert(at, rng.next_u64() as u8),
            2 => {
                let h = HOSTILE[rng.below(HOSTILE.len())];
                input.splice(at..at, h.iter().copied());
            }
            3 | 4 if !words.is_empty() => {
                let w = words[rng.below(words.len())].as_bytes();
                input.splice(at..at, w.iter().copied());
            }
            5 => {
                let end = (at + 1 + rng.below(16)).min(input.len());
                input.drain(at.min(end)..end);
            }
            6 => {
                let end = (at + 1 + rng.below(32)).min(input.len());
                let copy: Vec<u8> = input[at.min(end)..end].to_vec();
                let to = rng.below(input.len() + 1);
                input.splice(to..to, copy);
            }
            7 if !other.is_empty() => {
                let from = rng.below(other.len());
                let end = (from + 1 + rng.below(64)).min(other.len());
                input.splice(at..at, other[from..end].iter().copied());
            }
            8 => {
                // A digit string: numbers at and past the edges of their types.
                let n: &[u8] = match rng.below(5) {
                    0 => b"0",
                    1 => b"-1",
                    2 => b"4294967296",
                    3 => b"18446744073709551616",
                    _ => b"99999999999999999999999999",
                };
                input.splice(at..at, n.iter().copied());
            }
            _ => {
                if at < input.len() {
                    input[at] = rng.next_u64() as u8;
                }
            }
        }
    }
    if rng.below(20_000) == 0 {
        let at = rng.below(input.len() + 1);
        input.splice(at..at, std::iter::repeat_n(b'x', crate::lineio::MAX_LINE + 7));
    } else {
        input.truncate(MAX_INPUT);
    }
}

/// The seed inputs of `target`, read from the repository at `root` (missing files are
/// skipped) plus its written seeds.
pub fn seeds(target: &Target, root: &std::path::Path) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = target.seeds.iter().map(|s| s.as_bytes().to_vec()).collect();
    for file in target.seed_files {
        let Ok(bytes) = std::fs::read(root.join(file)) else { continue };
        if target.whole_files {
            out.push(bytes);
        } else {
            out.extend(
                bytes
                    .split(|&b| b == b'\n')
                    .filter(|l| !l.is_empty() && !l.starts_with(b"#"))
                    .map(<[u8]>::to_vec),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_runs_its_seeds_and_some_mutations() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut rng = Rng::new(1);
        for t in TARGETS {
            let seeds = seeds(t, root);
            assert!(!seeds.is_empty(), "{}", t.name);
            for s in seeds.iter().take(20) {
                (t.run)(s);
                let mut m = s.clone();
                mutate(&mut m, &seeds[0], t.words, &mut rng);
                (t.run)(&m);
            }
        }
    }

    #[test]
    fn mutations_reach_hostile_bytes() {
        let mut rng = Rng::new(7);
        let mut hostile = 0;
        for _ in 0..1000 {
            let mut m = b"isready".to_vec();
            mutate(&mut m, b"", &[], &mut rng);
            hostile += usize::from(m.iter().any(|&b| b == 0xff || b == b'\r' || b == 0));
        }
        assert!(hostile > 100, "{hostile}");
    }
}
