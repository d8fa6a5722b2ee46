//! Tables of aggregates: the summary per configuration, ratios against a baseline and exact
//! scores, rendered as Markdown, CSV or LaTeX.

use std::fmt::Write as _;

use super::aggregates::{ratio, speedup, speedup_total, totals};
use super::formats::csv_field;
use super::row::{Config, Row, is_score_options};

/// Output format of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// GitHub Markdown.
    Md,
    /// Comma-separated values with a header.
    Csv,
    /// A LaTeX `tabular` (booktabs rules).
    Tex,
}

/// A table of strings with a header; numeric columns are right-aligned.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Column titles.
    pub header: Vec<String>,
    /// Right-align (numeric) per column.
    pub right: Vec<bool>,
    /// The cells.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Renders the table.
    pub fn render(&self, format: Format) -> String {
        let mut out = String::new();
        match format {
            Format::Md => {
                let _ = writeln!(out, "| {} |", self.header.join(" | "));
                let rules: Vec<&str> =
                    self.right.iter().map(|&r| if r { "---:" } else { "---" }).collect();
                let _ = writeln!(out, "|{}|", rules.join("|"));
                for row in &self.rows {
                    let _ = writeln!(out, "| {} |", row.join(" | "));
                }
            }
            Format::Csv => {
                let head: Vec<String> = self.header.iter().map(|h| csv_field(h)).collect();
                let _ = writeln!(out, "{}", head.join(","));
                for row in &self.rows {
                    let cells: Vec<String> = row.iter().map(|c| csv_field(c)).collect();
                    let _ = writeln!(out, "{}", cells.join(","));
                }
            }
            Format::Tex => {
                let spec: String = self.right.iter().map(|&r| if r { 'r' } else { 'l' }).collect();
                let _ = writeln!(out, "\\begin{{tabular}}{{{spec}}}\n\\toprule");
                let head: Vec<String> = self.header.iter().map(|h| tex_escape(h)).collect();
                let _ = writeln!(out, "{} \\\\\n\\midrule", head.join(" & "));
                for row in &self.rows {
                    let cells: Vec<String> = row.iter().map(|c| tex_escape(c)).collect();
                    let _ = writeln!(out, "{} \\\\", cells.join(" & "));
                }
                let _ = writeln!(out, "\\bottomrule\n\\end{{tabular}}");
            }
        }
        out
    }
}

fn tex_escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '_' | '%' | '&' | '#' | '$' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\\' => out.push_str("\\textbackslash{}"),
            c => out.push(c),
        }
    }
    out
}

fn cell(value: Option<f64>, digits: usize) -> String {
    value.map_or_else(|| "-".into(), |v| format!("{v:.digits$}"))
}

fn new_table(header: &[&str], left: &[&str]) -> Table {
    Table {
        header: header.iter().map(ToString::to_string).collect(),
        right: header.iter().map(|h| !left.contains(h)).collect(),
        rows: Vec::new(),
    }
}

/// The main table: one line per configuration with positions, solved, wins/losses/draws,
/// total and mean nodes, time, nodes/s, TT hit rate and the two thread speedups (on the
/// positions both solved, and on total time). Solvers without threads have no speedup.
pub fn summary_table(rows: &[Row]) -> Table {
    let header = [
        "game",
        "solver",
        "options",
        "threads",
        "positions",
        "solved",
        "win",
        "loss",
        "draw",
        "nodes",
        "mean nodes",
        "time (s)",
        "nodes/s",
        "TT hits",
        "speedup",
        "speedup (total)",
    ];
    let mut table = new_table(&header, &["game", "solver", "options"]);
    for (config, t) in totals(rows) {
        let mean = t.nodes.checked_div(t.positions).unwrap_or(0);
        table.rows.push(vec![
            config.game.clone(),
            config.solver.clone(),
            config.options_label().to_string(),
            config.threads.to_string(),
            t.positions.to_string(),
            t.solved.to_string(),
            t.wins.to_string(),
            t.losses.to_string(),
            t.draws.to_string(),
            t.nodes.to_string(),
            mean.to_string(),
            format!("{:.3}", t.seconds),
            format!("{:.0}", t.nodes_per_second()),
            t.hit_rate().map_or_else(|| "-".into(), |r| format!("{:.1}%", r * 100.0)),
            cell(speedup(rows, &config), 2),
            cell(speedup_total(rows, &config), 2),
        ]);
    }
    table
}

/// Exact scores per configuration (only configurations with score rows): positions, scored,
/// lowest, highest and mean score.
pub fn score_table(rows: &[Row]) -> Table {
    let header =
        ["game", "solver", "options", "threads", "positions", "scored", "min", "max", "mean"];
    let mut table = new_table(&header, &["game", "solver", "options"]);
    for (config, t) in totals(rows) {
        if !is_score_options(&config.options) {
            continue;
        }
        let (lo, hi) = t
            .score_range
            .map_or_else(|| ("-".into(), "-".into()), |(lo, hi)| (lo.to_string(), hi.to_string()));
        table.rows.push(vec![
            config.game.clone(),
            config.solver.clone(),
            config.options_label().to_string(),
            config.threads.to_string(),
            t.positions.to_string(),
            t.scored.to_string(),
            lo,
            hi,
            cell(t.mean_score(), 2),
        ]);
    }
    table
}

/// The baseline of a ratio table: a solver and thread count, and optionally exact options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Baseline {
    /// Solver name.
    pub solver: String,
    /// Threads.
    pub threads: u32,
    /// `Some`: the baseline has these options and every configuration of the game is compared
    /// with it; `None`: each configuration is compared with the baseline of its own options.
    pub options: Option<String>,
}

impl Baseline {
    /// Reads `solver[/tN][@options]` (`alphabeta`, `dfpn/t2`, `dfpn/t1@tt64-eps2`).
    ///
    /// # Errors
    /// A thread count that is not a positive number.
    pub fn parse(text: &str) -> Result<Baseline, String> {
        let (head, options) = match text.split_once('@') {
            Some((h, o)) => (h, Some(o.to_string())),
            None => (text, None),
        };
        let (solver, threads) = match head.split_once("/t") {
            Some((s, t)) => {
                let threads = t.parse::<u32>().ok().filter(|&n| n > 0);
                (s, threads.ok_or_else(|| format!("baseline `{text}`: bad thread count `{t}`"))?)
            }
            None => (head, 1),
        };
        Ok(Baseline { solver: solver.trim().to_string(), threads, options })
    }

    /// Whether `config` is this baseline (any game).
    pub fn matches(&self, config: &Config) -> bool {
        config.solver == self.solver
            && config.threads == self.threads
            && self.options.as_ref().is_none_or(|o| &config.options == o)
    }
}

/// Ratios of every configuration against the baseline of the same game (and of the same options
/// unless the baseline fixes them): positions both solved, time ratio and node ratio (baseline /
/// configuration; above 1 means faster or fewer nodes than the baseline). Configurations without
/// a baseline are left out.
pub fn ratio_table(rows: &[Row], baseline: &Baseline) -> Table {
    let header =
        ["game", "solver", "options", "threads", "baseline", "common", "time x", "nodes x"];
    let mut table = new_table(&header, &["game", "solver", "options", "baseline"]);
    let configs: Vec<Config> = totals(rows).into_keys().collect();
    for config in &configs {
        let Some(base) = configs.iter().find(|c| {
            c.game == config.game
                && baseline.matches(c)
                && (baseline.options.is_some() || c.options == config.options)
        }) else {
            continue;
        };
        let r = ratio(rows, base, config);
        let label = if baseline.options.is_some() && base.options != config.options {
            format!("{}/t{} {}", base.solver, base.threads, base.options_label())
        } else {
            format!("{}/t{}", base.solver, base.threads)
        };
        table.rows.push(vec![
            config.game.clone(),
            config.solver.clone(),
            config.options_label().to_string(),
            config.threads.to_string(),
            label,
            r.map_or(0, |r| r.common).to_string(),
            cell(r.map(|r| r.time), 2),
            cell(r.map(|r| r.nodes), 2),
        ]);
    }
    table
}
