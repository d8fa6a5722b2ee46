//! Swiss-system pairing (pure logic, no I/O): who plays whom, who moves first, who gets the bye.
//!
//! Each round:
//! * players are ranked by points, then by a seeded random starting order (so the pairing is
//!   reproducible from the tournament seed);
//! * with an odd count, the lowest-ranked player who has not had a bye sits out and scores a
//!   win (at most one bye per player while that is possible);
//! * the pairing is top-down within score groups with float-down: the highest-ranked unpaired
//!   player meets the closest-scored eligible player (ties: one whose colour preference differs,
//!   then the highest-ranked), and a depth-first search backtracks when the rest cannot be
//!   paired;
//! * eligible means: never met before, and not two players who have both moved first (or both
//!   second) two games more than the other way (so a player's colour difference stays within
//!   ±2). If no pairing satisfies both, the colour rule is dropped, then rematches are allowed
//!   (fewest repeats first); each relaxation is reported in [`Round::notes`];
//! * colours: the player who has moved first less often (firsts minus seconds) moves first; on
//!   equal counts, the one who moved second last time; otherwise the higher-ranked player takes
//!   the opposite of their last colour (first in odd rounds if they have none).

use bitsolve::games::geography::generator::below;
use bitsolve::zobrist::KeyStream;

/// Search steps allowed per relaxation level before it is given up.
const STEP_LIMIT: u64 = 200_000;

/// One player's history as the pairing sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Points: one per win, one per bye.
    pub points: u32,
    /// Opponents met, one entry per game.
    pub opponents: Vec<usize>,
    /// Games moved first.
    pub firsts: u32,
    /// Games moved second.
    pub seconds: u32,
    /// Whether the player moved first in their last game (`None`: no game yet).
    pub last_first: Option<bool>,
    /// Byes received.
    pub byes: u32,
}

impl Record {
    /// Firsts minus seconds.
    pub fn balance(&self) -> i64 {
        i64::from(self.firsts) - i64::from(self.seconds)
    }

    /// How often this player has met `other`.
    fn met(&self, other: usize) -> usize {
        self.opponents.iter().filter(|&&o| o == other).count()
    }
}

/// The pairing of one round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// Games as `(first mover, second mover)`.
    pub games: Vec<(usize, usize)>,
    /// The player who sits out (scores a win), with an odd count.
    pub bye: Option<usize>,
    /// Relaxations that were needed (empty in a normal round).
    pub notes: Vec<String>,
}

/// What a pairing may break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    /// No rematch, colour difference within ±2.
    Strict,
    /// No rematch.
    AnyColours,
    /// Anything (fewest repeats first).
    Rematches,
}

/// A Swiss tournament's state.
#[derive(Clone, Debug)]
pub struct Swiss {
    records: Vec<Record>,
    /// Seeded starting rank of each player (0 is the best).
    seed_rank: Vec<usize>,
    /// Rounds paired so far.
    round: u32,
}

impl Swiss {
    /// A tournament of `count` players; `seed` fixes the starting order.
    pub fn new(count: usize, seed: u64) -> Self {
        let mut order: Vec<usize> = (0..count).collect();
        let mut rng = KeyStream::new(seed);
        for i in (1..count).rev() {
            let j = below(&mut rng, i as u64 + 1) as usize;
            order.swap(i, j);
        }
        let mut seed_rank = vec![0; count];
        for (rank, &p) in order.iter().enumerate() {
            seed_rank[p] = rank;
        }
        Swiss { records: vec![Record::default(); count], seed_rank, round: 0 }
    }

    /// Every player's record.
    #[cfg(test)]
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// Players by points (descending), then by seeded starting rank.
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.records.len()).collect();
        order.sort_by_key(|&p| (std::cmp::Reverse(self.records[p].points), self.seed_rank[p]));
        order
    }

    /// Records a game: `first` moved first against `second`.
    pub fn record_game(&mut self, first: usize, second: usize, first_won: bool) {
        let winner = if first_won { first } else { second };
        self.records[winner].points += 1;
        let f = &mut self.records[first];
        f.opponents.push(second);
        f.firsts += 1;
        f.last_first = Some(true);
        let s = &mut self.records[second];
        s.opponents.push(first);
        s.seconds += 1;
        s.last_first = Some(false);
    }

    /// Records a bye (a win without a game).
    pub fn record_bye(&mut self, player: usize) {
        self.records[player].points += 1;
        self.records[player].byes += 1;
    }

    /// Pairs the next round (does not record it: call [`Swiss::record_game`] and
    /// [`Swiss::record_bye`] with the results).
    pub fn pair(&mut self) -> Round {
        self.round += 1;
        let order = self.ranking();
        let mut notes = Vec::new();
        let mut bye_candidates: Vec<usize> = Vec::new();
        if order.len() % 2 == 1 {
            let fewest = self.records.iter().map(|r| r.byes).min().unwrap_or(0);
            if fewest > 0 {
                notes.push(format!("every player has had a bye; a second one goes to the lowest-ranked with {fewest}"));
            }
            bye_candidates =
                order.iter().rev().copied().filter(|&p| self.records[p].byes == fewest).collect();
        }
        for level in [Level::Strict, Level::AnyColours, Level::Rematches] {
            let mut steps = 0;
            let byes: Vec<Option<usize>> = if bye_candidates.is_empty() {
                vec![None]
            } else {
                bye_candidates.iter().map(|&p| Some(p)).collect()
            };
            for bye in byes {
                let rest: Vec<usize> = order.iter().copied().filter(|&p| Some(p) != bye).collect();
                let mut used = vec![false; self.records.len()];
                let mut pairs = Vec::new();
                if self.search(&rest, &mut used, level, &mut steps, &mut pairs) {
                    let games = pairs.iter().map(|&(a, b)| self.colours(a, b)).collect();
                    return Round { games, bye, notes };
                }
                if steps > STEP_LIMIT {
                    break;
                }
            }
            let why = if steps > STEP_LIMIT { "search limit reached" } else { "none exists" };
            notes.push(match level {
                Level::Strict => format!(
                    "round {}: no pairing keeps every colour difference within 2 ({why}); \
                     colours relaxed",
                    self.round
                ),
                Level::AnyColours => format!(
                    "round {}: no pairing avoids rematches ({why}); rematches allowed",
                    self.round
                ),
                Level::Rematches => {
                    format!("round {}: paired in ranking order ({why})", self.round)
                }
            });
        }
        // Not reached (the last level accepts any pairing), but never panic: adjacent pairs.
        let bye = bye_candidates.first().copied();
        let rest: Vec<usize> = order.into_iter().filter(|&p| Some(p) != bye).collect();
        let games = rest.chunks_exact(2).map(|c| self.colours(c[0], c[1])).collect();
        Round { games, bye, notes }
    }

    /// Whether `a` and `b` may meet at `level`.
    fn allowed(&self, a: usize, b: usize, level: Level) -> bool {
        let (ra, rb) = (&self.records[a], &self.records[b]);
        match level {
            Level::Strict => {
                ra.met(b) == 0 && !(ra.balance() == rb.balance() && ra.balance().abs() >= 2)
            }
            Level::AnyColours => ra.met(b) == 0,
            Level::Rematches => true,
        }
    }

    /// The colour `p` would like: `Some(true)` to move first.
    fn preference(&self, p: usize) -> Option<bool> {
        let r = &self.records[p];
        match r.balance() {
            b if b < 0 => Some(true),
            b if b > 0 => Some(false),
            _ => r.last_first.map(|f| !f),
        }
    }

    /// Pairs the players of `order` not yet `used`, best first; `true` if all could be paired.
    fn search(
        &self,
        order: &[usize],
        used: &mut [bool],
        level: Level,
        steps: &mut u64,
        out: &mut Vec<(usize, usize)>,
    ) -> bool {
        let Some(&p) = order.iter().find(|&&q| !used[q]) else { return true };
        *steps += 1;
        if *steps > STEP_LIMIT {
            return false;
        }
        used[p] = true;
        let mut candidates: Vec<usize> =
            order.iter().copied().filter(|&q| !used[q] && self.allowed(p, q, level)).collect();
        let points = self.records[p].points;
        let want = self.preference(p);
        // Stable: equal keys keep the ranking order (top-down within a score group).
        candidates.sort_by_key(|&q| {
            let clash = want.is_some() && self.preference(q) == want;
            (self.records[p].met(q), points.abs_diff(self.records[q].points), clash)
        });
        for q in candidates {
            used[q] = true;
            out.push((p, q));
            if self.search(order, used, level, steps, out) {
                return true;
            }
            out.pop();
            used[q] = false;
            if *steps > STEP_LIMIT {
                break;
            }
        }
        used[p] = false;
        false
    }

    /// Colours of a game between `a` (ranked higher) and `b`: `(first, second)`.
    fn colours(&self, a: usize, b: usize) -> (usize, usize) {
        let (ra, rb) = (&self.records[a], &self.records[b]);
        if ra.balance() != rb.balance() {
            return if ra.balance() < rb.balance() { (a, b) } else { (b, a) };
        }
        match (ra.last_first, rb.last_first) {
            (Some(false), Some(true) | None) | (None, Some(true)) => (a, b),
            (Some(true), Some(false) | None) | (None, Some(false)) => (b, a),
            (Some(last), Some(_)) => {
                if last {
                    (b, a)
                } else {
                    (a, b)
                }
            }
            (None, None) => {
                if self.round % 2 == 1 {
                    (a, b)
                } else {
                    (b, a)
                }
            }
        }
    }
}

/// Tie-breaks of a finished tournament from its games `(first, second, first_won)` and byes:
/// per player `(points, buchholz, sonneborn_berger)`. Buchholz is the sum of the opponents'
/// points (one term per game), Sonneborn-Berger the sum of the points of the opponents beaten;
/// a bye adds a point and nothing else.
pub fn tie_breaks(
    count: usize,
    games: &[(usize, usize, bool)],
    byes: &[usize],
) -> Vec<(u32, u32, u32)> {
    let mut points = vec![0u32; count];
    for &(f, s, first_won) in games {
        points[if first_won { f } else { s }] += 1;
    }
    for &b in byes {
        points[b] += 1;
    }
    let mut result: Vec<(u32, u32, u32)> = points.iter().map(|&p| (p, 0, 0)).collect();
    for &(f, s, first_won) in games {
        result[f].1 += points[s];
        result[s].1 += points[f];
        let (w, l) = if first_won { (f, s) } else { (s, f) };
        result[w].2 += points[l];
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `rounds` rounds of `count` players with results drawn from `seed`; returns the
    /// rounds and the final state.
    fn simulate(count: usize, rounds: u32, seed: u64) -> (Vec<Round>, Swiss) {
        let mut swiss = Swiss::new(count, seed);
        let mut rng = KeyStream::new(seed ^ 0xABCD);
        let mut all = Vec::new();
        for _ in 0..rounds {
            let round = swiss.pair();
            if let Some(b) = round.bye {
                swiss.record_bye(b);
            }
            for &(f, s) in &round.games {
                swiss.record_game(f, s, below(&mut rng, 2) == 0);
            }
            all.push(round);
        }
        (all, swiss)
    }

    #[test]
    fn every_player_plays_or_sits_out_once_per_round() {
        for count in 2..=11 {
            let (rounds, _) = simulate(count, 4, count as u64);
            for r in rounds {
                let mut seen = vec![0; count];
                for &(f, s) in &r.games {
                    seen[f] += 1;
                    seen[s] += 1;
                }
                if let Some(b) = r.bye {
                    seen[b] += 1;
                }
                assert!(seen.iter().all(|&c| c == 1), "{count}: {r:?}");
                assert_eq!(r.bye.is_some(), count % 2 == 1);
            }
        }
    }

    #[test]
    fn no_rematches_colours_balanced_byes_distinct() {
        let mut colour_notes = 0;
        let mut runs = 0;
        for count in 3..=14usize {
            // Rematch-free pairings exist for up to about half as many rounds as players.
            let rounds = (count / 2).max(2) as u32;
            for seed in 0..40 {
                runs += 1;
                let (all, swiss) = simulate(count, rounds, seed * 31 + count as u64);
                let notes: Vec<&String> = all.iter().flat_map(|r| &r.notes).collect();
                assert!(
                    notes.iter().all(|n| !n.contains("rematch")),
                    "{count} players, seed {seed}: {notes:?}"
                );
                colour_notes += usize::from(notes.iter().any(|n| n.contains("colour")));
                for (p, r) in swiss.records().iter().enumerate() {
                    let mut opponents = r.opponents.clone();
                    opponents.sort_unstable();
                    opponents.dedup();
                    assert_eq!(opponents.len(), r.opponents.len(), "player {p} met someone twice");
                    assert!(r.byes <= 1, "player {p} had {} byes", r.byes);
                    if notes.is_empty() {
                        assert!(r.balance().abs() <= 2, "player {p}: {r:?}");
                    }
                }
            }
        }
        assert!(colour_notes * 50 <= runs, "colours relaxed in {colour_notes} of {runs} runs");
    }

    #[test]
    fn byes_go_to_distinct_players_over_a_long_event() {
        for count in [3usize, 5, 7, 9] {
            for seed in 0..10 {
                let (all, _) = simulate(count, count as u32, seed);
                let mut byes: Vec<usize> = all.iter().filter_map(|r| r.bye).collect();
                byes.sort_unstable();
                byes.dedup();
                assert_eq!(byes.len(), count, "{count} players, seed {seed}");
            }
        }
    }

    #[test]
    fn winners_meet_winners() {
        for seed in 0..20 {
            let mut swiss = Swiss::new(8, seed);
            let first = swiss.pair();
            for &(f, s) in &first.games {
                swiss.record_game(f, s, (f + s + seed as usize).is_multiple_of(2));
            }
            let second = swiss.pair();
            for &(f, s) in &second.games {
                assert_eq!(swiss.records()[f].points, swiss.records()[s].points, "{second:?}");
            }
        }
    }

    #[test]
    fn colours_follow_the_balance() {
        let mut swiss = Swiss::new(2, 1);
        let mut firsts = Vec::new();
        for _ in 0..6 {
            let r = swiss.pair();
            let (f, s) = r.games[0];
            firsts.push(f);
            swiss.record_game(f, s, true);
        }
        // Two players alternate colours (rematches are forced and noted).
        assert!(firsts.windows(2).all(|w| w[0] != w[1]), "{firsts:?}");
        assert!(swiss.records().iter().all(|r| r.balance() == 0));
    }

    #[test]
    fn impossible_pairings_fall_back_with_a_note() {
        let mut swiss = Swiss::new(2, 5);
        let r1 = swiss.pair();
        assert!(r1.notes.is_empty());
        let (f, s) = r1.games[0];
        swiss.record_game(f, s, true);
        let r2 = swiss.pair();
        assert_eq!(r2.games.len(), 1);
        assert!(r2.notes.iter().any(|n| n.contains("rematches allowed")), "{r2:?}");
    }

    #[test]
    fn pairing_is_reproducible_from_the_seed() {
        let (a, _) = simulate(9, 5, 77);
        let (b, _) = simulate(9, 5, 77);
        assert_eq!(a, b);
        let firsts: Vec<Vec<(usize, usize)>> =
            (0..8).map(|s| simulate(9, 1, s).0[0].games.clone()).collect();
        assert!(firsts.iter().any(|g| *g != firsts[0]), "the seed changes the first round");
    }

    #[test]
    fn tie_breaks_count_opponents_points() {
        // 0 beats 1, 1 beats 2, 0 beats 2; 3 has a bye.
        let games = [(0, 1, true), (1, 2, true), (2, 0, false)];
        let t = tie_breaks(4, &games, &[3]);
        assert_eq!(t[0], (2, 1, 1));
        assert_eq!(t[1], (1, 2, 0));
        assert_eq!(t[2], (0, 3, 0));
        assert_eq!(t[3], (1, 0, 0));
    }
}
