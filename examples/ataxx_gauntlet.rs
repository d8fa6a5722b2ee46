//! A self-play gauntlet: the engine ([`Engine`] with the tuned evaluation) against the
//! reference player it replaced (plain iterative-deepening alpha-beta, material only, no table),
//! at a fixed time per move, from random openings played once with each colour.
//!
//! ```text
//! nice -n 10 cargo run --release --example ataxx_gauntlet -- 50 20 1
//! ```
//! Arguments: openings (default 50; games = 2 x openings), milliseconds per move (default 20),
//! seed (default 1), opponent (default `reference`; `hand`: the same engine with the first,
//! hand-set evaluation weights, to measure what the tuning gained). Standard rules; a game is
//! drawn at the 100-ply halfmove clock or after 600 plies. Prints W/D/L from the engine's view
//! and the Elo difference it implies.

use std::time::{Duration, Instant};

use bitsolve::search::engine::{Engine, EngineOptions, Evaluate, SearchLimits, loss_in, win_in};
use bitsolve::zobrist::KeyStream;
use bitsolve::{AtaxxMove, AtaxxStandard, Game, Outcome, Player};

const MAX_PLIES: usize = 600;

/// Ataxx with the hand-set weights the evaluation had before tuning (same features).
#[derive(Clone)]
struct HandTuned(AtaxxStandard);

/// The hand-set weights: opening (phase 256) and middle (128) equal, then the endgame (0).
const HAND_OPENING: [i32; 8] = [100, 20, -15, 6, 1, 40, -25, 50];
const HAND_ENDGAME: [i32; 8] = [100, 10, -10, 4, 1, 40, -25, 50];

impl Game for HandTuned {
    type Move = AtaxxMove;
    type Moves = <AtaxxStandard as Game>::Moves;

    fn generate_moves(&self, moves: &mut Self::Moves) {
        self.0.generate_moves(moves);
    }
    fn play(&mut self, mv: AtaxxMove) {
        self.0.play(mv);
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn reversible_plies(&self) -> Option<u32> {
        self.0.reversible_plies()
    }
}

impl Evaluate for HandTuned {
    fn evaluate(&self) -> i32 {
        let f = self.0.eval_features();
        let dot = |w: &[i32; 8]| f.iter().zip(w).map(|(a, b)| a * b).sum::<i32>();
        let phase = self.0.phase();
        if phase >= 128 {
            dot(&HAND_OPENING)
        } else {
            (dot(&HAND_OPENING) * phase + dot(&HAND_ENDGAME) * (128 - phase)) / 128
        }
    }
    fn move_hint(&self, mv: AtaxxMove) -> i32 {
        self.0.move_hint(mv)
    }
    fn is_rule_draw(&self) -> bool {
        self.0.is_rule_draw()
    }
}

/// Who the engine plays against.
enum Opponent {
    Reference,
    Hand(Box<Engine<HandTuned>>),
}

/// The reference player: iterative-deepening negamax with alpha-beta, material evaluation and
/// material-gain ordering, no table (the engine's first implementation).
struct Reference {
    start: Instant,
    hard: Duration,
    nodes: u64,
    aborted: bool,
    path: Vec<u64>,
}

fn material(pos: &AtaxxStandard) -> i32 {
    let me = pos.side_to_move();
    100 * (pos.stones(me).count() as i32 - pos.stones(!me).count() as i32)
}

impl Reference {
    fn best_move(pos: &AtaxxStandard, history: &[u64], time: Duration) -> AtaxxMove {
        let mut r = Reference {
            start: Instant::now(),
            hard: time,
            nodes: 0,
            aborted: false,
            path: history.to_vec(),
        };
        let mut moves = <AtaxxStandard as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        let mut best = *moves.iter().max_by_key(|&&m| pos.move_hint(m)).expect("a move");
        for depth in 1..64 {
            if r.start.elapsed() >= time / 2 {
                break;
            }
            let mut order: Vec<AtaxxMove> = moves.to_vec();
            order.sort_by_key(|&m| (m != best, -pos.move_hint(m)));
            let mut alpha = -40_000;
            let mut iteration_best = None;
            r.path.push(pos.hash());
            for &mv in &order {
                let mut child = pos.clone();
                child.play(mv);
                let score = -r.negamax(&child, depth - 1, 1, -40_000, -alpha);
                if r.aborted {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    iteration_best = Some(mv);
                }
            }
            r.path.pop();
            if r.aborted {
                break;
            }
            best = iteration_best.unwrap_or(best);
        }
        best
    }

    fn negamax(
        &mut self,
        pos: &AtaxxStandard,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if let Some(outcome) = pos.outcome() {
            return match outcome {
                Outcome::Win => win_in(ply),
                Outcome::Loss => loss_in(ply),
                Outcome::Draw => 0,
            };
        }
        if pos.is_rule_draw() || self.path.contains(&pos.hash()) {
            return 0;
        }
        if self.nodes.is_multiple_of(256) && self.start.elapsed() >= self.hard {
            self.aborted = true;
        }
        if depth == 0 || self.aborted {
            return material(pos);
        }
        let mut moves = <AtaxxStandard as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        moves.sort_by_key(|&m| -pos.move_hint(m));
        let mut best = -40_000;
        self.path.push(pos.hash());
        for &mv in &moves {
            let mut child = pos.clone();
            child.play(mv);
            let score = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta || self.aborted {
                break;
            }
        }
        self.path.pop();
        best
    }
}

/// Plays one game from `opening`; returns the engine's score (1, 0.5, 0).
fn play(
    opening: &AtaxxStandard,
    engine_side: Player,
    time: Duration,
    engine: &mut Engine<AtaxxStandard>,
    opponent: &mut Opponent,
) -> f64 {
    engine.clear();
    if let Opponent::Hand(e) = opponent {
        e.clear();
    }
    let limits = SearchLimits {
        soft_time: Some(time / 2),
        hard_time: Some(time),
        ..SearchLimits::default()
    };
    let mut pos = opening.clone();
    let mut history: Vec<u64> = Vec::new();
    for _ in 0..MAX_PLIES {
        if let Some(outcome) = pos.outcome() {
            let mover = match outcome {
                Outcome::Win => 1.0,
                Outcome::Draw => 0.5,
                Outcome::Loss => 0.0,
            };
            return if pos.side_to_move() == engine_side { mover } else { 1.0 - mover };
        }
        if pos.is_rule_draw() {
            return 0.5;
        }
        let mv = if pos.side_to_move() == engine_side {
            engine.search(&pos, &history, &limits, &mut |_| {}).best_move.expect("a move")
        } else {
            match opponent {
                Opponent::Reference => Reference::best_move(&pos, &history, time),
                Opponent::Hand(e) => {
                    let p = HandTuned(pos.clone());
                    e.search(&p, &history, &limits, &mut |_| {}).best_move.expect("a move")
                }
            }
        };
        if mv.is_clone() {
            history.clear();
        } else {
            history.push(pos.hash());
        }
        pos.play(mv);
    }
    0.5
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let hand = args.get(3).is_some_and(|a| a == "hand");
    args.truncate(3);
    let args: Vec<u64> = args.iter().map(|a| a.parse().expect("a number")).collect();
    let options = EngineOptions::default();
    let mut opponent =
        if hand { Opponent::Hand(Box::new(Engine::new(&options))) } else { Opponent::Reference };
    let openings = args.first().copied().unwrap_or(50);
    let time = Duration::from_millis(args.get(1).copied().unwrap_or(20));
    let mut rng = KeyStream::new(args.get(2).copied().unwrap_or(1));
    let mut engine = Engine::<AtaxxStandard>::new(&options);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for i in 0..openings {
        // Four random clones: varied, and still balanced.
        let mut opening = AtaxxStandard::startpos();
        for _ in 0..4 {
            let mut moves = <AtaxxStandard as Game>::Moves::default();
            opening.generate_moves(&mut moves);
            let clones: Vec<_> = moves.iter().copied().filter(|m| m.is_clone()).collect();
            opening.play(clones[(rng.next_key() % clones.len() as u64) as usize]);
        }
        for side in Player::ALL {
            let score = play(&opening, side, time, &mut engine, &mut opponent);
            match score {
                s if s > 0.75 => wins += 1,
                s if s < 0.25 => losses += 1,
                _ => draws += 1,
            }
            eprintln!("opening {i} engine as {side:?}: {score}  (W/D/L {wins}/{draws}/{losses})");
        }
    }
    let games = f64::from(wins + draws + losses);
    let score = (f64::from(wins) + 0.5 * f64::from(draws)) / games;
    let elo =
        if score > 0.0 && score < 1.0 { -400.0 * (1.0 / score - 1.0).log10() } else { f64::NAN };
    println!(
        "engine vs {}, {} ms/move, {games} games: W {wins} D {draws} L {losses}, score {:.3}, Elo {:+.0}",
        if hand { "hand-weights engine" } else { "reference" },
        time.as_millis(),
        score,
        elo
    );
}
