//! Argument types and helpers shared by the commands: the search flags ([`SearchArgs`]), a
//! position with moves played on it ([`load_position`]), and game options
//! (`--game-option NAME=VALUE`).

/// Options common to the commands that search.
#[derive(clap::Args, Debug, Clone)]
#[allow(clippy::struct_excessive_bools)] // on/off flag pairs over the game's defaults
pub struct SearchArgs {
    /// Worker threads inside one search.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = bitsolve::search::TT_MIB_DEFAULT)]
    pub tt_mib: usize,
    /// df-pn 1+epsilon threshold factor (e.g. 0.25; 0 = plain df-pn thresholds). Default: the
    /// game's own (2 for gipf, 0.5 for geography, plain for the others).
    #[arg(long)]
    pub epsilon: Option<f64>,
    /// df-pn and PNS: start new leaves at 1/1 instead of the mobility initialisation (the
    /// default for gipf).
    #[arg(long, overrides_with = "mobility")]
    pub no_mobility: bool,
    /// df-pn and PNS: start new leaves from their move count (the default except for gipf).
    #[arg(long, overrides_with = "no_mobility")]
    pub mobility: bool,
    /// df-pn: count a new leaf as solved when its mover wins with the first reply (the default
    /// for gipf).
    #[arg(long, overrides_with = "no_win_probe")]
    pub win_probe: bool,
    /// df-pn: no first-reply probe (the default except for gipf).
    #[arg(long, overrides_with = "win_probe")]
    pub no_win_probe: bool,
    /// df-pn and PNS: weak proof numbers (the largest child number plus one per other open
    /// child instead of the sum; fewer nodes where transpositions abound).
    #[arg(long, overrides_with = "no_weak_numbers")]
    pub weak_numbers: bool,
    /// df-pn and PNS: summed proof numbers (the default).
    #[arg(long, overrides_with = "weak_numbers")]
    pub no_weak_numbers: bool,
    /// Give up on a position after this many seconds.
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Give up on a position after this many nodes.
    #[arg(long)]
    pub node_limit: Option<u64>,
    /// With `--threads`: the first helper starts at once (in score searches, `--score`, once
    /// the first thread has counted this many nodes alone), helper `k >= 2` joins the search
    /// once the threads have counted this many nodes times `2^(k-1)` (0: every thread starts at
    /// once). Default: 16384, and 2048 in score searches.
    #[arg(long)]
    pub join_nodes: Option<u64>,
    /// retro2 (gipf): keep one position per class under the twelve symmetries of the board
    /// (rotations and reflections): about 12 times fewer positions to reach and solve; the
    /// node count is then of classes. Refused by the other solvers.
    #[arg(long)]
    pub symmetry: bool,
    /// The table file of `--solver table` (written by `bitsolve table build`; memory-mapped,
    /// each layer's checksum checked when it is first read).
    #[arg(long)]
    pub table: Option<std::path::PathBuf>,
    /// retro2 (gipf): the directory of its checkpoints and tables: a solve resumes from its
    /// checkpoints, writes a table file when done, and answers a root found in a table there.
    #[arg(long)]
    pub checkpoint: Option<std::path::PathBuf>,
    /// retro2: progress lines (positions per second, memory) on standard error.
    #[arg(long)]
    pub progress: bool,
    /// The table of `--table`, once opened (`bitsolve solve` opens it before any solve).
    #[arg(skip)]
    pub opened_table: std::sync::OnceLock<std::sync::Arc<bitsolve::search::retro::file::TableFile>>,
}

impl SearchArgs {
    /// The solver options these flags ask for, starting from game `G`'s own
    /// ([`bitsolve::SolverOptions::for_game`]).
    pub fn options<G: bitsolve::Game>(&self) -> bitsolve::SolverOptions {
        let mut options = bitsolve::SolverOptions::for_game::<G>().with_epsilon_flag(self.epsilon);
        options.threads = usize::from(self.threads);
        options.tt_mib = self.tt_mib;
        options.helper_join = self.join_nodes;
        options.symmetry = self.symmetry;
        options.table = self.opened_table.get().cloned();
        options.checkpoint = self.checkpoint.as_deref().map(std::sync::Arc::from);
        options.progress = self.progress;
        if self.mobility || self.no_mobility {
            options.mobility = self.mobility;
        }
        if self.win_probe || self.no_win_probe {
            options.win_probe = self.win_probe;
        }
        if self.weak_numbers || self.no_weak_numbers {
            options.weak_numbers = self.weak_numbers;
        }
        options
    }

    /// The per-position limits these flags ask for.
    pub fn limits(&self) -> bitsolve::Limits {
        bitsolve::Limits {
            nodes: self.node_limit,
            time: self.time_limit.map(std::time::Duration::from_secs_f64),
            stop: None,
        }
    }
}

/// Reads a position and plays `moves` (each checked for legality) on it.
pub fn load_position<G: bitsolve::Notation>(text: &str, moves: &[String]) -> anyhow::Result<G> {
    use anyhow::Context;
    let mut pos = G::parse_position(text).with_context(|| {
        if text.trim().contains('\n') {
            "invalid position (lines counted from the first line of the text)".to_string()
        } else {
            format!("invalid position `{text}`")
        }
    })?;
    for (i, word) in moves.iter().flat_map(|m| m.split_whitespace()).enumerate() {
        if pos.outcome().is_some() {
            anyhow::bail!("move {} `{word}`: the game is already over", i + 1);
        }
        let mv = pos.parse_move(word).with_context(|| format!("move {} `{word}`", i + 1))?;
        pos.play(mv);
    }
    Ok(pos)
}

/// One `--game-option NAME=VALUE`.
///
/// # Errors
/// Text without `=` or with an empty name.
pub fn parse_game_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("`{text}` is not NAME=VALUE")),
    }
}

/// The game options a solve applies: every option of `G` ([`bitsolve::capability::Configurable`]) with
/// the value given for it, else its solve default, in the game's order.
///
/// # Errors
/// A given name `G` does not know, or a name given twice.
pub fn effective_game_options<G: bitsolve::Game>(
    given: &[(String, String)],
) -> anyhow::Result<Vec<(String, String)>> {
    let known = G::CAPABILITIES.options;
    for (k, (name, _)) in given.iter().enumerate() {
        if !known.iter().any(|o| o.name == name) {
            anyhow::bail!("--game-option: {}", bitsolve::capability::unknown_option(name, known));
        }
        if given[..k].iter().any(|(n, _)| n == name) {
            anyhow::bail!("--game-option: `{name}` given twice");
        }
    }
    Ok(known
        .iter()
        .map(|o| {
            let value = given.iter().find(|(n, _)| n == o.name).map_or(o.solve_default, |(_, v)| v);
            (o.name.to_string(), value.to_string())
        })
        .collect())
}

/// Sets the game options on a position.
///
/// # Errors
/// A value the game refuses.
pub fn apply_game_options<G: bitsolve::Game>(
    pos: &mut G,
    options: &[(String, String)],
) -> anyhow::Result<()> {
    for (name, value) in options {
        bitsolve::capability::set_option(pos, name, value)
            .map_err(|e| anyhow::anyhow!("--game-option {name}: {e}"))?;
    }
    Ok(())
}

/// The game options as they appear in result rows' option signatures: `-NAME=VALUE` each,
/// commas of a value written as `+`.
pub fn game_options_signature(options: &[(String, String)]) -> String {
    use std::fmt::Write as _;
    options.iter().fold(String::new(), |mut sig, (n, v)| {
        let _ = write!(sig, "-{n}={}", v.replace(',', "+"));
        sig
    })
}
