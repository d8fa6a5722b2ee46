#!/usr/bin/env python3
"""Finds import circles between the modules of `src/` (issue 49: "0 import circles").

A module is a file (`a/b.rs` or `a/b/mod.rs` is module `a::b`). Module A depends on module B when
A's code names a path into B (`use crate::x::y`, `super::y::f`, `bitsolve::x::y` from the binary's
`cli/`), resolved to the longest module prefix. A parent naming its child, or a child naming its
parent or an ancestor, is how Rust modules are built and is not counted. A circle is a set of two or
more modules, none an ancestor of another, that reach each other (a strongly connected component of
the remaining edges). Prints each circle with the edges that close it; exit status 1 if any.

Usage: python3 scripts/import-circles.py [SRC_DIR]
"""

import re
import sys
from pathlib import Path

SRC = Path(sys.argv[1] if len(sys.argv) > 1 else "src")
BIN_DIRS = ("cli",)  # modules of the binary (src/main.rs): `crate::` there is the binary's root


def module_of(path: Path) -> tuple[str, ...]:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "mod":
        parts.pop()
    if parts in (["lib"], ["main"]):
        return ()
    return tuple(parts)


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


def expand_use(tree: str) -> list[str]:
    """`a::{b, c::{d, e}}` -> [a::b, a::c::d, a::c::e] (enough for module resolution)."""
    tree = re.sub(r"\s+", "", tree)
    depth, start, items, out = 0, None, [], []
    if "{" not in tree:
        return [tree]
    head, body = tree.split("{", 1)
    body = body[: body.rfind("}")]
    cur = ""
    for ch in body:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    items.append(cur)
    for item in items:
        if item:
            out.extend(head + sub for sub in expand_use(item))
    return out


def main() -> int:
    files = sorted(SRC.rglob("*.rs"))
    modules = {module_of(f): f for f in files}
    deps: dict[tuple, set] = {m: set() for m in modules}
    for module, path in modules.items():
        in_bin = bool(module) and module[0] in BIN_DIRS
        text = strip_comments(path.read_text())
        paths = []
        for m in re.finditer(r"\buse\s+([^;]+);", text):
            paths.extend(expand_use(m.group(1)))
        paths.extend(re.findall(r"\b((?:crate|super|bitsolve)(?:::\w+)+)", text))
        # this file's own module path (for `super`): a `mod.rs` is its folder
        for p in paths:
            segs = [s for s in p.split("::") if s]
            if not segs:
                continue
            if segs[0] == "crate":
                base = () if not in_bin else ()
                rest = segs[1:]
                target = base + tuple(rest)
            elif segs[0] == "bitsolve":
                target = tuple(segs[1:])
                if in_bin and target and target[0] in BIN_DIRS:
                    continue
            elif segs[0] == "super":
                base = list(module)
                while segs and segs[0] == "super":
                    base = base[:-1]
                    segs = segs[1:]
                target = tuple(base) + tuple(segs)
            else:
                continue
            # longest module prefix
            while target and target not in modules:
                target = target[:-1]
            if not target or target == module:
                continue
            if target[: len(module)] == module or module[: len(target)] == target:
                continue  # parent and child
            deps[module].add(target)
    # strongly connected components (Tarjan)
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in deps[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(comp)

    sys.setrecursionlimit(10000)
    for v in deps:
        if v not in index:
            strong(v)
    for comp in comps:
        names = sorted("::".join(c) for c in comp)
        print("circle:", ", ".join(names))
        for a in comp:
            for b in deps[a]:
                if b in comp:
                    print(f"  {'::'.join(a)} -> {'::'.join(b)}")
    print(f"{len(comps)} import circles among {len(modules)} modules")
    return 1 if comps else 0


if __name__ == "__main__":
    sys.exit(main())
