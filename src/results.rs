//! Result rows of batch runs: the CSV / JSON Lines schema, a tolerant CSV reader, and the
//! aggregates (`report`, `compare`) computed from rows.
//!
//! One row per (position, solver configuration). The columns, in order, are [`HEADER`]; they are
//! documented in `results/README.md`. A row's resume key is [`Row::key`]: (dataset file, position
//! id, solver, threads, options signature).
//!
//! ```
//! use bitsolve::results::{parse_csv, HEADER};
//! let text = format!("{}\nataxx,d.tsv,a,dfpn,1,64,tt64,win,3,b1,win,true,10,4,1,3,0.5,abc\n", HEADER.join(","));
//! let (rows, errors) = parse_csv(&text);
//! assert!(errors.is_empty());
//! assert_eq!(rows[0].nodes, 10);
//! ```

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::{self, Write as _};

use crate::dataset::parse_outcome;
use crate::game::Outcome;

/// The CSV columns, in order.
pub const HEADER: [&str; 18] = [
    "game",
    "file",
    "id",
    "solver",
    "threads",
    "tt_mib",
    "options",
    "outcome",
    "plies",
    "best_move",
    "expected",
    "agree",
    "nodes",
    "tt_probes",
    "tt_hits",
    "max_depth",
    "millis",
    "git",
];

/// One solved (or given-up) position for one solver configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Game name (`GameKind` name).
    pub game: String,
    /// Dataset file as given on the command line.
    pub file: String,
    /// Position id within the file.
    pub id: String,
    /// Solver name.
    pub solver: String,
    /// Threads inside the solver.
    pub threads: u32,
    /// Transposition table size in MiB.
    pub tt_mib: u64,
    /// Signature of the remaining options and limits (everything but threads), e.g.
    /// `tt64-tl10`; part of the resume key.
    pub options: String,
    /// Result for the side to move; `None`: unknown (a limit stopped the search).
    pub outcome: Option<Outcome>,
    /// Distance in plies, when the solver computes it.
    pub plies: Option<u32>,
    /// Best move in the game's notation (empty when none).
    pub best_move: String,
    /// The dataset's expected result, if any.
    pub expected: Option<Outcome>,
    /// Whether `outcome` equals `expected` (`None` when either is missing).
    pub agree: Option<bool>,
    /// Nodes visited.
    pub nodes: u64,
    /// Transposition-table probes.
    pub tt_probes: u64,
    /// Transposition-table hits.
    pub tt_hits: u64,
    /// Deepest ply reached.
    pub max_depth: u32,
    /// Wall time in milliseconds.
    pub millis: f64,
    /// Git revision of the binary that produced the row.
    pub git: String,
}

/// The resume key of a row: (file, id, solver, threads, options).
pub type RowKey = (String, String, String, u32, String);

impl Row {
    /// The resume key: a row with the same key is the same piece of work.
    pub fn key(&self) -> RowKey {
        (
            self.file.clone(),
            self.id.clone(),
            self.solver.clone(),
            self.threads,
            self.options.clone(),
        )
    }

    /// The outcome as written in files (`win`, `draw`, `loss`, `unknown`).
    pub fn outcome_str(&self) -> &'static str {
        self.outcome.map_or("unknown", Outcome::as_str)
    }

    /// The row as one CSV line (no newline), columns in [`HEADER`] order.
    pub fn to_csv(&self) -> String {
        let fields = self.fields();
        fields.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(",")
    }

    /// The row as one JSON object on one line (numbers as numbers, missing values as `null`).
    pub fn to_json(&self) -> String {
        let mut out = String::from("{");
        for (i, (name, value)) in HEADER.iter().zip(self.fields()).enumerate() {
            if i > 0 {
                out.push(',');
            }
            let numeric = matches!(
                *name,
                "threads"
                    | "tt_mib"
                    | "plies"
                    | "nodes"
                    | "tt_probes"
                    | "tt_hits"
                    | "max_depth"
                    | "millis"
            );
            let _ = write!(out, "{}:", json_string(name));
            if value.is_empty() && (numeric || matches!(*name, "expected" | "agree")) {
                out.push_str("null");
            } else if numeric || *name == "agree" {
                out.push_str(&value);
            } else {
                out.push_str(&json_string(&value));
            }
        }
        out.push('}');
        out
    }

    fn fields(&self) -> Vec<String> {
        vec![
            self.game.clone(),
            self.file.clone(),
            self.id.clone(),
            self.solver.clone(),
            self.threads.to_string(),
            self.tt_mib.to_string(),
            self.options.clone(),
            self.outcome_str().to_string(),
            self.plies.map_or_else(String::new, |p| p.to_string()),
            self.best_move.clone(),
            self.expected.map_or("", Outcome::as_str).to_string(),
            self.agree.map_or_else(String::new, |a| a.to_string()),
            self.nodes.to_string(),
            self.tt_probes.to_string(),
            self.tt_hits.to_string(),
            self.max_depth.to_string(),
            format!("{:.3}", self.millis),
            self.git.clone(),
        ]
    }
}

/// Quotes a CSV field when it holds a comma, quote or newline.
pub fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Splits one CSV line into fields (RFC 4180 quoting; no newlines inside fields).
///
/// # Errors
/// An unterminated quote or text after a closing quote, with the 1-based column.
pub fn split_csv(line: &str) -> Result<Vec<String>, (usize, String)> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.char_indices().peekable();
    let mut at_start = true;
    while let Some((i, c)) = chars.next() {
        if at_start && c == '"' {
            at_start = false;
            loop {
                match chars.next() {
                    None => return Err((i + 1, "unterminated quoted field".into())),
                    Some((_, '"')) => {
                        if chars.peek().is_some_and(|&(_, c)| c == '"') {
                            chars.next();
                            field.push('"');
                        } else {
                            break;
                        }
                    }
                    Some((_, c)) => field.push(c),
                }
            }
            match chars.peek() {
                None | Some((_, ',')) => {}
                Some(&(j, _)) => return Err((j + 1, "text after a closing quote".into())),
            }
            continue;
        }
        at_start = false;
        if c == ',' {
            fields.push(std::mem::take(&mut field));
            at_start = true;
        } else {
            field.push(c);
        }
    }
    fields.push(field);
    Ok(fields)
}

/// A line of a result file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (1 when the whole line is at fault).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

/// Reads a result CSV. Columns are found by their header names, so files written before a column
/// was added still read (`options` then defaults to empty); a repeated header line (from
/// concatenated files) is skipped. Bad rows become errors and the rest is still read.
pub fn parse_csv(text: &str) -> (Vec<Row>, Vec<RowError>) {
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    let mut columns: Option<HashMap<String, usize>> = None;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.trim_end_matches('\r');
        if content.trim().is_empty() || content.starts_with('#') {
            continue;
        }
        let fields = match split_csv(content) {
            Ok(f) => f,
            Err((column, message)) => {
                errors.push(RowError { line, column, message });
                continue;
            }
        };
        if fields.first().is_some_and(|f| f == "game") {
            columns = Some(fields.iter().enumerate().map(|(i, f)| (f.clone(), i)).collect());
            continue;
        }
        let Some(cols) = &columns else {
            errors.push(RowError { line, column: 1, message: "row before the header".into() });
            continue;
        };
        match row_from_fields(cols, &fields) {
            Ok(row) => rows.push(row),
            Err(message) => errors.push(RowError { line, column: 1, message }),
        }
    }
    (rows, errors)
}

fn num<T: std::str::FromStr>(name: &str, text: &str) -> Result<T, String> {
    text.trim().parse().map_err(|_| format!("column `{name}`: not a number: `{text}`"))
}

fn row_from_fields(cols: &HashMap<String, usize>, fields: &[String]) -> Result<Row, String> {
    let get = |name: &str| -> Option<&str> {
        cols.get(name).and_then(|&i| fields.get(i)).map(String::as_str)
    };
    let need = |name: &str| -> Result<&str, String> {
        get(name).ok_or_else(|| format!("missing column `{name}`"))
    };
    let opt_num = |name: &str| -> Result<Option<u64>, String> {
        match get(name).map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) => num(name, t).map(Some),
        }
    };
    if fields.len() < cols.len() {
        return Err(format!("{} fields, the header has {}", fields.len(), cols.len()));
    }
    let outcome_text = need("outcome")?;
    let outcome = match outcome_text.trim() {
        "unknown" | "" => None,
        t => Some(parse_outcome(t).ok_or_else(|| format!("column `outcome`: `{t}`"))?),
    };
    let expected = get("expected").and_then(parse_outcome);
    let agree = match get("agree").map(str::trim) {
        Some("true") => Some(true),
        Some("false") => Some(false),
        _ => None,
    };
    Ok(Row {
        game: need("game")?.to_string(),
        file: get("file").unwrap_or("").to_string(),
        id: need("id")?.to_string(),
        solver: need("solver")?.to_string(),
        threads: opt_num("threads")?.unwrap_or(1) as u32,
        tt_mib: opt_num("tt_mib")?.unwrap_or(0),
        options: get("options").unwrap_or("").to_string(),
        outcome,
        plies: opt_num("plies")?.map(|p| p as u32),
        best_move: get("best_move").unwrap_or("").to_string(),
        expected,
        agree,
        nodes: num("nodes", need("nodes")?)?,
        tt_probes: opt_num("tt_probes")?.unwrap_or(0),
        tt_hits: opt_num("tt_hits")?.unwrap_or(0),
        max_depth: opt_num("max_depth")?.unwrap_or(0) as u32,
        millis: num("millis", need("millis")?)?,
        git: get("git").unwrap_or("").to_string(),
    })
}

/// Difficulty encoded in a generated position id `d<plies>-<n>` (see `bitsolve dataset`).
pub fn difficulty(id: &str) -> Option<u32> {
    let rest = id.strip_prefix('d')?;
    let (digits, _) = rest.split_once('-')?;
    digits.parse().ok()
}

/// A solver configuration in a set of rows: (game, solver, options, threads).
pub type Config = (String, String, String, u32);

/// The configuration of a row.
pub fn config_of(row: &Row) -> Config {
    (row.game.clone(), row.solver.clone(), row.options.clone(), row.threads)
}

/// Totals of one configuration.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// Rows (positions attempted).
    pub positions: u64,
    /// Rows with a known outcome.
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
        self.solved += u64::from(row.outcome.is_some());
        self.nodes += row.nodes;
        self.seconds += row.millis / 1000.0;
        self.tt_probes += row.tt_probes;
        self.tt_hits += row.tt_hits;
        self.wrong += u64::from(row.agree == Some(false));
    }

    /// Nodes per second over the totals.
    pub fn nodes_per_second(&self) -> f64 {
        if self.seconds > 0.0 { self.nodes as f64 / self.seconds } else { 0.0 }
    }

    /// TT hits per probe, if there were probes.
    pub fn hit_rate(&self) -> Option<f64> {
        (self.tt_probes > 0).then(|| self.tt_hits as f64 / self.tt_probes as f64)
    }
}

/// Totals per configuration, in sorted order. Only the last row of a repeated key counts.
pub fn totals(rows: &[Row]) -> BTreeMap<Config, Totals> {
    let mut map: BTreeMap<Config, Totals> = BTreeMap::new();
    for row in dedup(rows) {
        map.entry(config_of(row)).or_default().add(row);
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

/// Time and node ratios of `other` against `base` over the positions both solved:
/// `(common positions, base seconds / other seconds, base nodes / other nodes)`.
pub fn ratio(rows: &[Row], base: &Config, other: &Config) -> Option<(u64, f64, f64)> {
    let mut of_base: HashMap<(&str, &str), &Row> = HashMap::new();
    let rows = dedup(rows);
    for row in &rows {
        if &config_of(row) == base && row.outcome.is_some() {
            of_base.insert((row.file.as_str(), row.id.as_str()), row);
        }
    }
    let (mut n, mut tb, mut to, mut nb, mut no) = (0u64, 0.0, 0.0, 0u64, 0u64);
    for row in &rows {
        if &config_of(row) != other || row.outcome.is_none() {
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
    (n > 0 && to > 0.0 && no > 0).then(|| (n, tb / to, nb as f64 / no as f64))
}

/// Thread speedup of a configuration: its time against the same game, solver and options with
/// one thread, over the positions both solved.
pub fn speedup(rows: &[Row], config: &Config) -> Option<f64> {
    if config.3 == 1 {
        return None;
    }
    let base = (config.0.clone(), config.1.clone(), config.2.clone(), 1);
    ratio(rows, &base, config).map(|(_, t, _)| t)
}

/// Every position on which two rows give different known outcomes (across solvers,
/// configurations or files with the same game and id), or an outcome differs from `expected`:
/// one message per position.
pub fn disagreements(rows: &[Row]) -> Vec<String> {
    let mut by_pos: BTreeMap<(String, String, String), Vec<&Row>> = BTreeMap::new();
    for row in dedup(rows) {
        by_pos.entry((row.game.clone(), row.file.clone(), row.id.clone())).or_default().push(row);
    }
    let mut out = Vec::new();
    for ((game, file, id), rows) in by_pos {
        let known: Vec<&&Row> = rows.iter().filter(|r| r.outcome.is_some()).collect();
        let differ = known.windows(2).any(|w| w[0].outcome != w[1].outcome);
        let wrong = known.iter().any(|r| r.expected.is_some_and(|e| Some(e) != r.outcome));
        if differ || wrong {
            let mut msg = format!("{game} {file} {id}:");
            for r in &known {
                let _ = write!(msg, " {}/t{}={}", r.solver, r.threads, r.outcome_str());
            }
            if let Some(e) = known.iter().find_map(|r| r.expected) {
                let _ = write!(msg, " expected={e}");
            }
            out.push(msg);
        }
    }
    out
}

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

/// The main table: one line per configuration with positions, solved, wins/losses/draws,
/// total and mean nodes, time, nodes/s, TT hit rate and thread speedup.
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
    ];
    let right = header.iter().map(|h| !matches!(*h, "game" | "solver" | "options")).collect();
    let mut table =
        Table { header: header.iter().map(ToString::to_string).collect(), right, rows: Vec::new() };
    for (config, t) in totals(rows) {
        let mean = t.nodes.checked_div(t.positions).unwrap_or(0);
        table.rows.push(vec![
            config.0.clone(),
            config.1.clone(),
            if config.2.is_empty() { "-".into() } else { config.2.clone() },
            config.3.to_string(),
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
            speedup(rows, &config).map_or_else(|| "-".into(), |s| format!("{s:.2}")),
        ]);
    }
    table
}

/// Ratios of every configuration against the baseline configuration (chosen by `baseline`) of
/// the same game and options: positions both solved, time ratio and node ratio (baseline /
/// configuration; above 1 means faster or fewer nodes than the baseline). Configurations without
/// such a baseline are left out.
pub fn ratio_table(rows: &[Row], baseline: &dyn Fn(&Config) -> bool) -> Table {
    let header =
        ["game", "solver", "options", "threads", "baseline", "common", "time x", "nodes x"];
    let right = header.iter().map(|h| matches!(*h, "threads" | "common" | "time x" | "nodes x"));
    let mut table = Table {
        header: header.iter().map(ToString::to_string).collect(),
        right: right.collect(),
        rows: Vec::new(),
    };
    let configs: Vec<Config> = totals(rows).into_keys().collect();
    for config in &configs {
        // The baseline with the same game and options (the same run of `compare`).
        let Some(base) = configs.iter().find(|c| c.0 == config.0 && c.2 == config.2 && baseline(c))
        else {
            continue;
        };
        {
            let (n, t, nodes) = ratio(rows, base, config).unwrap_or((0, f64::NAN, f64::NAN));
            table.rows.push(vec![
                config.0.clone(),
                config.1.clone(),
                if config.2.is_empty() { "-".into() } else { config.2.clone() },
                config.3.to_string(),
                format!("{}/t{}", base.1, base.3),
                n.to_string(),
                format!("{t:.2}"),
                format!("{nodes:.2}"),
            ]);
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = "\
game,file,id,solver,threads,tt_mib,options,outcome,plies,best_move,expected,agree,nodes,tt_probes,tt_hits,max_depth,millis,git
ataxx,d.tsv,a,alphabeta,1,64,tt64,win,3,b1,win,true,100,50,10,3,10.000,abc
ataxx,d.tsv,a,alphabeta,2,64,tt64,win,3,b1,win,true,120,60,20,3,5.000,abc
ataxx,d.tsv,b,alphabeta,1,64,tt64,unknown,,,,,1000,0,0,9,100.000,abc
ataxx,d.tsv,a,dfpn,1,64,tt64,win,,\"a,b\",win,true,50,40,30,2,2.000,abc
game,file,id,solver,threads,tt_mib,options,outcome,plies,best_move,expected,agree,nodes,tt_probes,tt_hits,max_depth,millis,git
ataxx,d.tsv,b,dfpn,1,64,tt64,bogus,,,,,1,0,0,0,1.0,abc
ataxx,d.tsv,c,dfpn,1,64,tt64,\"unterminated
ataxx,d.tsv,b,dfpn,1,64,tt64,loss,,,,,5,0,0,0,1.0,abc
";

    #[test]
    fn fixture_reads_with_errors_located() {
        let (rows, errors) = parse_csv(FIXTURE);
        assert_eq!(rows.len(), 5);
        assert_eq!(rows[3].best_move, "a,b");
        assert_eq!(rows[2].outcome, None);
        assert_eq!(errors.len(), 2);
        assert_eq!((errors[0].line, errors[1].line), (7, 8));
        assert_eq!(errors[1].column, 30);
    }

    #[test]
    fn csv_and_json_round_trip() {
        let (rows, _) = parse_csv(FIXTURE);
        for row in &rows {
            let text = format!("{}\n{}\n", HEADER.join(","), row.to_csv());
            let (again, errors) = parse_csv(&text);
            assert!(errors.is_empty());
            assert_eq!(&again[0], row);
        }
        let json = rows[3].to_json();
        assert!(json.contains("\"best_move\":\"a,b\""), "{json}");
        assert!(json.contains("\"plies\":null") && json.contains("\"nodes\":50"), "{json}");
    }

    #[test]
    fn old_files_without_options_read() {
        let text = "game,file,id,solver,threads,tt_mib,outcome,plies,best_move,expected,agree,\
                    nodes,tt_probes,tt_hits,max_depth,millis,git\n\
                    gipf,f,x,dfpn,1,256,loss,,,,,0,0,0,0,0.000,4ee2\n";
        let (rows, errors) = parse_csv(text);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(rows[0].options, "");
    }

    #[test]
    fn aggregates_speedup_and_disagreement() {
        let (rows, _) = parse_csv(FIXTURE);
        let t = totals(&rows);
        let ab1 = ("ataxx".into(), "alphabeta".into(), "tt64".into(), 1);
        assert_eq!(t[&ab1].positions, 2);
        assert_eq!(t[&ab1].solved, 1);
        let ab2 = ("ataxx".into(), "alphabeta".into(), "tt64".into(), 2);
        assert_eq!(speedup(&rows, &ab2), Some(2.0));
        assert!(disagreements(&rows).is_empty());
        let mut bad = rows.clone();
        bad[3].outcome = Some(Outcome::Loss);
        let d = disagreements(&bad);
        assert_eq!(d.len(), 1);
        assert!(d[0].contains("dfpn/t1=loss"), "{d:?}");
        let table = summary_table(&rows).render(Format::Md);
        assert!(
            table.contains("| ataxx | alphabeta | tt64 | 2 | 1 | 1 | 1 | 0 | 0 | 120 |"),
            "{table}"
        );
        assert!(summary_table(&rows).render(Format::Tex).contains("\\toprule"));
    }

    #[test]
    fn difficulty_from_ids() {
        assert_eq!(difficulty("d12-3"), Some(12));
        assert_eq!(difficulty("3x4"), None);
    }
}
