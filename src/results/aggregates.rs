//! Aggregates over rows: totals per configuration, thread speedups, ratios between
//! configurations and disagreements between rows.

use std::collections::BTreeMap;

use ahash::{AHashMap as HashMap, AHashSet as HashSet};
use std::fmt::Write as _;

use crate::game::Outcome;

use super::row::{Config, Row, RowKey, is_score_options};

/// Difficulty encoded in a generated position id `d<plies>-<n>` (see `bitsolve dataset`).
pub fn difficulty(id: &str) -> Option<u32> {
    let rest = id.strip_prefix('d')?;
    let (digits, _) = rest.split_once('-')?;
    digits.parse().ok()
}

/// Whether `solver` runs several threads inside one search when asked to (`score`: in an
/// exact-score run, `solve --score`). A solver without threads runs the same sequential search
/// at any `--threads`, so its rows are never reported as parallel. (Both modes have the same
/// parallel solvers since the score alpha-beta got threads; `score` is kept for callers.)
pub fn uses_threads(solver: &str, _score: bool) -> bool {
    // Lazy SMP alpha-beta, and the score alpha-beta testing several thresholds at once; df-pn's
    // threads share the table; `auto` runs df-pn, and so do the score bisections; the indexed
    // retrograde engine runs its scans on rayon.
    matches!(solver, "alphabeta" | "dfpn" | "auto" | "retro2")
}

impl Config {
    /// Whether this configuration really searches with several threads.
    pub fn parallel(&self) -> bool {
        self.threads > 1 && uses_threads(&self.solver, is_score_options(&self.options))
    }
}

/// Totals of one configuration.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// Rows (positions attempted).
    pub positions: u64,
    /// Rows with an answer (a known outcome, or a known score in a score run).
    pub solved: u64,
    /// Wins for the side to move.
    pub wins: u64,
    /// Losses for the side to move.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// Nodes over every row.
    pub nodes: u64,
    /// Wall seconds over every row.
    pub seconds: f64,
    /// TT probes.
    pub tt_probes: u64,
    /// TT hits.
    pub tt_hits: u64,
    /// Rows whose outcome disagrees with the dataset's expected value.
    pub wrong: u64,
    /// Rows with a known score.
    pub scored: u64,
    /// Sum of the known scores.
    pub score_sum: i64,
    /// Lowest and highest known score.
    pub score_range: Option<(i64, i64)>,
}

impl Totals {
    fn add(&mut self, row: &Row) {
        self.positions += 1;
        match row.outcome {
            Some(Outcome::Win) => self.wins += 1,
            Some(Outcome::Loss) => self.losses += 1,
            Some(Outcome::Draw) => self.draws += 1,
            None => {}
        }
        self.solved += u64::from(row.solved());
        self.nodes += row.nodes;
        self.seconds += row.millis / 1000.0;
        self.tt_probes += row.tt_probes;
        self.tt_hits += row.tt_hits;
        self.wrong += u64::from(row.agree == Some(false));
        if let Some(s) = row.score {
            self.scored += 1;
            self.score_sum += s;
            self.score_range =
                Some(self.score_range.map_or((s, s), |(lo, hi)| (lo.min(s), hi.max(s))));
        }
    }

    /// Nodes per second over the totals.
    pub fn nodes_per_second(&self) -> f64 {
        if self.seconds > 0.0 { self.nodes as f64 / self.seconds } else { 0.0 }
    }

    /// TT hits per probe, if there were probes.
    pub fn hit_rate(&self) -> Option<f64> {
        (self.tt_probes > 0).then(|| self.tt_hits as f64 / self.tt_probes as f64)
    }

    /// Mean of the known scores, if any.
    pub fn mean_score(&self) -> Option<f64> {
        (self.scored > 0).then(|| self.score_sum as f64 / self.scored as f64)
    }
}

/// Totals per configuration, in sorted order. Only the last row of a repeated key counts.
pub fn totals(rows: &[Row]) -> BTreeMap<Config, Totals> {
    let mut map: BTreeMap<Config, Totals> = BTreeMap::new();
    for row in dedup(rows) {
        map.entry(row.config()).or_default().add(row);
    }
    map
}

/// The rows with repeated keys removed (the last one of each key kept), in first-seen order.
pub fn dedup(rows: &[Row]) -> Vec<&Row> {
    let mut last: HashMap<RowKey, usize> = HashMap::new();
    for (i, row) in rows.iter().enumerate() {
        last.insert(row.key(), i);
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for row in rows {
        let key = row.key();
        if seen.insert(key.clone()) {
            out.push(&rows[last[&key]]);
        }
    }
    out
}

/// Time and node ratios of `other` against `base` over the positions both solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ratio {
    /// Positions both solved.
    pub common: u64,
    /// Base seconds over other seconds on those positions.
    pub time: f64,
    /// Base nodes over other nodes on those positions.
    pub nodes: f64,
}

/// Time and node ratios of `other` against `base` over the positions both solved; `None` when
/// they have no such position.
pub fn ratio(rows: &[Row], base: &Config, other: &Config) -> Option<Ratio> {
    let mut of_base: HashMap<(&str, &str), &Row> = HashMap::new();
    let rows = dedup(rows);
    for row in &rows {
        if &row.config() == base && row.solved() {
            of_base.insert((row.file.as_str(), row.id.as_str()), row);
        }
    }
    let (mut n, mut tb, mut to, mut nb, mut no) = (0u64, 0.0, 0.0, 0u64, 0u64);
    for row in &rows {
        if &row.config() != other || !row.solved() {
            continue;
        }
        if let Some(b) = of_base.get(&(row.file.as_str(), row.id.as_str())) {
            n += 1;
            tb += b.millis;
            to += row.millis;
            nb += b.nodes;
            no += row.nodes;
        }
    }
    (n > 0 && to > 0.0 && no > 0).then(|| Ratio {
        common: n,
        time: tb / to,
        nodes: nb as f64 / no as f64,
    })
}

/// Thread speedup of a configuration against the same game, solver and options with one
/// thread, on the positions both solved. `None` for one thread and for solvers without threads.
pub fn speedup(rows: &[Row], config: &Config) -> Option<f64> {
    if !config.parallel() {
        return None;
    }
    ratio(rows, &config.with_threads(1), config).map(|r| r.time)
}

/// Thread speedup on total time: the one-thread configuration's time over every row it has
/// over this one's over every row (given-up positions count with the time they took). `None`
/// for one thread and for solvers without threads.
pub fn speedup_total(rows: &[Row], config: &Config) -> Option<f64> {
    if !config.parallel() {
        return None;
    }
    let all = totals(rows);
    let base = all.get(&config.with_threads(1))?;
    let this = all.get(config)?;
    (this.seconds > 0.0 && base.positions == this.positions).then(|| base.seconds / this.seconds)
}

/// Every position on which two rows give different known outcomes or different known scores
/// (across solvers, configurations or files with the same game and id), or an outcome differs
/// from `expected`: one message per position.
pub fn disagreements(rows: &[Row]) -> Vec<String> {
    let mut by_pos: BTreeMap<(String, String, String), Vec<&Row>> = BTreeMap::new();
    for row in dedup(rows) {
        by_pos.entry((row.game.clone(), row.file.clone(), row.id.clone())).or_default().push(row);
    }
    let mut out = Vec::new();
    for ((game, file, id), rows) in by_pos {
        let known: Vec<&&Row> = rows.iter().filter(|r| r.solved()).collect();
        let outcomes: Vec<Outcome> = known.iter().filter_map(|r| r.outcome).collect();
        let scores: Vec<i64> = known.iter().filter_map(|r| r.score).collect();
        let differ =
            outcomes.windows(2).any(|w| w[0] != w[1]) || scores.windows(2).any(|w| w[0] != w[1]);
        let wrong =
            known.iter().any(|r| r.expected.is_some_and(|e| r.outcome.is_some_and(|o| o != e)));
        if differ || wrong {
            let mut msg = format!("{game} {file} {id}:");
            for r in &known {
                let _ = write!(msg, " {}/t{}={}", r.solver, r.threads, r.outcome_str());
                if let Some(s) = r.score {
                    let _ = write!(msg, "(score {s})");
                }
            }
            if let Some(e) = known.iter().find_map(|r| r.expected) {
                let _ = write!(msg, " expected={e}");
            }
            out.push(msg);
        }
    }
    out
}
