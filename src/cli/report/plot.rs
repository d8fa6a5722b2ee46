//! SVG plots for `bitsolve report` (plotters, SVG backend only).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};
use bitsolve::results::{Row, dedup, difficulty, speedup, totals};
use plotters::prelude::*;

/// One plot written: its title and file.
pub struct Plot {
    /// What it shows.
    pub title: String,
    /// The SVG file.
    pub path: PathBuf,
}

type Series = Vec<(String, Vec<(f64, f64)>)>;

/// Sum of times and count per difficulty.
type MeanByDepth = BTreeMap<u32, (f64, u32)>;

fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("plotting: {e}")
}

fn bounds(series: &Series) -> Option<((f64, f64), (f64, f64))> {
    let pts: Vec<(f64, f64)> = series.iter().flat_map(|(_, p)| p.iter().copied()).collect();
    if pts.is_empty() {
        return None;
    }
    let fold = |f: fn(&(f64, f64)) -> f64| {
        pts.iter()
            .map(f)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)))
    };
    Some((fold(|p| p.0), fold(|p| p.1)))
}

/// Draws `series` (points joined by lines when `lines`) on log or linear axes.
fn draw(
    path: &Path,
    title: &str,
    labels: (&str, &str),
    series: &Series,
    log: (bool, bool),
    lines: bool,
) -> Result<bool> {
    let Some(((x0, x1), (y0, y1))) = bounds(series) else { return Ok(false) };
    let pad = |lo: f64, hi: f64, log: bool| {
        if log {
            (lo.max(1e-3) / 2.0, hi.max(1e-3) * 2.0)
        } else {
            let m = ((hi - lo) * 0.1).max(0.5);
            ((lo - m).max(0.0), hi + m)
        }
    };
    let (x0, x1) = pad(x0, x1, log.0);
    let (y0, y1) = pad(y0, y1, log.1);
    let root = SVGBackend::new(path, (720, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    macro_rules! body {
        ($chart:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .x_desc(labels.0)
                .y_desc(labels.1)
                .x_label_formatter(&|v| tick(*v))
                .y_label_formatter(&|v| tick(*v))
                .draw()
                .map_err(err)?;
            for (i, (name, pts)) in series.iter().enumerate() {
                let color = Palette99::pick(i).to_rgba();
                if lines {
                    chart
                        .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))
                        .map_err(err)?;
                }
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
                    .map_err(err)?
                    .label(name.as_str())
                    .legend(move |(x, y)| Circle::new((x + 8, y), 4, color.filled()));
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()
                .map_err(err)?;
        }};
    }
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70);
    match log {
        (true, true) => body!(
            builder.build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale()).map_err(err)?
        ),
        (false, true) => {
            body!(builder.build_cartesian_2d(x0..x1, (y0..y1).log_scale()).map_err(err)?);
        }
        (true, false) => {
            body!(builder.build_cartesian_2d((x0..x1).log_scale(), y0..y1).map_err(err)?);
        }
        (false, false) => body!(builder.build_cartesian_2d(x0..x1, y0..y1).map_err(err)?),
    }
    root.present().map_err(err)?;
    Ok(true)
}

/// An axis label that reads well: `0.5`, `20`, `1.5k`, `100k`, `2M`, `1G` (never `100000.0`).
pub fn tick(v: f64) -> String {
    let trim = |x: f64, digits: usize| -> String {
        let text = format!("{x:.digits$}");
        if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            text
        }
    };
    let a = v.abs();
    if !v.is_finite() {
        return v.to_string();
    }
    for (scale, suffix) in [(1e9, "G"), (1e6, "M"), (1e3, "k")] {
        if a >= scale {
            return format!("{}{suffix}", trim(v / scale, usize::from(a < 10.0 * scale)));
        }
    }
    if a == 0.0 || a >= 1.0 {
        return trim(v, usize::from(a < 10.0 && a != 0.0 && v.fract() != 0.0));
    }
    // Below 1: enough digits for two significant ones (0.5, 0.05, 0.0013).
    let digits = (-a.log10()).floor() as usize + 2;
    trim(v, digits)
}

fn label(solver: &str, options: &str, threads: u32) -> String {
    if options.is_empty() {
        format!("{solver} t{threads}")
    } else {
        format!("{solver} {options} t{threads}")
    }
}

/// Writes every plot the rows allow into `dir`: per game, nodes against time per solver, thread
/// speedup, and solve time by difficulty (for generated `d<plies>-<n>` ids).
pub fn write_plots(rows: &[Row], dir: &Path) -> Result<Vec<Plot>> {
    std::fs::create_dir_all(dir).map_err(|e| anyhow!("creating {}: {e}", dir.display()))?;
    let rows: Vec<Row> = dedup(rows).into_iter().cloned().collect();
    let games: BTreeSet<String> = rows.iter().map(|r| r.game.clone()).collect();
    let mut plots = Vec::new();
    for game in &games {
        let of_game: Vec<&Row> = rows.iter().filter(|r| &r.game == game).collect();
        // Nodes against time, one point per solved position.
        let mut by_config: BTreeMap<(String, String, u32), Vec<(f64, f64)>> = BTreeMap::new();
        for r in of_game.iter().filter(|r| r.solved() && r.nodes > 0 && r.millis > 0.0) {
            by_config
                .entry((r.solver.clone(), r.options.clone(), r.threads))
                .or_default()
                .push((r.millis, r.nodes as f64));
        }
        let series: Series =
            by_config.into_iter().map(|((s, o, t), p)| (label(&s, &o, t), p)).collect();
        let path = dir.join(format!("nodes-time-{game}.svg"));
        let title = format!("{game}: nodes against time per solved position");
        if draw(&path, &title, ("time (ms)", "nodes"), &series, (true, true), false)? {
            plots.push(Plot { title, path });
        }
        // Speedup against threads.
        let mut sp: BTreeMap<(String, String), Vec<(f64, f64)>> = BTreeMap::new();
        // Solvers without threads get no line (their rows at several threads are the same
        // sequential search).
        let threaded = |c: &bitsolve::results::Config| {
            bitsolve::results::uses_threads(
                &c.solver,
                bitsolve::results::is_score_options(&c.options),
            )
        };
        for config in totals(&rows).into_keys().filter(|c| &c.game == game && threaded(c)) {
            let value = if config.threads == 1 { Some(1.0) } else { speedup(&rows, &config) };
            if let Some(v) = value {
                sp.entry((config.solver.clone(), config.options.clone()))
                    .or_default()
                    .push((f64::from(config.threads), v));
            }
        }
        if sp.values().any(|p| p.len() > 1) {
            let series: Series = sp
                .into_iter()
                .filter(|(_, p)| p.len() > 1)
                .map(|((s, o), p)| (if o.is_empty() { s } else { format!("{s} {o}") }, p))
                .collect();
            let path = dir.join(format!("speedup-{game}.svg"));
            let title = format!("{game}: speedup against threads");
            if draw(&path, &title, ("threads", "speedup"), &series, (false, false), true)? {
                plots.push(Plot { title, path });
            }
        }
        // Mean time by difficulty.
        let mut diff: BTreeMap<(String, String, u32), MeanByDepth> = BTreeMap::new();
        for r in of_game.iter().filter(|r| r.solved()) {
            if let Some(d) = difficulty(&r.id) {
                let key = (r.solver.clone(), r.options.clone(), r.threads);
                let e = diff.entry(key).or_default().entry(d).or_insert((0.0, 0));
                e.0 += r.millis.max(1e-3);
                e.1 += 1;
            }
        }
        if !diff.is_empty() {
            let series: Series = diff
                .into_iter()
                .map(|((s, o, t), m)| {
                    let pts = m.into_iter().map(|(d, (sum, n))| (f64::from(d), sum / f64::from(n)));
                    (label(&s, &o, t), pts.collect())
                })
                .collect();
            let path = dir.join(format!("difficulty-{game}.svg"));
            let title = format!("{game}: mean solve time by random plies from the start");
            if draw(
                &path,
                &title,
                ("plies played", "mean time (ms)"),
                &series,
                (false, true),
                true,
            )? {
                plots.push(Plot { title, path });
            }
        }
    }
    Ok(plots)
}

#[cfg(test)]
mod tests {
    use super::tick;

    #[test]
    fn ticks_read_well() {
        let got: Vec<String> =
            [100_000.0, 1e6, 2.5e6, 1500.0, 1000.0, 20.0, 1.5, 0.5, 0.01, 0.0013, 0.0, 1e9]
                .iter()
                .map(|&v| tick(v))
                .collect();
        assert_eq!(
            got,
            ["100k", "1M", "2.5M", "1.5k", "1k", "20", "1.5", "0.5", "0.01", "0.0013", "0", "1G"]
        );
    }
}
