//! The self-play data files of `bitsolve ataxx datagen`: their format, its checksums, and
//! `bitsolve ataxx data` (check and summarise files).
//!
//! # File format, version 3 (little-endian)
//!
//! A 64-byte header, then games in index order: each game's 32-byte records in the order
//! played, then one 32-byte *trailer* that closes the game and carries the CRC-32 of its
//! records. A file cut short (a crash, a full disk) ends in an incomplete game, which a resumed
//! run drops and plays again; a flipped bit anywhere is caught by the header's or a game's CRC.
//!
//! | bytes | header field |
//! |-------|--------------|
//! | 0..8 | magic `BSAXDATA` |
//! | 8..12 | format version (`u32`, [`VERSION`]) |
//! | 12..16 | record size (`u32`, 32) |
//! | 16..24 | seed (`u64`) |
//! | 24..32 | nodes per move (`u64`, 0 = no limit) |
//! | 32..36 | depth per move (`u32`, 0 = no limit) |
//! | 36..40 | least random plies (`u32`) |
//! | 40..44 | most random plies (`u32`) |
//! | 44..48 | evaluation: 0 the hand-made one, else the low 32 bits of the net's FNV-1a hash |
//! | 48..52 | most opening score (`u32`, `--max-opening-score`; 0 = no filter) |
//! | 52..56 | games with blocked squares, per mille (`u32`, `--blocked-share` x 1000) |
//! | 56..60 | CRC-32 of bytes 0..56 |
//! | 60..64 | reserved, 0 |
//!
//! | bytes | record field |
//! |-------|--------------|
//! | 0..8 | stones of `x` (the first player), stride-8 squares: `8 * rank + file`, a1 = bit 0 |
//! | 8..16 | stones of `o` |
//! | 16..24 | blocked squares of the 7x7 board |
//! | 24..26 | search score (`i16`) from the side to move's view, engine units (a stone ~ 100) |
//! | 26 | side to move: 0 = `x`, 1 = `o` |
//! | 27 | game result from the side to move's view (`i8`): 1 win, 0 draw, -1 loss |
//! | 28..32 | game index (`u32`) |
//!
//! | bytes | trailer field |
//! |-------|---------------|
//! | 0..8 | magic `BSAXGAME` |
//! | 8..12 | records of the game (`u32`) |
//! | 12..16 | CRC-32 (IEEE, as zlib's `crc32`) of the game's records |
//! | 16..26 | reserved, 0 |
//! | 26 | [`TRAILER_MARK`] (where a record has its side to move, 0 or 1) |
//! | 27 | game result for `x` (`i8`: 1, 0, -1) |
//! | 28..32 | game index (`u32`) |
//!
//! Positions whose score is a proven result are not written (the game is adjudicated there).
//!
//! Versions 1 and 2 (24-byte records without blocked squares, no checksums; a 48- and a 56-byte
//! header) are still read by `bitsolve ataxx data` and the trainer, not written.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::process::ExitCode;

use anyhow::{Context, bail, ensure};

/// Magic bytes at the start of every data file.
pub const MAGIC: &[u8; 8] = b"BSAXDATA";
/// Magic bytes at the start of a game's trailer.
pub const GAME_MAGIC: &[u8; 8] = b"BSAXGAME";
/// The format version written.
pub const VERSION: u32 = 3;
/// Bytes of the header.
pub const HEADER_SIZE: usize = 64;
/// Bytes of a record (and of a trailer).
pub const RECORD_SIZE: usize = 32;
/// Byte 26 of a trailer; a record has its side to move there (0 or 1).
pub const TRAILER_MARK: u8 = 0xFF;
/// The squares of the 7x7 board, stride 8.
pub const BOARD: u64 = 0x007F_7F7F_7F7F_7F7F;

/// The CRC-32 of `bytes` ([`bitsolve::checksum::crc32`]).
pub use bitsolve::checksum::crc32;

/// What a run writes in the header: the arguments a resumed run must share.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Seed of the openings.
    pub seed: u64,
    /// Nodes per move (0: no limit).
    pub nodes: u64,
    /// Depth per move (0: no limit).
    pub depth: u32,
    /// Least random opening plies.
    pub min_plies: u32,
    /// Most random opening plies.
    pub max_plies: u32,
    /// The evaluation's tag (0: hand-made).
    pub net_tag: u32,
    /// Most opening score (0: no filter).
    pub max_opening_score: u32,
    /// Games with blocked squares, per mille.
    pub blocked_permille: u32,
}

impl Header {
    /// The header's bytes, with its CRC.
    pub fn to_bytes(&self) -> [u8; HEADER_SIZE] {
        let mut h = [0u8; HEADER_SIZE];
        h[0..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12..16].copy_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
        h[16..24].copy_from_slice(&self.seed.to_le_bytes());
        h[24..32].copy_from_slice(&self.nodes.to_le_bytes());
        h[32..36].copy_from_slice(&self.depth.to_le_bytes());
        h[36..40].copy_from_slice(&self.min_plies.to_le_bytes());
        h[40..44].copy_from_slice(&self.max_plies.to_le_bytes());
        h[44..48].copy_from_slice(&self.net_tag.to_le_bytes());
        h[48..52].copy_from_slice(&self.max_opening_score.to_le_bytes());
        h[52..56].copy_from_slice(&self.blocked_permille.to_le_bytes());
        let crc = crc32(&h[0..56]);
        h[56..60].copy_from_slice(&crc.to_le_bytes());
        h
    }
}

/// One position of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Stones of `x` and `o` (stride 8).
    pub stones: [u64; 2],
    /// Blocked squares of the 7x7 board.
    pub blocked: u64,
    /// Search score from the side to move's view.
    pub score: i16,
    /// Side to move: 0 `x`, 1 `o`.
    pub side: u8,
    /// Result from the side to move's view: 1, 0, -1.
    pub wdl: i8,
}

/// A finished game's bytes: its records, then the trailer. `result_x` is the result for `x`.
pub fn game_bytes(records: &[Record], game: u32, result_x: i8) -> Vec<u8> {
    let mut out = Vec::with_capacity((records.len() + 1) * RECORD_SIZE);
    for r in records {
        out.extend_from_slice(&r.stones[0].to_le_bytes());
        out.extend_from_slice(&r.stones[1].to_le_bytes());
        out.extend_from_slice(&r.blocked.to_le_bytes());
        out.extend_from_slice(&r.score.to_le_bytes());
        out.push(r.side);
        out.push(r.wdl as u8);
        out.extend_from_slice(&game.to_le_bytes());
    }
    let crc = crc32(&out);
    out.extend_from_slice(GAME_MAGIC);
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(&[0u8; 10]);
    out.push(TRAILER_MARK);
    out.push(result_x as u8);
    out.extend_from_slice(&game.to_le_bytes());
    out
}

/// A trailer's fields: (records, CRC, game index), or `None` if `chunk` is not a trailer.
pub fn trailer(chunk: &[u8]) -> Option<(u32, u32, u32)> {
    if chunk.len() != RECORD_SIZE
        || chunk[26] != TRAILER_MARK
        || &chunk[0..8] != GAME_MAGIC
        || chunk[16..26].iter().any(|&b| b != 0)
    {
        return None;
    }
    let word =
        |at: usize| u32::from_le_bytes([chunk[at], chunk[at + 1], chunk[at + 2], chunk[at + 3]]);
    Some((word(8), word(12), word(28)))
}

/// What `bitsolve ataxx data` found in a file.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Format version.
    pub version: u32,
    /// Complete games.
    pub games: u64,
    /// Positions (records) of the complete games.
    pub positions: u64,
    /// Positions with at least one blocked square.
    pub blocked_positions: u64,
    /// Games by result for `x`: wins, draws, losses (version 3; earlier versions: 0).
    pub results: [u64; 3],
    /// Bytes after the last complete game (an incomplete game or a partial record).
    pub tail_bytes: u64,
    /// Distinct (stones, blocked squares, side to move), when asked for.
    pub unique: Option<u64>,
}

/// Reads, checks and summarises a data file of any version. Fails at the first damage found,
/// naming the byte offset and the game.
///
/// # Errors
/// A file that cannot be read, a wrong magic, version or record size, a header or game whose
/// CRC differs, a trailer whose count or index does not match its records, games out of order.
pub fn summarise(path: &str, unique: bool) -> anyhow::Result<Summary> {
    let file = File::open(path).with_context(|| format!("cannot open {path}"))?;
    let mut input = BufReader::with_capacity(1 << 20, file);
    let mut head = [0u8; 16];
    input.read_exact(&mut head).with_context(|| format!("{path}: shorter than a header"))?;
    ensure!(&head[0..8] == MAGIC, "{path}: not an Ataxx data file (magic {:?})", &head[0..8]);
    let version = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
    let size = u32::from_le_bytes([head[12], head[13], head[14], head[15]]) as usize;
    let (header_size, record_size) = match version {
        1 => (48, 24),
        2 => (56, 24),
        VERSION => (HEADER_SIZE, RECORD_SIZE),
        v => bail!("{path}: data format version {v}: this build reads 1, 2 and 3"),
    };
    ensure!(size == record_size, "{path}: record size {size}, version {version} has {record_size}");
    let mut rest = vec![0u8; header_size - 16];
    input.read_exact(&mut rest).with_context(|| format!("{path}: shorter than a header"))?;
    if version == VERSION {
        let mut whole = head.to_vec();
        whole.extend_from_slice(&rest);
        let want = u32::from_le_bytes([whole[56], whole[57], whole[58], whole[59]]);
        ensure!(crc32(&whole[0..56]) == want, "{path}: header damaged (its CRC differs)");
        ensure!(whole[60..64] == [0; 4], "{path}: header damaged (reserved bytes 60..64 not 0)");
    }
    let mut sum = Summary { version, ..Summary::default() };
    let mut seen: HashSet<[u64; 4]> = HashSet::new();
    let mut game: Vec<u8> = Vec::new();
    let mut offset = header_size as u64;
    let mut next_game: Option<u32> = None;
    let mut chunk = vec![0u8; record_size];
    loop {
        let got =
            read_full(&mut input, &mut chunk).with_context(|| format!("cannot read {path}"))?;
        if got < record_size {
            sum.tail_bytes = (game.len() + got) as u64;
            break;
        }
        let index = u32::from_le_bytes([
            chunk[record_size - 4],
            chunk[record_size - 3],
            chunk[record_size - 2],
            chunk[record_size - 1],
        ]);
        if version < VERSION {
            // No trailers: a game ends where the next index starts.
            ensure!(
                next_game.is_none_or(|g| index >= g),
                "{path}: byte {offset}: game {index} after game {}",
                next_game.unwrap_or(0)
            );
            if next_game != Some(index) {
                sum.games += 1;
                next_game = Some(index);
            }
            count(&chunk, &OLD_LAYOUT, &mut sum, unique.then_some(&mut seen));
        } else if let Some((records, crc, g)) = trailer(&chunk) {
            let n = (game.len() / RECORD_SIZE) as u32;
            ensure!(
                records == n,
                "{path}: byte {offset}: game {g} closes {records} records, has {n}"
            );
            ensure!(
                crc32(&game) == crc,
                "{path}: byte {offset}: game {g} damaged (its CRC differs)"
            );
            ensure!(
                next_game.is_none_or(|want| g == want),
                "{path}: byte {offset}: game {g} where game {} was due",
                next_game.unwrap_or(0)
            );
            for rec in game.chunks_exact(RECORD_SIZE) {
                let rec_game = u32::from_le_bytes([rec[28], rec[29], rec[30], rec[31]]);
                ensure!(
                    rec_game == g,
                    "{path}: byte {offset}: a record of game {rec_game} in game {g}"
                );
                count(rec, &LAYOUT, &mut sum, unique.then_some(&mut seen));
            }
            let result = chunk[27] as i8;
            ensure!((-1..=1).contains(&result), "{path}: byte {offset}: game {g} result {result}");
            sum.results[(1 - result) as usize] += 1;
            sum.games += 1;
            next_game = Some(g + 1);
            game.clear();
        } else {
            game.extend_from_slice(&chunk);
        }
        offset += record_size as u64;
    }
    if unique {
        sum.unique = Some(seen.len() as u64);
    }
    Ok(sum)
}

/// Where a record keeps its blocked squares (if it has them) and its side to move.
struct Layout {
    blocked: Option<usize>,
    side: usize,
}

/// Records of versions 1 and 2.
const OLD_LAYOUT: Layout = Layout { blocked: None, side: 18 };
/// Records of version 3.
const LAYOUT: Layout = Layout { blocked: Some(16), side: 26 };

/// Counts one record: its position, its blocked squares and, with `seen`, its key.
fn count(rec: &[u8], layout: &Layout, sum: &mut Summary, seen: Option<&mut HashSet<[u64; 4]>>) {
    let word = |at: usize| u64::from_le_bytes(rec[at..at + 8].try_into().expect("8 bytes"));
    let blocked = layout.blocked.map_or(0, word);
    sum.positions += 1;
    sum.blocked_positions += u64::from(blocked != 0);
    if let Some(seen) = seen {
        seen.insert([word(0), word(8), blocked, u64::from(rec[layout.side])]);
    }
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Arguments of `bitsolve ataxx data`.
#[derive(clap::Args, Debug)]
pub struct DataArgs {
    /// Data files written by `bitsolve ataxx datagen` (any format version).
    #[arg(required = true)]
    files: Vec<String>,
    /// Also count distinct positions (stones, blocked squares and side to move) per file and
    /// over all files (memory: about 60 bytes a position).
    #[arg(long)]
    unique: bool,
}

/// Runs `bitsolve ataxx data`: one line per file, a total line; exit 1 if any file is damaged
/// (the others are still reported).
pub fn run(args: &DataArgs) -> ExitCode {
    let mut failed = false;
    let (mut games, mut positions) = (0u64, 0u64);
    let mut lines = Vec::new();
    for path in &args.files {
        match summarise(path, args.unique) {
            Ok(s) => {
                games += s.games;
                positions += s.positions;
                let unique = s.unique.map_or(String::new(), |u| format!(" unique={u}"));
                let results = if s.version >= VERSION {
                    format!(
                        " x_wins={} draws={} x_losses={}",
                        s.results[0], s.results[1], s.results[2]
                    )
                } else {
                    " checksums=none".to_string()
                };
                lines.push(format!(
                    "{path}: ok version={} games={} positions={} blocked_positions={}{unique}{results} incomplete_tail_bytes={}",
                    s.version, s.games, s.positions, s.blocked_positions, s.tail_bytes
                ));
            }
            Err(e) => {
                failed = true;
                lines.push(format!("{path}: damaged: {e:#}"));
            }
        }
    }
    lines.push(format!("total: games={games} positions={positions}"));
    // A reader that stops early (`| head -1`) is not an error of the files: stop writing.
    let mut out = std::io::stdout().lock();
    for line in &lines {
        if writeln!(out, "{line}").is_err() {
            break;
        }
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    fn header() -> Header {
        Header {
            seed: 9,
            nodes: 5000,
            depth: 0,
            min_plies: 14,
            max_plies: 17,
            net_tag: 7,
            max_opening_score: 1280,
            blocked_permille: 250,
        }
    }

    fn record(i: u64) -> Record {
        Record {
            stones: [i, i << 8],
            blocked: if i.is_multiple_of(2) { 1 << 24 } else { 0 },
            score: i as i16 - 3,
            side: (i % 2) as u8,
            wdl: 1 - (i % 3) as i8,
        }
    }

    fn file_with(games: &[(u32, usize)]) -> Vec<u8> {
        let mut bytes = header().to_bytes().to_vec();
        for &(g, n) in games {
            let recs: Vec<Record> = (0..n as u64).map(record).collect();
            bytes.extend(game_bytes(&recs, g, 0));
        }
        bytes
    }

    fn write_temp(name: &str, bytes: &[u8]) -> String {
        let path =
            std::env::temp_dir().join(format!("bitsolve-datafile-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).expect("write temp file");
        path.to_string_lossy().into_owned()
    }

    #[test]
    fn a_whole_file_is_summarised() {
        let path = write_temp("whole", &file_with(&[(0, 5), (1, 0), (2, 3)]));
        let s = summarise(&path, true).expect("valid file");
        assert_eq!((s.version, s.games, s.positions, s.tail_bytes), (3, 3, 8, 0));
        assert_eq!(s.blocked_positions, 5);
        assert_eq!(s.results, [0, 3, 0]);
        // Records 0..3 of the third game repeat records of the first.
        assert_eq!(s.unique, Some(5));
        std::fs::remove_file(path).ok();
    }

    #[test]
    fn every_flipped_byte_is_refused_or_cut_off() {
        let good = file_with(&[(0, 4), (1, 2)]);
        for at in 0..good.len() {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            let path = write_temp(&format!("flip{at}"), &bad);
            let got = summarise(&path, false);
            std::fs::remove_file(&path).ok();
            // A flip in a trailer's magic or mark turns it into a record: the game is then
            // incomplete, never counted as whole.
            match got {
                Err(_) => {}
                Ok(s) => {
                    assert!(
                        s.games < 2 && s.tail_bytes > 0,
                        "flip at byte {at} went unseen: {s:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_cut_file_keeps_its_complete_games() {
        let good = file_with(&[(0, 4), (1, 2)]);
        let cut = &good[..good.len() - 40];
        let path = write_temp("cut", cut);
        let s = summarise(&path, false).expect("a cut file is readable");
        std::fs::remove_file(&path).ok();
        assert_eq!((s.games, s.positions), (1, 4));
        assert_eq!(s.tail_bytes, (3 * RECORD_SIZE - 40) as u64);
    }
}
