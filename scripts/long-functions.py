#!/usr/bin/env python3
"""Lists functions of `src/` longer than a limit (issue 49: "no function over 100 lines without a
comment on why").

A function runs from its `fn` line to its closing brace (braces inside strings, chars and comments
are skipped). Test code (`tests.rs` files and `mod tests` blocks) is left out. A long function
passes when one of the comment lines just above it, or the first lines of its body, says why it is
long: a line with `Long:`, or a `clippy::too_many_lines` allow or expect with its `reason`. Prints every long function, marked `ok` or `MISSING`; exit status 1 if
any lacks the comment.

Usage: python3 scripts/long-functions.py [SRC_DIR] [LIMIT]
"""

import re
import sys
from pathlib import Path

SRC = Path(sys.argv[1] if len(sys.argv) > 1 else "src")
LIMIT = int(sys.argv[2]) if len(sys.argv) > 2 else 100
FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?(extern\s+\"C\"\s+)?fn\s+(\w+)")


def code_only(line: str, state: dict) -> str:
    """The line without comments, strings and char literals (block comments tracked)."""
    out, i = [], 0
    while i < len(line):
        if state["block"]:
            j = line.find("*/", i)
            if j < 0:
                return "".join(out)
            state["block"] = False
            i = j + 2
            continue
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["block"] = True
            i += 2
            continue
        ch = line[i]
        if ch == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            i = j + 1
            continue
        if ch == "'" and re.match(r"'(\\.|[^\\'])'", line[i:]):
            i += len(re.match(r"'(\\.|[^\\'])'", line[i:]).group(0))
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def functions(path: Path):
    lines = path.read_text().splitlines()
    state = {"block": False}
    code = [code_only(line, state) for line in lines]
    in_tests_from = next(
        (k for k, line in enumerate(lines) if re.match(r"\s*mod tests\b", line)), len(lines)
    )
    for k, line in enumerate(lines):
        m = FN.match(line)
        if not m or k >= in_tests_from:
            continue
        depth, opened, end = 0, False, None
        for j in range(k, len(lines)):
            for ch in code[j]:
                if ch == "{":
                    depth += 1
                    opened = True
                elif ch == "}":
                    depth -= 1
                elif ch == ";" and not opened and depth == 0:
                    end = j  # a declaration without a body
                    break
            if end is not None or (opened and depth == 0):
                end = j
                break
        if end is None or not opened:
            continue
        length = end - k + 1
        above = []
        j = k - 1
        while j >= 0 and (lines[j].strip().startswith(("//", "#[")) or not lines[j].strip()):
            above.append(lines[j])
            j -= 1
        head = lines[k : min(end, k + 6)]
        reason = any(
            "Long:" in text or ("too_many_lines" in text and "reason" in text)
            for text in above + head
        )
        yield m.group(6), k + 1, length, reason


def main() -> int:
    missing = 0
    rows = []
    for path in sorted(SRC.rglob("*.rs")):
        if path.name == "tests.rs":
            continue
        for name, line, length, reason in functions(path):
            if length > LIMIT:
                rows.append((length, f"{path}:{line}", name, reason))
                missing += not reason
    for length, where, name, reason in sorted(rows, reverse=True):
        print(f"{length:5} {'ok     ' if reason else 'MISSING'} {where} {name}")
    print(f"{len(rows)} functions over {LIMIT} lines, {missing} without a `Long:` comment")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
