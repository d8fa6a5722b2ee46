//! The contest client: connects, plays one game, logs it and reports the result.
//!
//! Protocol (see `datasets/geography/PROTOCOL.md`): the server sends `200 <position>` (our move;
//! the second player's `200` already contains the first move), `220 <v>` (the opponent moved to
//! `v`; our move), `230`/`231` (won), `240`/`241` (lost; `240` replaces the last `220`), `999
//! <text>` (error). We answer `210 <v>` in one write on a `TCP_NODELAY` socket, and disconnect
//! after any code `>= 230`.

use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use bitsolve::lineio::LineReader;
use bitsolve::{Game, Geography, Notation};

use super::player::Strategy;

/// How a game ended for us.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// `230`: we won by the rules.
    Won,
    /// `231`: we won, the opponent ran out of time.
    WonOnTime,
    /// `240`: we lost by the rules.
    Lost,
    /// `241`: we lost on time.
    LostOnTime,
}

impl GameEnd {
    /// Whether we won.
    pub fn is_win(self) -> bool {
        matches!(self, GameEnd::Won | GameEnd::WonOnTime)
    }
}

/// Plays one game against the server at `addr`, writing the transcript to `log`.
///
/// # Errors
/// Connection failures, a malformed or unexpected server message, a `999` error, or the server
/// closing the connection before a result.
pub fn play(addr: &str, strategy: &mut Strategy, log: &mut dyn Write) -> Result<GameEnd> {
    let stream = TcpStream::connect(addr).with_context(|| format!("connecting to {addr}"))?;
    stream.set_nodelay(true).context("setting TCP_NODELAY")?;
    let mut writer = stream.try_clone().context("cloning the socket")?;
    let mut reader = LineReader::new(BufReader::new(stream));
    let start = Instant::now();
    let mut pos: Option<Geography> = None;
    loop {
        let line = reader.next_line().context("reading from the server")?;
        let received = Instant::now();
        let Some(line) = line else {
            bail!("the server closed the connection before the game ended");
        };
        let msg = match &line.content {
            Ok(text) => text.trim(),
            Err(e) => {
                // Not a message of the protocol: noted and skipped; the server's next line
                // (or its timeout) decides the game.
                let at = start.elapsed().as_secs_f64();
                let _ = writeln!(log, "[{at:8.3}s] Received an unreadable line: {e}");
                continue;
            }
        };
        if msg.is_empty() {
            continue;
        }
        let _ = writeln!(log, "[{:8.3}s] Received: {msg}", start.elapsed().as_secs_f64());
        let (code, rest) = msg.split_once(' ').unwrap_or((msg, ""));
        match code {
            "200" => {
                let p = Geography::parse_position(rest)
                    .map_err(|e| anyhow!("bad position in `200`: {e}"))?;
                pos = Some(p);
            }
            "220" => {
                let p = pos.as_mut().ok_or_else(|| anyhow!("`220` before the game started"))?;
                let mv = p.parse_move(rest).map_err(|e| anyhow!("bad opponent move: {e}"))?;
                p.play(mv);
            }
            "230" => return Ok(GameEnd::Won),
            "231" => return Ok(GameEnd::WonOnTime),
            "240" => return Ok(GameEnd::Lost),
            "241" => return Ok(GameEnd::LostOnTime),
            "999" => bail!("the server reported an error: {rest}"),
            _ => bail!("unexpected message from the server: `{msg}`"),
        }
        let p = pos.as_mut().ok_or_else(|| anyhow!("no position"))?;
        let mv = strategy
            .choose(p, received)
            .ok_or_else(|| anyhow!("asked to move without a legal move"))?;
        p.play(mv);
        let reply = format!("210 {mv}\n");
        writer.write_all(reply.as_bytes()).context("sending our move")?;
        let took = received.elapsed().as_secs_f64() * 1000.0;
        let at = start.elapsed().as_secs_f64();
        let _ = writeln!(log, "[{at:8.3}s] Sent: {} ({took:.1} ms)", reply.trim());
        if let Some(note) = strategy.last_note() {
            let _ = writeln!(log, "           ({note})");
        }
        if p.plain().outcome().is_some() {
            let _ = writeln!(log, "(the opponent has no move left)");
        }
    }
}
