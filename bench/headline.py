#!/usr/bin/env python3
"""Rewrites the headline tables of docs/BENCHMARKS.md from a run's generated tables.

usage: bench/headline.py [--check] [DOC]      (DOC defaults to docs/BENCHMARKS.md)

DOC holds blocks between two marker lines:

    <!-- headline: FILE | HEADING [| pivot] -->
    ... rewritten ...
    <!-- /headline -->

FILE is relative to DOC's folder (docs/bench/... as written by bench/run.sh --docs and
bench/run_scene.sh --docs); HEADING is the start of the line that precedes the table in FILE
(a "###" heading or a bold caption). The block becomes that table, unchanged, so every figure in
the headline is one the bench wrote. "pivot" turns a long table with one row per (pair, method)
and columns time, ratio, max error (hedra_bench's depth table) into one row per pair: hedra's
time, then each method's "ratio / max error". --check exits 1 when DOC is not up to date.
"""
import os
import re
import sys

BEGIN = re.compile(r"^<!-- headline: (.+?) -->$")
END = "<!-- /headline -->"


def table_after(path, heading):
    """The first markdown table after the line starting with heading (markup stripped)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    start = None
    for i, line in enumerate(lines):
        if line.lstrip("#* ").startswith(heading):
            start = i
            break
    if start is None:
        sys.exit(f"{path}: no line starting with '{heading}'")
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("|"):
            rows.append(line)
        elif rows:
            break
    if len(rows) < 3:
        sys.exit(f"{path}: no table after '{heading}'")
    return rows


def cells(row):
    return [c.strip() for c in row.strip().strip("|").split("|")]


def pivot(rows):
    """One row per pair from a (pair, n, method, time, ratio, max error, ...) table."""
    head = cells(rows[0])
    col = {name: i for i, name in enumerate(head)}
    for need in ("pair", "method", "time", "ratio", "max error"):
        if need not in col:
            sys.exit(f"pivot: the table has no column '{need}'")
    pairs, methods, value = [], [], {}
    for row in rows[2:]:
        c = cells(row)
        pair, method = c[col["pair"]], c[col["method"]]
        if pair not in pairs:
            pairs.append(pair)
        if method not in methods:
            methods.append(method)
        value[pair, method] = c
    first = methods[0]
    out = [
        "| pair | " + first + " | " + " | ".join(methods[1:]) + " |",
        "|---|---:|" + "---:|" * (len(methods) - 1),
    ]
    for pair in pairs:
        row = [pair, value[pair, first][col["time"]] if (pair, first) in value else ""]
        for m in methods[1:]:
            c = value.get((pair, m))
            row.append(f"{c[col['ratio']]} / {c[col['max error']]}" if c else "")
        out.append("| " + " | ".join(row) + " |")
    return out


def rewrite(doc):
    folder = os.path.dirname(os.path.abspath(doc))
    with open(doc, encoding="utf-8") as f:
        lines = f.read().splitlines()
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        m = BEGIN.match(lines[i])
        i += 1
        if not m:
            continue
        begin = i
        args = [a.strip() for a in m.group(1).split("|")]
        rows = table_after(os.path.join(folder, args[0]), args[1])
        out.extend(pivot(rows) if "pivot" in args[2:] else rows)
        while i < len(lines) and lines[i] != END:
            i += 1
        if i == len(lines):
            sys.exit(f"{doc}:{begin}: no closing '{END}' after this marker")
    return "\n".join(out) + "\n"


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    here = os.path.dirname(os.path.abspath(__file__))
    doc = args[0] if args else os.path.join(os.path.dirname(here), "docs", "BENCHMARKS.md")
    text = rewrite(doc)
    with open(doc, encoding="utf-8") as f:
        same = f.read() == text
    if check:
        if not same:
            print(f"{doc}: the headline tables differ from the run's tables; run bench/headline.py")
        return 0 if same else 1
    if not same:
        with open(doc, "w", encoding="utf-8") as f:
            f.write(text)
    print(f"headline.py: {doc} {'unchanged' if same else 'rewritten'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
