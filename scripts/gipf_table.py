#!/usr/bin/env python3
"""Formats the rows `bitsolve solve --out` wrote for the GIPF variants (scripts/gipf_variants.sh).

--unknown DATASET CSV... [--side S]: prints the dataset lines of the positions no CSV row has
solved (only those of side S with --side).
--scale CSV: writes results/gipf/retro-scale.md from the rows of scripts/gipf_retro_scale.sh.
--table DATASET CSV...: writes results/gipf/small-variants.csv (per position the row of the first
pass that solved it, else the last attempt, with the winner and the total time over the passes,
plus the retrograde solver's own result, position count and time as an independent check) and
results/gipf/small-variants.md (winner grids per S and K, which solver decided each cell, and the
number of reachable positions the retrograde solver enumerated).

The retrograde solver (pass 5) runs on every position, also those an earlier pass solved: those
keep their earlier deciding row (provenance), and any disagreement is listed and fails the run.
The indexed retrograde solver retro2 (pass 6, scripts/gipf_retro2.sh) runs on the positions still
unknown and, as a check, on the solved ones whose index is small: it decides only positions no
earlier pass solved, and any disagreement with an earlier answer (value, or distance against retro)
is listed and fails the run. Pass 7 (scripts/gipf_forward.sh) is forward alpha-beta with a long
limit on the positions passes 1-6 left unknown, and pass 8 (the same script with a 1 MiB table)
checks what pass 7 decided: any two passes that solve a position must agree."""

import csv
import math
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOLVED = {"win", "loss", "draw"}


SHORT = {"dfpn": "df", "alphabeta": "ab", "retro": "re", "retro2": "r2"}


def human(n):
    """A position count, short: 950, 12.2k, 3.4M, 13.9G, 142.5T."""
    if n < 1000:
        return str(n)
    for unit, size in (("T", 10**12), ("G", 10**9), ("M", 10**6), ("k", 10**3)):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return str(n)


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


def upper_bound(s, gw, gb):
    """Positions of an (S, GW, GB) variant whatever the rules allow: w white and b black pieces on
    the 3S(S-1)+1 cells, reserves up to GW-w and GB-b (captured pieces leave the game), either
    side to move."""
    n = 3 * s * (s - 1) + 1
    return sum(math.comb(n, w) * math.comb(n - w, b) * (gw - w + 1) * (gb - b + 1) * 2
               for w in range(min(gw, n) + 1) for b in range(min(gb, n - w) + 1))


def scale(path):
    """results/gipf/retro-scale.md from the rows of scripts/gipf_retro_scale.sh."""
    md = ["# How far the retrograde solver gets on the unknown GIPF variants",
          "",
          f"Written by `scripts/gipf_table.py --scale` from `{path}` (`scripts/gipf_retro_scale.sh`).",
          "Positions: enumerated by `bitsolve solve --solver retro` before it stopped (`>N`: its cap",
          "of N positions was reached); bound: every placement of at most GW white and GB black",
          "pieces with any smaller reserves and either side to move (no rule applied).",
          "",
          "| variant | result | positions | bound | time s | git |",
          "|---|---|---:|---:|---:|---|"]
    for row in csv.DictReader(open(path)):
        s, k, gw, gb = (int(x) for x in row["id"][1:].replace("-K", " ").replace("-W", " ").replace("-B", " ").split())
        n = int(row["nodes"])
        shown = human(n) if row["outcome"] in SOLVED else ">" + human(n - 1)
        md.append(f"| S={s} K={k} {gw}+{gb} | {row['outcome']} | {shown} | {human(upper_bound(s, gw, gb))} "
                  f"| {float(row['millis']) / 1000:.1f} | {row['git']} |")
    (ROOT / "results" / "gipf" / "retro-scale.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))


def is_sym(row):
    """Whether a row solved classes of positions under the board's symmetries."""
    return row["options"].endswith("-sym") or "-sym-" in row["options"]


def main():
    if sys.argv[1] == "--scale":
        scale(sys.argv[2])
        return
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
    deciders = {}
    counts = {}
    disagree = []
    checked2 = 0
    sym_checked = set()
    # The positions the classes of a --symmetry run stand for (its log line, filed by
    # gipf_retro2.sh): the reachable positions and their images under the symmetries.
    orbits = {}
    orbit_path = ROOT / "results" / "gipf" / "raw" / "retro2-classes.csv"
    if orbit_path.exists():
        for o in csv.DictReader(open(orbit_path)):
            orbits[o["id"]] = (int(o["classes"]), int(o["positions"]))
    orbit_equal = []
    for pid, pos, _ in positions:
        rows = tries.get(pid, [])
        retro = next((r for r in rows if r["solver"] == "retro"), None)
        # The last solved retro2 row (a cell re-run after a time limit has an unknown row
        # first), one over every position before one over classes under the board's
        # symmetries (options ending in -sym: its node count is of classes), else its last row.
        retro2s = [r for r in rows if r["solver"] == "retro2"]
        solved2 = sorted((r for r in retro2s if r["outcome"] in SOLVED), key=is_sym)
        retro2 = solved2[0] if solved2 else (retro2s[-1] if retro2s else None)
        for o in solved2[1:]:
            if (o["outcome"], o["plies"]) != (retro2["outcome"], retro2["plies"]):
                disagree.append(f"{pid}: retro2 {retro2['outcome']} {retro2['plies']}, "
                                f"retro2 ({o['options']}) {o['outcome']} {o['plies']}")
            elif is_sym(o) != is_sym(retro2):
                sym_checked.add(pid)
        sym_rows = [r for r in solved2 if is_sym(r)]
        orbit = orbits.get(pid)
        if orbit and sym_rows and orbit[0] != int(sym_rows[0]["nodes"]):
            disagree.append(f"{pid}: {orbit[0]} classes in retro2-classes.csv, "
                            f"{sym_rows[0]['nodes']} in the row")
        if orbit and solved2 and not is_sym(solved2[0]):
            # Every reachable position is in a class: the classes stand for at least as many.
            if orbit[1] < int(solved2[0]["nodes"]):
                disagree.append(f"{pid}: the classes stand for {orbit[1]} positions, "
                                f"fewer than the {solved2[0]['nodes']} reachable")
            elif orbit[1] == int(solved2[0]["nodes"]):
                orbit_equal.append(pid)
        earlier = [r for r in rows if r["solver"] not in ("retro", "retro2") and r["outcome"] in SOLVED]
        for other in earlier[1:]:
            if other["outcome"] != earlier[0]["outcome"]:
                disagree.append(f"{pid}: {earlier[0]['solver']} {earlier[0]['outcome']}, "
                                f"{other['solver']} {other['outcome']}")
        if retro and earlier and retro["outcome"] in SOLVED and retro["outcome"] != earlier[0]["outcome"]:
            disagree.append(f"{pid}: {earlier[0]['solver']} {earlier[0]['outcome']}, retro {retro['outcome']}")
        if retro2 and retro2["outcome"] in SOLVED:
            others = [r for r in rows if r["solver"] != "retro2" and r["outcome"] in SOLVED]
            if others:
                checked2 += 1
            for o in others:
                if o["outcome"] != retro2["outcome"] or (o["solver"] == "retro" and o["plies"] != retro2["plies"]):
                    disagree.append(f"{pid}: {o['solver']} {o['outcome']} {o['plies']}, "
                                    f"retro2 {retro2['outcome']} {retro2['plies']}")
        # retro2 decides only what no earlier pass solved.
        done = [r for r in rows if r["outcome"] in SOLVED and r["solver"] != "retro2"]
        if not done and retro2 and retro2["outcome"] in SOLVED:
            done = [retro2]
        tried = [r for r in rows if r["solver"] != "retro2"] or rows
        row = done[0] if done else (retro2 if retro2 else tried[-1])
        winner = {"win": "White", "loss": "Black", "draw": "draw"}.get(row["outcome"], "?")
        total_ms = sum(float(r["millis"]) for r in rows[: rows.index(row) + 1])
        s, k, gw, gb = (int(x) for x in pos.split("/")[0].split())
        out_rows.append({
            "id": pid, "S": s, "K": k, "GW": gw, "GB": gb, "winner": winner,
            "outcome": row["outcome"], "solver": row["solver"], "pass": rows.index(row) + 1,
            "nodes": row["nodes"], "max_depth": row["max_depth"], "millis": row["millis"],
            "total_millis": f"{total_ms:.3f}", "git": row["git"],
            "retro_outcome": retro["outcome"] if retro else "",
            "retro_positions": retro["nodes"] if retro else "",
            "retro_millis": retro["millis"] if retro else "",
            "retro2_outcome": retro2["outcome"] if retro2 else "",
            "retro2_plies": retro2["plies"] if retro2 else "",
            "retro2_positions": retro2["nodes"] if retro2 and retro2["outcome"] in SOLVED else "",
            "retro2_millis": retro2["millis"] if retro2 else "",
            "retro2_git": retro2["git"] if retro2 else "",
            "retro2_classes": "yes" if retro2 and is_sym(retro2) else "",
            "retro2_class_positions": orbit[1] if orbit else "",
        })
        grid.setdefault((s, k), {})[(gw, gb)] = winner
        deciders.setdefault((s, k), {})[(gw, gb)] = row["solver"] if row["outcome"] in SOLVED else "?"
        if retro2 and retro2["outcome"] in SOLVED:
            counts.setdefault((s, k), {})[(gw, gb)] = human(int(retro2["nodes"])) + ("c" if is_sym(retro2) else "")
        elif retro:
            n = int(retro["nodes"])
            counts.setdefault((s, k), {})[(gw, gb)] = (
                human(n) if retro["outcome"] in SOLVED else ">" + human(n - 1))
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
          "Below each winner grid: the solver that decided each cell (df = dfpn, ab = alphabeta,",
          "pns, re = retro, r2 = retro2; the first of passes 1-9 that solved it) and the number of",
          "positions reachable from the initial position, as counted by retro2 where it solved the",
          "cell (`c`: classes of positions under the 12 symmetries of the board, `--symmetry`), "
          "else as enumerated by the retrograde solver retro (`>N`: more than its cap of N",
          "positions, so not solved by it). Pass 6 is the indexed retrograde engine retro2",
          "(`scripts/gipf_retro2.sh`); the cells it decided are listed with their distance, reachable",
          "positions, time and memory at the end. Pass 7 is forward alpha-beta again with a long",
          "limit on the cells passes 1-6 left unknown (`scripts/gipf_forward.sh`); pass 8 re-solves",
          "the cells pass 7 decided with a 1 MiB table, as a check; pass 9 re-solves cells retro2 decided by",
          "forward alpha-beta (`PASS=9 scripts/gipf_forward.sh ID`). Every two passes that solve a cell agree.",
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
        for title, table in (("Decided by", deciders), ("Reachable positions (retro)", counts)):
            cells = table.get((s, k))
            if not cells:
                continue
            md.append(f"{title}, S={s}, K={k}:")
            md.append("")
            md.append("| GW \\ GB | " + " | ".join(map(str, gbs)) + " |")
            md.append("|---|" + "---|" * len(gbs))
            for gw in gws:
                md.append(f"| {gw} | " + " | ".join(SHORT.get(cells.get((gw, gb), ""), cells.get((gw, gb), "")) for gb in gbs) + " |")
            md.append("")
    solved = sum(r["winner"] != "?" for r in out_rows)
    by_retro = sum(r["solver"] == "retro" and r["winner"] != "?" for r in out_rows)
    checked = sum(r["retro_outcome"] in SOLVED and r["solver"] != "retro" for r in out_rows)
    md.append(f"Solved {solved} of {len(out_rows)} positions ({by_retro} decided by retro).")
    md.append(f"The retrograde solver also solved {checked} of the positions an earlier pass decided.")
    by_retro2 = [r for r in out_rows if r["solver"] == "retro2" and r["winner"] != "?"]
    md.append(f"The indexed retrograde solver retro2 decided {len(by_retro2)} position(s) no earlier pass"
              f" solved and re-solved {checked2} that earlier passes decided.")
    md.append(f"retro2 over classes of positions (`--symmetry`) re-solved {len(sym_checked)} cell(s) it had"
              " solved over every position, with the same value and distance.")
    md.append(f"On {len(orbit_equal)} of these the classes stood for exactly the positions counted"
              " over every position (`retro2-classes.csv`: the classes' orbits under the symmetries;"
              " in general the reachable positions and their images, so at least as many).")
    md.append(f"Disagreements over all passes: {len(disagree)}.")
    if by_retro2:
        md.append("")
        md.append("Cells decided by retro2 (distance: plies with best play, winner shortest, loser longest;"
                  " memory: peak resident set of the run from `results/gipf/raw/retro2-memory.csv` if"
                  " measured):")
        md.append("")
        md.append("| cell | winner | plies | reachable (c: classes) | positions of the classes | time s | peak MiB | bytes / reachable | git |")
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---|")
        mem = {}
        mem_path = res / "raw" / "retro2-memory.csv"
        if mem_path.exists():
            for m in csv.DictReader(open(mem_path)):
                mem.setdefault(m["id"], []).append((float(m["seconds"]), int(m["peak_kib"])))
        for r in by_retro2:
            # A cell may have run more than once (a time limit, a check): the run whose time
            # is that of the solved row.
            runs = mem.get(r["id"], [])
            kib = min(runs, key=lambda m: abs(m[0] - float(r["millis"]) / 1000))[1] if runs else None
            peak = f"{kib / 1024:.0f}" if kib else "?"
            per = f"{kib * 1024 / int(r['nodes']):.1f}" if kib else "?"
            md.append(f"| S={r['S']} K={r['K']} {r['GW']}+{r['GB']} | {r['winner']} | {r['retro2_plies'] or '-'}"
                      f" | {int(r['nodes'])}{' c' if r['retro2_classes'] else ''}"
                      f" | {r['retro2_class_positions'] if r['retro2_classes'] else ''}"
                      f" | {float(r['millis']) / 1000:.1f} | {peak} | {per} | {r['git']} |")
    for d in disagree:
        md.append(f"* disagreement: {d}")
    (res / "small-variants.md").write_text("\n".join(md) + "\n")
    print(f"solved {solved} of {len(out_rows)} ({by_retro} by retro; retro checked {checked}, "
          f"{len(disagree)} disagreement(s))")
    for d in disagree:
        print(f"disagreement: {d}", file=sys.stderr)
    if disagree:
        sys.exit(1)


main()
