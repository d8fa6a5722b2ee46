//! Self-play data for tuning the Ataxx evaluation (`scripts/ataxx_tune.py`).
//!
//! Plays `games` games of standard-rules Ataxx from the 7x7 start: a random opening of 2 to 8
//! plies (clones only), then the engine against itself with `nodes` nodes per move. Every later
//! position that is not over becomes one CSV row: the game's result from the side to move's
//! view (1, 0.5, 0), the phase, the evaluation features and the FEN.
//!
//! ```text
//! cargo run --release --example ataxx_selfplay -- 600 4000 1 > datasets/ataxx/tuning/selfplay.csv
//! ```
//! Arguments: games (default 100), nodes per move (default 4000), seed (default 1).

use bitsolve::games::ataxx::FEATURES;
use bitsolve::search::engine::{Engine, EngineOptions, Evaluate, SearchLimits};
use bitsolve::zobrist::KeyStream;
use bitsolve::{AtaxxStandard, Game, Notation, Outcome};

/// Plies after which an unfinished game is adjudicated a draw.
const MAX_PLIES: usize = 600;

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("a number")).collect();
    let games = args.first().copied().unwrap_or(100);
    let nodes = args.get(1).copied().unwrap_or(4000);
    let mut rng = KeyStream::new(args.get(2).copied().unwrap_or(1));
    let mut engine = Engine::<AtaxxStandard>::new(&EngineOptions::default());
    let header: Vec<String> = (0..FEATURES).map(|i| format!("f{i}")).collect();
    println!("result,phase,{},fen", header.join(","));
    let mut totals = [0u32; 3];
    for game in 0..games {
        engine.clear();
        let mut pos = AtaxxStandard::startpos();
        let opening = 2 + (rng.next_key() % 7) as usize;
        let mut history: Vec<u64> = Vec::new();
        let mut rows: Vec<(bitsolve::Player, String)> = Vec::new();
        let mut ply = 0;
        let result_first = loop {
            if let Some(outcome) = pos.outcome() {
                break score_for_first(&pos, outcome);
            }
            if pos.is_rule_draw() || ply >= MAX_PLIES {
                break 0.5;
            }
            let mut moves = <AtaxxStandard as Game>::Moves::default();
            pos.generate_moves(&mut moves);
            let mv = if ply < opening {
                // Random clones keep the openings balanced (a random jump gives a stone away).
                let clones: Vec<_> = moves.iter().copied().filter(|m| m.is_clone()).collect();
                let pool = if clones.is_empty() { &moves[..] } else { &clones[..] };
                pool[(rng.next_key() % pool.len() as u64) as usize]
            } else {
                let f = pos.eval_features();
                let fields: Vec<String> = f.iter().map(ToString::to_string).collect();
                rows.push((
                    pos.side_to_move(),
                    format!("{},{},{}", pos.phase(), fields.join(","), pos.format_position()),
                ));
                let limits = SearchLimits { nodes: Some(nodes), ..SearchLimits::default() };
                engine.search(&pos, &history, &limits, &mut |_| {}).best_move.expect("a move")
            };
            if mv.is_clone() {
                history.clear();
            } else {
                history.push(pos.hash());
            }
            pos.play(mv);
            ply += 1;
        };
        totals[(result_first * 2.0) as usize] += 1;
        for (side, row) in rows {
            let r = if side == bitsolve::Player::First { result_first } else { 1.0 - result_first };
            println!("{r},{row}");
        }
        eprintln!("game {game}: {ply} plies, first player scores {result_first}");
    }
    eprintln!("first player: {} wins, {} draws, {} losses", totals[2], totals[1], totals[0]);
}

/// The result for the first player of a finished game.
fn score_for_first(pos: &AtaxxStandard, outcome: Outcome) -> f64 {
    let mover = match outcome {
        Outcome::Win => 1.0,
        Outcome::Draw => 0.5,
        Outcome::Loss => 0.0,
    };
    if pos.side_to_move() == bitsolve::Player::First { mover } else { 1.0 - mover }
}
