//! The row type and its column table: one macro invocation declares every column once (name,
//! type, serde handling and meaning), and the struct, [`HEADER`] and [`COLUMNS`] all come from it.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer, de};

use crate::dataset::parse_outcome;
use crate::game::Outcome;

/// One column of a result file: its name in CSV headers and JSON keys, and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// Header name (also the JSON key).
    pub name: &'static str,
    /// What the column holds (Markdown; the schema section of `bitsolve report`).
    pub doc: &'static str,
}

/// Declares [`Row`], [`HEADER`] and [`COLUMNS`] from one list of `field: type => "doc"`.
macro_rules! columns {
    ($( $(#[$meta:meta])* $field:ident : $ty:ty => $doc:literal, )*) => {
        /// One solved (or given-up) position for one solver configuration: a line of a result
        /// CSV file and of its JSON Lines twin. Fields are the columns of [`COLUMNS`], in order.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub struct Row {
            $(
                #[doc = $doc]
                $(#[$meta])*
                pub $field: $ty,
            )*
        }

        /// The CSV columns, in order.
        pub const HEADER: &[&str] = &[$(stringify!($field)),*];

        /// Every column with its meaning, in order.
        pub const COLUMNS: &[Column] = &[$(Column { name: stringify!($field), doc: $doc }),*];
    };
}

columns! {
    game: String => "game name (`bitsolve info --game G`)",
    #[serde(default)]
    file: String => "dataset file as given on the command line",
    id: String => "position id in the file (`L<line>` for plain one-position lines)",
    solver: String => "`brute`, `alphabeta`, `pns`, `dfpn`, `matching`, `retro` or `auto`",
    #[serde(default = "one")]
    threads: u32 => "threads inside one search (always 1 for a solver that has no threads)",
    #[serde(default)]
    tt_mib: u64 => "transposition table MiB (per solver and job)",
    #[serde(default)]
    options: String => "signature of the other options and limits: \
        `tt<MiB>[-eps<e>][-nomob][-probe][-tl<s>][-nl<nodes>][-score]` (part of the resume key; \
        `-score`: an exact-score run, `solve --score`)",
    #[serde(with = "outcome_or_unknown")]
    outcome: Option<Outcome> => "`win`, `draw`, `loss` for the side to move, `unknown` when a limit \
        stopped the search (score runs: the sign of a non-zero score, else `unknown`)",
    #[serde(default)]
    plies: Option<u32> => "distance to the end with best play (alphabeta only; empty otherwise)",
    #[serde(default)]
    best_move: String => "a move achieving the outcome, in the game's notation",
    #[serde(default, with = "loose_outcome")]
    expected: Option<Outcome> => "the dataset's known value, if any",
    #[serde(default, deserialize_with = "loose_bool")]
    agree: Option<bool> => "`true`/`false`: outcome equals expected (empty if either is missing)",
    nodes: u64 => "positions visited",
    #[serde(default)]
    tt_probes: u64 => "transposition table lookups",
    #[serde(default)]
    tt_hits: u64 => "lookups that found their position",
    #[serde(default)]
    max_depth: u32 => "deepest ply below the root",
    millis: f64 => "wall time in milliseconds",
    #[serde(default)]
    git: String => "revision of the binary: the commit it was built from (a suffix marks a build with uncommitted changes)",
    #[serde(default)]
    score: Option<i64> => "exact final score for the side to move (`solve --score`, games with a \
        score: gauss); empty for outcome runs and when a limit stopped the search",
}

fn one() -> u32 {
    1
}

/// The resume key of a row: a row with the same key is the same piece of work.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RowKey {
    /// Dataset file.
    pub file: String,
    /// Position id in the file.
    pub id: String,
    /// Solver name.
    pub solver: String,
    /// Threads inside the solver.
    pub threads: u32,
    /// Options signature.
    pub options: String,
}

/// A solver configuration in a set of rows. Sorted by game, solver, options, then threads.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Config {
    /// Game name.
    pub game: String,
    /// Solver name.
    pub solver: String,
    /// Options signature.
    pub options: String,
    /// Threads inside the solver.
    pub threads: u32,
}

impl Config {
    /// The same configuration with another thread count.
    #[must_use]
    pub fn with_threads(&self, threads: u32) -> Config {
        Config { threads, ..self.clone() }
    }

    /// The options column as shown in tables (`-` when empty).
    pub fn options_label(&self) -> &str {
        if self.options.is_empty() { "-" } else { &self.options }
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {} t{}", self.game, self.solver, self.options_label(), self.threads)
    }
}

impl Row {
    /// The resume key: (file, id, solver, threads, options).
    pub fn key(&self) -> RowKey {
        RowKey {
            file: self.file.clone(),
            id: self.id.clone(),
            solver: self.solver.clone(),
            threads: self.threads,
            options: self.options.clone(),
        }
    }

    /// The configuration: (game, solver, options, threads).
    pub fn config(&self) -> Config {
        Config {
            game: self.game.clone(),
            solver: self.solver.clone(),
            options: self.options.clone(),
            threads: self.threads,
        }
    }

    /// The outcome as written in files (`win`, `draw`, `loss`, `unknown`).
    pub fn outcome_str(&self) -> &'static str {
        self.outcome.map_or("unknown", Outcome::as_str)
    }

    /// Whether the row is from an exact-score run (`-score` in its options signature).
    pub fn is_score_run(&self) -> bool {
        is_score_options(&self.options)
    }

    /// Whether the row has an answer: a known outcome, or a known score in a score run.
    pub fn solved(&self) -> bool {
        self.outcome.is_some() || self.score.is_some()
    }
}

/// Whether an options signature is that of an exact-score run.
pub fn is_score_options(options: &str) -> bool {
    options.split('-').any(|part| part == "score")
}

/// The configuration of a row (same as [`Row::config`]).
pub fn config_of(row: &Row) -> Config {
    row.config()
}

/// `outcome`: `unknown` for `None`; reading also takes an empty field as unknown.
mod outcome_or_unknown {
    use super::{Deserialize, Deserializer, Outcome, Serializer, de, parse_outcome};

    #[allow(clippy::ref_option, clippy::trivially_copy_pass_by_ref)] // serde's `with` signature
    pub fn serialize<S: Serializer>(value: &Option<Outcome>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(value.map_or("unknown", Outcome::as_str))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Outcome>, D::Error> {
        let text = String::deserialize(d)?;
        match text.trim() {
            "" | "unknown" => Ok(None),
            t => parse_outcome(t).map(Some).ok_or_else(|| {
                de::Error::custom(format!(
                    "column `outcome`: `{t}` is not win, draw, loss or unknown"
                ))
            }),
        }
    }
}

/// `expected`: empty (CSV) or `null` (JSON) for `None`; an unreadable value reads as `None`, as
/// files of every version have done.
mod loose_outcome {
    use super::{Deserialize, Deserializer, Outcome, Serializer, parse_outcome};

    #[allow(clippy::ref_option, clippy::trivially_copy_pass_by_ref)] // serde's `with` signature
    pub fn serialize<S: Serializer>(value: &Option<Outcome>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(o) => s.serialize_str(o.as_str()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Outcome>, D::Error> {
        Ok(Option::<String>::deserialize(d)?.as_deref().and_then(parse_outcome))
    }
}

/// `agree`: `true`/`false` as booleans or text; anything else reads as `None`.
fn loose_bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    struct Loose;
    impl<'de> de::Visitor<'de> for Loose {
        type Value = Option<bool>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("true, false or nothing")
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Ok(Some(v))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(match v.trim() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            })
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Self::Value, D2::Error> {
            d.deserialize_any(Loose)
        }
    }
    d.deserialize_any(Loose)
}
