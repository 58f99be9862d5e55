"""Tables of the small-hull benchmark (bench/tools/small.sh): cold shuffled medians per n from the
'small' experiment's CSV of each scan kernel, the ratios against libccd in the same run, the
instructions per query under callgrind, and the warm protocol's medians and iterations.

usage: small_table.py OUT_DIR KERNEL...   (OUT_DIR/small_<KERNEL>/small.csv, OUT_DIR/instr.tsv,
                                           OUT_DIR/warm.tsv)
"""
import csv
import os
import statistics
import sys


def cold_medians(path):
    """{(method, n): median over the gaps of the per-gap medians} of one run."""
    cells = {}
    with open(path) as fp:
        rows = csv.DictReader(line for line in fp if not line.startswith("#"))
        for r in rows:
            if r["available"] != "1" or not r["median_ns"]:
                continue
            cells.setdefault((r["method"], int(r["n"])), []).append(float(r["median_ns"]))
    return {k: statistics.median(v) for k, v in cells.items()}


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path) as fp:
        return [line.split() for line in fp if line.strip()]


def ns(x):
    return "%.0f ns" % x if x < 1e4 else "%.1f us" % (x / 1e3)


def cold_table(out, kernels):
    instr = {(k, m, int(n)): float(v) for k, m, n, v in read_tsv(os.path.join(out, "instr.tsv"))}
    print("| n | kernel | hedra_gjk | ccd_mpr | gjk / mpr | hedra_dist | ccd_gjk | dist / ccd_gjk "
          "| instr gjk | instr dist | instr ccd_mpr | instr ccd_gjk |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    runs = {k: cold_medians(os.path.join(out, "small_" + k, "small.csv")) for k in kernels}
    sizes = sorted({n for run in runs.values() for (_, n) in run})
    for n in sizes:
        for k in kernels:
            med = runs[k]
            g, mpr = med.get(("hedra_gjk", n)), med.get(("ccd_mpr", n))
            d, cg = med.get(("hedra_dist", n)), med.get(("ccd_gjk", n))
            if None in (g, mpr, d, cg):
                continue
            ins = [instr.get((k, m, n)) for m in ("gjk", "dist", "ccd_mpr", "ccd_gjk")]
            ins = ["%.0f" % x if x is not None else "" for x in ins]
            print("| %d | %s | %s | %s | %.2f | %s | %s | %.2f | %s |"
                  % (n, k, ns(g), ns(mpr), g / mpr, ns(d), ns(cg), d / cg, " | ".join(ins)))


def warm_table(out):
    rows = read_tsv(os.path.join(out, "warm.tsv"))
    if not rows:
        return
    print()
    print("| n | kernel | query | move per frame | cold ns | cold iterations | warm ns "
          "| warm iterations | cold instr | warm instr |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        if len(r) == 9:  # written without the speed column: speed 1
            r.insert(3, "1")
        r[3] = "%g %%" % (0.5 * float(r[3]))  # speed 1: at most 0.5 % of the size per frame
        print("| " + " | ".join(r) + " |")


def main():
    out, kernels = sys.argv[1], sys.argv[2:]
    cold_table(out, kernels)
    warm_table(out)


if __name__ == "__main__":
    main()
