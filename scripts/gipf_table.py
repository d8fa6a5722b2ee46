#!/usr/bin/env python3
"""Formats the rows `bitsolve solve --out` wrote for the GIPF variants (scripts/gipf_variants.sh).

--unknown DATASET CSV... [--side S]: prints the dataset lines of the positions no CSV row has
solved (only those of side S with --side).
--table DATASET CSV...: writes results/gipf/small-variants.csv (per position the row of the first
pass that solved it, else the last attempt, with the winner and the total time over the passes)
and results/gipf/small-variants.md (winner grids per S and K)."""

import csv
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOLVED = {"win", "loss", "draw"}


def dataset(path):
    rows = []
    for line in open(path):
        if line.startswith("#") or line.startswith("id\t") or not line.strip():
            continue
        rows.append(line.rstrip("\n").split("\t"))
    return rows


def attempts(csvs):
    by_id = {}
    for path in csvs:
        for row in csv.DictReader(open(path)):
            by_id.setdefault(row["id"], []).append(row)
    return by_id


def main():
    mode, data, csvs = sys.argv[1], sys.argv[2], sys.argv[3:]
    side = None
    if "--side" in csvs:
        side = csvs[csvs.index("--side") + 1]
        csvs = csvs[: csvs.index("--side")]
    positions = dataset(data)
    tries = attempts(csvs)
    if mode == "--unknown":
        print("id\tposition\texpected")
        for pid, pos, exp in positions:
            if side is not None and pos.split()[0] != side:
                continue
            if not any(r["outcome"] in SOLVED for r in tries.get(pid, [])):
                print(f"{pid}\t{pos}\t{exp}")
        return
    out_rows = []
    grid = {}
    for pid, pos, _ in positions:
        rows = tries.get(pid, [])
        done = [r for r in rows if r["outcome"] in SOLVED]
        row = done[0] if done else rows[-1]
        winner = {"win": "White", "loss": "Black", "draw": "draw"}.get(row["outcome"], "?")
        total_ms = sum(float(r["millis"]) for r in rows[: rows.index(row) + 1])
        s, k, gw, gb = (int(x) for x in pos.split("/")[0].split())
        out_rows.append({
            "id": pid, "S": s, "K": k, "GW": gw, "GB": gb, "winner": winner,
            "outcome": row["outcome"], "solver": row["solver"], "pass": rows.index(row) + 1,
            "nodes": row["nodes"], "max_depth": row["max_depth"], "millis": row["millis"],
            "total_millis": f"{total_ms:.3f}", "git": row["git"],
        })
        grid.setdefault((s, k), {})[(gw, gb)] = winner
    res = ROOT / "results" / "gipf"
    with open(res / "small-variants.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(out_rows[0]))
        w.writeheader()
        w.writerows(out_rows)
    md = ["# Winners of small GIPF variants from the initial position",
          "",
          "Written by `scripts/gipf_table.py` from `results/gipf/raw/pass*.csv`",
          "(`scripts/gipf_variants.sh`). W = White (moves first) wins, B = Black wins,",
          "D = draw (neither side can force a win; play repeats forever), ? = not solved",
          "within the limits. Rows: GW (white pieces), columns: GB (black pieces).",
          ""]
    letter = {"White": "W", "Black": "B", "draw": "D", "?": "?"}
    for (s, k), cells in sorted(grid.items()):
        gws = sorted({g for g, _ in cells})
        gbs = sorted({g for _, g in cells})
        md.append(f"## S={s}, K={k}")
        md.append("")
        md.append("| GW \\ GB | " + " | ".join(map(str, gbs)) + " |")
        md.append("|---|" + "---|" * len(gbs))
        for gw in gws:
            md.append(f"| {gw} | " + " | ".join(letter[cells.get((gw, gb), "?")] if (gw, gb) in cells else "" for gb in gbs) + " |")
        md.append("")
    solved = sum(r["winner"] != "?" for r in out_rows)
    md.append(f"Solved {solved} of {len(out_rows)} positions.")
    (res / "small-variants.md").write_text("\n".join(md) + "\n")
    print(f"solved {solved} of {len(out_rows)}")


main()
