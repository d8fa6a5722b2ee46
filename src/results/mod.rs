//! Result rows of batch runs: the row schema, the CSV / JSON Lines formats, and the aggregates
//! and tables (`report`, `compare`) computed from rows.
//!
//! One row per (position, solver configuration). The columns are declared once, in
//! [`row`] ([`COLUMNS`]: name, type and meaning), and that one table drives the CSV
//! header, both writers, both readers and the schema section of `bitsolve report`. A row's
//! resume key is [`Row::key`]: (dataset file, position id, solver, threads, options signature).
//!
//! * [`row`]: [`Row`], [`RowKey`], [`Config`], [`COLUMNS`].
//! * [`formats`]: CSV and JSON Lines through `csv` and `serde_json`, read through
//!   [`crate::lineio`] so a bad line costs one row.
//! * [`aggregates`]: totals, speedups, ratios, disagreements.
//! * [`tables`]: the summary, ratio and score tables in Markdown, CSV or LaTeX.
//!
//! ```
//! use bitsolve::results::{parse_csv, HEADER};
//! let text = format!("{}\nataxx,d.tsv,a,dfpn,1,64,tt64,win,3,b1,win,true,10,4,1,3,0.5,abc\n", HEADER[..18].join(","));
//! let (rows, errors) = parse_csv(text.as_bytes());
//! assert!(errors.is_empty());
//! assert_eq!(rows[0].nodes, 10);
//! assert_eq!(rows[0].score, None);
//! ```

pub mod aggregates;
pub mod formats;
pub mod row;
pub mod tables;

pub use aggregates::{
    Ratio, Totals, dedup, difficulty, disagreements, ratio, speedup, speedup_total, totals,
    uses_threads,
};
pub use formats::{
    RowError, complete_len, csv_field, csv_header, parse_csv, parse_jsonl, split_csv,
};
pub use row::{COLUMNS, Column, Config, HEADER, Row, RowKey, config_of, is_score_options};
pub use tables::{Baseline, Format, Table, ratio_table, score_table, summary_table};

#[cfg(test)]
mod tests {
    use super::*;

    /// A field with a comma or quote is written whole (its closing quote included) and reads
    /// back the same: found by the results fuzz target.
    #[test]
    fn csv_fields_round_trip() {
        for field in ["b,\"c\"", "plain", "", "x\"", ",", "a b"] {
            let line = format!("a,{},d", csv_field(field));
            let fields = split_csv(&line).unwrap_or_else(|e| panic!("{line}: {e:?}"));
            assert_eq!(fields[1].1, field, "{line}");
            assert_eq!(fields.len(), 3);
        }
    }
    use crate::game::Outcome;

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
        let (rows, errors) = parse_csv(FIXTURE.as_bytes());
        assert_eq!(rows.len(), 5);
        assert_eq!(rows[3].best_move, "a,b");
        assert_eq!(rows[2].outcome, None);
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!((errors[0].line, errors[1].line), (7, 8));
        // `bogus` in the outcome column, which starts at column 30 of line 7.
        assert_eq!(errors[0].column, 30);
        assert!(errors[0].message.contains("`outcome`"), "{}", errors[0]);
        assert_eq!(errors[1].column, 30);
    }

    #[test]
    fn bad_bytes_cost_one_row() {
        let mut bytes =
            FIXTURE.as_bytes()[..10 + FIXTURE[10..].find("game,file").unwrap()].to_vec();
        bytes.extend_from_slice(b"ataxx,d.tsv,z,dfpn,1,64,tt64,win,,\xff,,,1,0,0,0,1.0,abc\n");
        bytes.extend_from_slice(b"ataxx,d.tsv,y,dfpn,1,64,tt64,win,,\x00,,,1,0,0,0,1.0,abc\n");
        bytes.extend_from_slice(b"ataxx,d.tsv,x,dfpn,1,64,tt64,win,,,,,1,0,0,0,1.0,abc\n");
        let (rows, errors) = parse_csv(&bytes);
        assert_eq!(rows.len(), 5);
        assert_eq!(rows[4].id, "x");
        assert_eq!(errors.len(), 2);
        assert_eq!((errors[0].line, errors[0].column), (6, 35));
        assert!(errors[0].to_string().contains("invalid UTF-8"), "{}", errors[0]);
        assert!(errors[1].to_string().contains("control byte 0x00"), "{}", errors[1]);
    }

    #[test]
    fn csv_and_json_round_trip() {
        let (mut rows, _) = parse_csv(FIXTURE.as_bytes());
        rows[1].score = Some(-7);
        let mut csv = format!("{}\n", csv_header());
        let mut json = String::new();
        for row in &rows {
            let text = format!("{}\n{}\n", csv_header(), row.to_csv());
            let (again, errors) = parse_csv(text.as_bytes());
            assert!(errors.is_empty(), "{errors:?}");
            assert_eq!(&again[0], row);
            csv.push_str(&row.to_csv());
            csv.push('\n');
            json.push_str(&row.to_json());
            json.push('\n');
        }
        assert_eq!(parse_csv(csv.as_bytes()).0, rows);
        assert_eq!(parse_jsonl(json.as_bytes()).0, rows);
        let json = rows[3].to_json();
        assert!(json.contains("\"best_move\":\"a,b\""), "{json}");
        assert!(json.contains("\"plies\":null") && json.contains("\"nodes\":50"), "{json}");
        assert!(rows[3].to_csv().contains(",\"a,b\","));
        assert!(rows[1].to_json().ends_with("\"score\":-7}"));
    }

    #[test]
    fn old_files_without_options_read() {
        let text = "game,file,id,solver,threads,tt_mib,outcome,plies,best_move,expected,agree,\
                    nodes,tt_probes,tt_hits,max_depth,millis,git\n\
                    gipf,f,x,dfpn,1,256,loss,,,,,0,0,0,0,0.000,4ee2\n";
        let (rows, errors) = parse_csv(text.as_bytes());
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(rows[0].options, "");
        assert_eq!(rows[0].score, None);
    }

    /// Every committed result file (written before serde) reads, and reads back identically
    /// after being written again; every JSON Lines twin holds the same rows as its CSV.
    #[test]
    fn committed_result_files_round_trip() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
        let mut stack = vec![root];
        let mut files = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                // Result files only (other CSV tables live under results/ too).
                let is_results = std::fs::read(&path).unwrap().starts_with(b"game,file,id,");
                if path.extension().is_none_or(|e| e != "csv") || !is_results {
                    continue;
                }
                let (rows, errors) = parse_csv(&std::fs::read(&path).unwrap());
                assert!(errors.is_empty(), "{}: {errors:?}", path.display());
                if rows.is_empty() {
                    continue;
                }
                files += 1;
                let mut again = format!("{}\n", csv_header());
                let mut json = String::new();
                for row in &rows {
                    again.push_str(&row.to_csv());
                    again.push('\n');
                    json.push_str(&row.to_json());
                    json.push('\n');
                }
                assert_eq!(
                    parse_csv(again.as_bytes()),
                    (rows.clone(), vec![]),
                    "{}",
                    path.display()
                );
                assert_eq!(
                    parse_jsonl(json.as_bytes()),
                    (rows.clone(), vec![]),
                    "{}",
                    path.display()
                );
                let twin = path.with_extension("jsonl");
                if twin.exists() {
                    let (old_json, errors) = parse_jsonl(&std::fs::read(&twin).unwrap());
                    assert!(errors.is_empty(), "{}: {errors:?}", twin.display());
                    assert_eq!(old_json, rows, "{}", twin.display());
                }
            }
        }
        assert!(files >= 5, "only {files} result files found");
    }

    #[test]
    fn columns_table_drives_the_header() {
        assert_eq!(HEADER.len(), COLUMNS.len());
        let (rows, _) = parse_csv(FIXTURE.as_bytes());
        let json: serde_json::Value = serde_json::from_str(&rows[0].to_json()).unwrap();
        let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
        let mut names: Vec<&str> = COLUMNS.iter().map(|c| c.name).collect();
        names.sort_unstable();
        let mut keys = keys;
        keys.sort_unstable();
        assert_eq!(keys, names);
    }

    #[test]
    fn aggregates_speedup_and_disagreement() {
        let (rows, _) = parse_csv(FIXTURE.as_bytes());
        let t = totals(&rows);
        let ab1 = Config {
            game: "ataxx".into(),
            solver: "alphabeta".into(),
            options: "tt64".into(),
            threads: 1,
        };
        assert_eq!(t[&ab1].positions, 2);
        assert_eq!(t[&ab1].solved, 1);
        let ab2 = ab1.with_threads(2);
        assert_eq!(speedup(&rows, &ab2), Some(2.0));
        // Total time: 110 ms at one thread (b given up) over 5 ms at two (a only): no
        // common set of positions, so no total speedup.
        assert_eq!(speedup_total(&rows, &ab2), None);
        let mut both = rows.clone();
        let mut b2 = both[2].clone();
        b2.threads = 2;
        b2.millis = 50.0;
        both.push(b2);
        let s = speedup_total(&both, &ab2).unwrap();
        assert!((s - 110.0 / 55.0).abs() < 1e-9, "{s}");
        // A solver without threads is never parallel.
        let mut pns = both.clone();
        for r in &mut pns {
            r.solver = "pns".into();
        }
        assert_eq!(speedup(&pns, &Config { solver: "pns".into(), ..ab2.clone() }), None);
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
        assert!(table.contains("| 2.00 | - |"), "{table}");
        assert!(summary_table(&rows).render(Format::Tex).contains("\\toprule"));
    }

    #[test]
    fn scores_aggregate_and_disagree() {
        let (rows, _) = parse_csv(FIXTURE.as_bytes());
        let mut scored: Vec<Row> = rows[..2].to_vec();
        for (r, s) in scored.iter_mut().zip([3, 5]) {
            r.options = "tt64-score".into();
            r.threads = 1;
            r.score = Some(s);
        }
        scored[1].id = "b".into();
        let table = score_table(&scored).render(Format::Csv);
        assert!(table.contains("ataxx,alphabeta,tt64-score,1,2,2,3,5,4.00"), "{table}");
        assert!(score_table(&rows).rows.is_empty());
        let mut other = scored[0].clone();
        other.solver = "dfpn".into();
        other.score = Some(1);
        scored.push(other);
        let d = disagreements(&scored);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].contains("(score 1)") && d[0].contains("(score 3)"), "{d:?}");
    }

    #[test]
    fn baselines_parse_and_pin_options() {
        let b = Baseline::parse("dfpn/t2@tt64-eps2").unwrap();
        assert_eq!(
            (b.solver.as_str(), b.threads, b.options.as_deref()),
            ("dfpn", 2, Some("tt64-eps2"))
        );
        assert!(Baseline::parse("dfpn/tx").is_err());
        let (rows, _) = parse_csv(FIXTURE.as_bytes());
        let plain = ratio_table(&rows, &Baseline::parse("alphabeta").unwrap()).render(Format::Csv);
        assert!(plain.contains("ataxx,dfpn,tt64,1,alphabeta/t1,1,5.00,2.00"), "{plain}");
    }

    #[test]
    fn difficulty_from_ids() {
        assert_eq!(difficulty("d12-3"), Some(12));
        assert_eq!(difficulty("3x4"), None);
    }
}
