#!/usr/bin/env python3
"""Calibration of gctune's forecast (issue 29, item 3): is what a study states what the next run gets?

bench_robust.sh and bench_sampled.sh call it, per cell (a study and its export), with:

    calibration_table.py add CAL.jsonl --cell NAME --kind full|sampled --export EXPORT.json \
        --recorded SIM.json --again SIM_AGAIN.json [--counts yes|no] [--field k=v ...]

  EXPORT.json     gctune export STUDY --format json (predicted.speedup, predicted.speedupInterval,
                  predicted.like)
  SIM.json        gctune simulate WORKLOAD --config BEST.yaml --json: the full profile as
                  recorded, one simulation (.speedup)
  SIM_AGAIN.json  the same with --replicas N --replica-seed S --scenario again (a seed no study
                  used): fresh runs of "this input again" (.replicas.speedups, paired speedups;
                  .replicas.meanDefault / .replicas.meanGiven, the same ratio of means a study
                  states as its expected speedup)

and appends one JSON line to CAL.jsonl (a cell already there is replaced by the newest line when
the table is made). Then

    calibration_table.py table CAL.jsonl [--title TEXT] > calibration.md

writes the markdown table, one row per cell, and the summary lines against the targets:

  - the realised value (the full profile as recorded, and fresh "again" runs) inside the
    stated interval in >= 90 % of cells;
  - width hi/lo <= 1.3 on full profiles, <= 1.6 on sampled exports that carry GC counts;
  - the stated expectation within 10 % of the realised value (15 % for sampled exports).

The expectation error is given against both realised values: the recorded run (a) and the mean
of the fresh "again" runs (the expectation's own definition); a cell meets the target when both
are within it.
"""
import argparse
import json
import math
import statistics
import sys

TARGET_INSIDE = 0.90
TARGET_WIDTH = {"full": 1.3, "sampled": 1.6}
TARGET_ERR = {"full": 0.10, "sampled": 0.15}


def dig(d, path, default=None):
    for k in path.split("."):
        if not isinstance(d, dict) or k not in d or d[k] is None:
            return default
        d = d[k]
    return d


def load(path):
    with open(path) as f:
        return json.load(f)


def add(a):
    exp = load(a.export)
    rec = load(a.recorded)
    again = load(a.again)
    stated = float(dig(exp, "predicted.speedup"))
    iv = dig(exp, "predicted.speedupInterval") or {}
    lo = float(iv.get("lo", stated))
    hi = float(iv.get("hi", stated))
    r = again["replicas"]
    speedups = [float(x) for x in r["speedups"]]
    row = {
        "cell": a.cell,
        "kind": a.kind,
        "counts": a.counts,
        "stated": stated,
        "lo": lo,
        "hi": hi,
        "coverage": iv.get("coverage"),
        "n": iv.get("n"),
        "runs": dig(exp, "predicted.runs"),
        "likeStated": dig(exp, "predicted.like.speedup"),
        "likeLo": dig(exp, "predicted.like.speedupInterval.lo"),
        "likeHi": dig(exp, "predicted.like.speedupInterval.hi"),
        "evidence": dig(exp, "predicted.evidence"),
        "recorded": float(rec["speedup"]),
        "againSeed": again["replicas"].get("seed"),
        "againScenario": dig(again, "replicas.model.scenario"),
        "againSpeedups": speedups,
        "againMean": float(r["meanDefault"]) / float(r["meanGiven"]),
    }
    for kv in a.field or []:
        k, _, v = kv.partition("=")
        row[k] = v
    with open(a.cal, "a") as f:
        f.write(json.dumps(row) + "\n")


def pct(x):
    return "%.0f %%" % (100 * x)


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def table(a):
    rows = {}
    for line in open(a.cal):
        if line.strip():
            r = json.loads(line)
            rows[r["cell"]] = r  # the newest line of a cell wins
    rows = list(rows.values())
    out = []
    if a.title:
        out += ["## " + a.title, ""]
    out += [
        "| cell | stated | stated interval (coverage, n) | width hi/lo | realised: recorded (a) | (a) inside | fresh again: mean | fresh again inside | error vs (a) | error vs fresh mean | like (beside) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        lo, hi, st = r["lo"], r["hi"], r["stated"]
        r["width"] = hi / lo if lo > 0 else float("inf")
        r["inside"] = lo <= r["recorded"] <= hi
        sp = r["againSpeedups"]
        r["againInside"] = sum(lo <= s <= hi for s in sp) / len(sp) if sp else float("nan")
        r["errA"] = abs(st / r["recorded"] - 1)
        r["errFresh"] = abs(st / r["againMean"] - 1)
        kind = r["kind"]
        wt = TARGET_WIDTH[kind]
        et = TARGET_ERR[kind]
        wok = "" if kind == "sampled" and r.get("counts") == "no" else (" ✓" if r["width"] <= wt else " ✗")
        cov = r.get("coverage")
        like = "-"
        if r.get("likeStated") is not None:
            like = "%.3fx" % r["likeStated"]
            if r.get("likeLo") is not None:
                like += " (%.3f-%.3f)" % (r["likeLo"], r["likeHi"])
        out.append("| %s | %.3fx | %.3f-%.3fx (%s, %s) | %.3f%s | %.3fx | %s | %.3fx | %d/%d | %.1f %%%s | %.1f %%%s | %s |" % (
            r["cell"] + ("" if kind == "full" else (", counts" if r.get("counts") == "yes" else ", no counts")),
            st, lo, hi, pct(cov) if cov is not None else "-", r.get("n") if r.get("n") is not None else "-",
            r["width"], wok, r["recorded"], "✓" if r["inside"] else "✗", r["againMean"],
            sum(lo <= s <= hi for s in sp), len(sp),
            100 * r["errA"], " ✓" if r["errA"] <= et else " ✗",
            100 * r["errFresh"], " ✓" if r["errFresh"] <= et else " ✗", like))
    out.append("")
    if not rows:
        out.append("No cells.")
        print("\n".join(out))
        return
    for kind in ("full", "sampled"):
        ks = [r for r in rows if r["kind"] == kind]
        if not ks:
            continue
        wt, et = TARGET_WIDTH[kind], TARGET_ERR[kind]
        wrows = [r for r in ks if kind == "full" or r.get("counts") != "no"]
        n = len(ks)
        inside = sum(r["inside"] for r in ks)
        fresh = statistics.mean(r["againInside"] for r in ks)
        freshAll = sum(r["againInside"] == 1 for r in ks)
        widths = [r["width"] for r in wrows]
        errA = [r["errA"] for r in ks]
        errF = [r["errFresh"] for r in ks]
        label = "full profiles" if kind == "full" else "sampled exports"
        out.append("**%s, %d cells** (stated coverage %s):" % (label, n, ", ".join(sorted({pct(r["coverage"]) for r in ks if r.get("coverage") is not None})) or "-"))
        out.append("")
        out.append("- recorded run (a) inside the stated interval: %d/%d = %s (target ≥ %s) %s" % (
            inside, n, pct(inside / n), pct(TARGET_INSIDE), "✓" if inside / n >= TARGET_INSIDE else "✗"))
        out.append("- fresh \"again\" runs inside, mean share over cells: %s (target ≥ %s) %s; cells with every fresh run inside: %d/%d" % (
            pct(fresh), pct(TARGET_INSIDE), "✓" if fresh >= TARGET_INSIDE else "✗", freshAll, n))
        if widths:
            out.append("- width hi/lo%s: median %.3f, max %.3f (target ≤ %.1f) %s; cells over: %d/%d" % (
                "" if kind == "full" else " (exports with counts)", median(widths), max(widths), wt,
                "✓" if max(widths) <= wt else "✗", sum(w > wt for w in widths), len(widths)))
        out.append("- expectation error |stated/realised − 1| vs (a): median %.1f %%, max %.1f %%; vs the fresh mean: median %.1f %%, max %.1f %% (target ≤ %d %%) %s; cells over: %d/%d" % (
            100 * median(errA), 100 * max(errA), 100 * median(errF), 100 * max(errF), round(100 * et),
            "✓" if max(max(errA), max(errF)) <= et else "✗", sum(max(x, y) > et for x, y in zip(errA, errF)), n))
        misses = [r["cell"] for r in ks if not r["inside"] or r["againInside"] < TARGET_INSIDE
                  or (r in wrows and r["width"] > wt) or max(r["errA"], r["errFresh"]) > et]
        out.append("- cells missing a target: %s" % (", ".join(misses) if misses else "none"))
        out.append("")
    print("\n".join(out))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pa = sub.add_parser("add")
    pa.add_argument("cal")
    pa.add_argument("--cell", required=True)
    pa.add_argument("--kind", choices=("full", "sampled"), required=True)
    pa.add_argument("--export", required=True)
    pa.add_argument("--recorded", required=True)
    pa.add_argument("--again", required=True)
    pa.add_argument("--counts", choices=("yes", "no"), default="yes")
    pa.add_argument("--field", action="append", help="extra key=value kept in the line")
    pt = sub.add_parser("table")
    pt.add_argument("cal")
    pt.add_argument("--title")
    a = p.parse_args()
    {"add": add, "table": table}[a.cmd](a)


if __name__ == "__main__":
    main()
