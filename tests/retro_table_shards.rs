//! Sharded and memory-mapped table builds give the same table as one process in memory:
//! `table reach`, `table layer --shard K/N`, `table merge` and `table assemble` (the steps of
//! scripts/slurm-table.sh), and `table build --map` / `--memory`, against `table build`.

use crate::common;
use common::TempDir;

use std::path::Path;
use std::process::Command;

use bitsolve::AtaxxStandard;
use bitsolve::games::ataxx::index::AtaxxIndex;
use bitsolve::search::retro::ataxx::AtaxxModel;
use bitsolve::search::retro::driver::solve_in_memory;
use bitsolve::search::retro::file::CellFormat;
use bitsolve::search::retro::model::LayerModel;
use bitsolve::search::retro::solve::{Control, Scanned, propagate, scan_range, shard_range};
use bitsolve::search::retro::store::{MappedCells, Parts};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bitsolve"))
}

fn tmp_dir(name: &str) -> TempDir {
    TempDir::new(&format!("retro-shards-{name}"))
}

/// Runs `bitsolve table <args> --game G --board B --out OUT --threads 1 --quiet`; returns
/// stdout.
fn table(step: &[&str], game: &str, board: &str, out: &Path) -> String {
    let o = bin()
        .arg("table")
        .args(step)
        .args(["--game", game, "--board", board, "--threads", "1", "--quiet", "--out"])
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "table {step:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn sharded_build_equals_one_process() {
    let dir = tmp_dir("3x4");
    for game in ["ataxx", "ataxx-polish"] {
        let board = "3x4";
        let single = dir.join(format!("{game}-single.tbl"));
        let row = table(&["build", "--csv"], game, board, &single);
        let sharded = dir.join(format!("{game}-sharded.tbl"));
        table(&["reach"], game, board, &sharded);
        for layer in (0..=12).rev() {
            let l = layer.to_string();
            // The shards in reverse order: no shard depends on another.
            for k in (0..3).rev() {
                table(
                    &["layer", "--layer", &l, "--shard", &format!("{k}/3")],
                    game,
                    board,
                    &sharded,
                );
            }
            table(&["merge", "--layer", &l, "--shards", "3"], game, board, &sharded);
        }
        let sharded_row = table(&["assemble", "--csv"], game, board, &sharded);
        assert_eq!(sharded_row, row);
        // The rows of results/ataxx/solved-boards.csv.
        let want = if game == "ataxx" {
            "3x4,standard,211428,132556,59460,19412,win,3,retro-index\n"
        } else {
            "3x4,polish,211288,132416,59460,19412,win,3,retro-index\n"
        };
        assert_eq!(row, want);
        // Every value, byte for byte (header included).
        assert_eq!(std::fs::read(&sharded).unwrap(), std::fs::read(&single).unwrap());
        // Whole layers in one process each: the same.
        let layered = dir.join(format!("{game}-layered.tbl"));
        table(&["reach"], game, board, &layered);
        for layer in (0..=12).rev() {
            table(&["layer", "--layer", &layer.to_string()], game, board, &layered);
        }
        assert_eq!(table(&["assemble", "--csv"], game, board, &layered), row);
        assert_eq!(std::fs::read(&layered).unwrap(), std::fs::read(&single).unwrap());
    }
}

#[test]
fn steps_out_of_order_are_refused_with_the_reason() {
    let dir = tmp_dir("order");
    let out = dir.join("t.tbl");
    let run = |args: &[&str]| {
        bin()
            .arg("table")
            .args(args)
            .args(["--game", "ataxx", "--board", "2x4", "--quiet", "--out"])
            .arg(&out)
            .output()
            .unwrap()
    };
    let err = |o: std::process::Output| {
        assert!(!o.status.success());
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    assert!(err(run(&["layer", "--layer", "8"])).contains("table reach"));
    assert!(run(&["reach"]).status.success());
    assert!(err(run(&["layer", "--layer", "7"])).contains("layer 8 is not finished"));
    assert!(err(run(&["layer", "--layer", "9"])).contains("no layer 9"));
    assert!(err(run(&["layer", "--layer", "8", "--shard", "3/3"])).contains("0 <= i < n"));
    assert!(run(&["layer", "--layer", "8", "--shard", "0/2"]).status.success());
    assert!(err(run(&["merge", "--layer", "8", "--shards", "2"])).contains("part-1-of-2"));
    assert!(err(run(&["assemble"])).contains("not finished"));
}

#[test]
fn mapped_builds_equal_the_in_memory_build() {
    let dir = tmp_dir("mapped");
    let board = "3x4";
    let single = dir.join("single.tbl");
    let row = table(&["build", "--csv"], "ataxx", board, &single);
    let mapped = dir.join("mapped.tbl");
    assert_eq!(table(&["build", "--csv", "--map"], "ataxx", board, &mapped), row);
    assert_eq!(std::fs::read(&mapped).unwrap(), std::fs::read(&single).unwrap());
    // 3x4: an estimate of 1,245,180 bytes (0.00116 GiB) in memory, 1,019,900 (0.00095 GiB)
    // with the solved layers mapped: a budget between the two maps them.
    let budget = dir.join("budget.tbl");
    let o = bin()
        .args(["table", "build", "--game", "ataxx", "--board", board, "--threads", "1"])
        .args(["--quiet", "--csv", "--memory", "0.00105", "--out"])
        .arg(&budget)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("memory-mapped"));
    assert_eq!(String::from_utf8_lossy(&o.stdout), row);
    assert_eq!(std::fs::read(&budget).unwrap(), std::fs::read(&single).unwrap());
    // Below even the mapped estimate: refused.
    let o = bin()
        .args(["table", "build", "--game", "ataxx", "--board", board, "--memory", "0.0009"])
        .arg("--out")
        .arg(dir.join("small.tbl"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("over the budget"));
}

/// The library steps: scans of shards joined, then propagated, equal the layer solved at
/// once, on every layer of 4x2 and 3x3 (shard counts with empty and one-rank shards too);
/// cells read through a map equal the cells written.
#[test]
fn shard_scans_joined_equal_the_whole_layer() {
    for (w, h) in [(4u32, 2u32), (3, 3)] {
        let start = AtaxxStandard::start(w, h);
        let model = AtaxxModel::new(AtaxxIndex::for_position(&start));
        let whole = solve_in_memory(&model).unwrap();
        for layer in (0..model.layers()).rev() {
            let size = model.layer_size(layer);
            let later: Vec<&[u16]> = whole.get(layer + 1).map(Vec::as_slice).into_iter().collect();
            for shards in [1u64, 3, 7, size + 2] {
                let mut joined = Scanned::default();
                for k in 0..shards {
                    let r = shard_range(size, k, shards);
                    let part =
                        scan_range(&model, layer, r, &later, None, &Control::default()).unwrap();
                    joined.append(part);
                }
                let cells = propagate(&model, layer, joined, &Control::default()).unwrap();
                assert_eq!(cells, whole[layer], "{h}x{w} layer {layer} in {shards} shards");
            }
        }
        // Through the checkpoint files and a map.
        let dir = tmp_dir(&format!("map-{w}x{h}"));
        let parts = Parts::new(&dir.join("t.tbl")).unwrap();
        let l = model.layers() / 2;
        parts.save(l, &whole[l], CellFormat::Values2, [0; 4]).unwrap();
        let mapped = parts.map_cells(l, whole[l].len() as u64).unwrap();
        assert_eq!((*mapped).as_ref(), whole[l].as_slice());
        let cells = dir.join("t.tbl.parts").join(format!("layer-{l}.cells"));
        let Err(err) = MappedCells::open(&cells, whole[l].len() as u64 + 1) else {
            panic!("a cells file of the wrong length was mapped");
        };
        assert!(err.to_string().contains("expected"), "{err}");
    }
}

#[test]
fn shard_ranges_cover_the_layer_in_order() {
    for size in [0u64, 1, 5, 100, 1 << 40] {
        for shards in [1u64, 2, 3, 7, 64] {
            let mut at = 0;
            for k in 0..shards {
                let r = shard_range(size, k, shards);
                assert_eq!(r.start, at);
                assert!(r.end - r.start <= size / shards + 1);
                at = r.end;
            }
            assert_eq!(at, size);
        }
    }
    assert_eq!(shard_range(10, 0, 0), 0..0);
}

/// A GIPF root built in steps (the command line of `scripts/slurm-table.sh`): reach, every
/// layer from the last down scanned in 3 shards (their hidden edges carried in the part
/// files) and merged, then assembled, gives the table of one process, byte for byte.
#[test]
fn sharded_gipf_build_equals_one_process() {
    let dir = tmp_dir("gipf");
    let root = "2 2 9 9/6 6 W/WB/B_W/WB";
    let run = |args: &[&str], out: &Path| {
        let o = bin()
            .args(["table"])
            .args(args)
            .args(["--game", "gipf", "--position", root, "--threads", "1", "--quiet", "--out"])
            .arg(out)
            .output()
            .unwrap();
        assert!(o.status.success(), "table {args:?}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let single = dir.join("single.tbl");
    let row = run(&["build", "--csv"], &single);
    let sharded = dir.join("sharded.tbl");
    let info = run(&["info"], &sharded);
    let layers: usize = info.split_whitespace().next().unwrap()["layers=".len()..].parse().unwrap();
    run(&["reach"], &sharded);
    for layer in (0..layers).rev() {
        let l = layer.to_string();
        for k in (0..3).rev() {
            run(&["layer", "--layer", &l, "--shard", &format!("{k}/3")], &sharded);
        }
        run(&["merge", "--layer", &l, "--shards", "3"], &sharded);
    }
    assert_eq!(run(&["assemble", "--csv"], &sharded), row);
    assert_eq!(std::fs::read(&sharded).unwrap(), std::fs::read(&single).unwrap());
}
