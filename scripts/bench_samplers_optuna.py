#!/usr/bin/python3
"""Python Optuna 3.1's TPE and CMA-ES on gctune's simulator: the reference side of the sampler table.

The Go side is search/bench_samplers_test.go (BenchmarkSamplersBundled); scripts/bench_samplers.sh
runs both and merges the tables. Written for Debian's python3-optuna (Optuna 3.1:
`apt-get install -y python3-optuna`), run with /usr/bin/python3:

    /usr/bin/python3 scripts/bench_samplers_optuna.py --gctune /tmp/bench/gctune \\
        --workloads dataframe-500mb,dataframe-1.6gb,dataframe-3.1gb --seeds 1-10 --trials 200 \\
        --out /tmp/bench/optuna.jsonl

For each workload and seed, each sampler (TPESampler(seed=s) and CmaEsSampler(seed=s), Optuna's
defaults otherwise) runs a study of --trials trials over the same space as search.DefaultSpace():
new space [4 MiB, 1 GiB], headroom [1 MiB, 4 GiB], shrink [1 MiB, 8 GiB] and ratio [0.05, 50]
log-uniform, survivors proportion [0, 1.25] uniform, nothing enqueued. Each suggestion is rounded
as search.Point.Rounded does (sizes to whole MiB, at least 1 MiB; the ratio to 4 significant
digits, half away from zero as Go's math.Round; the proportion kept whole) and simulated by one
long-lived `gctune simulate --batch WORKLOAD` process per workload (the profile is generated
once). The value minimised is stats.totalSeconds, exactly the Go objective's value for one
workload.

--merge GO.jsonl,OPTUNA.jsonl prints the merged table (rows: samplers of both sides; columns:
workload x 50/100/200 trials) and the best known value per workload, running nothing.

One JSON line per study is appended to --out as soon as it ends (the same record as the Go
side's BENCH_SAMPLERS_OUT lines); studies already in --out are not run again. At the end the
median best after 50/100/200 trials over the seeds is printed as a Markdown table.

--check FILE writes random and edge-case points, their rounding, and (for --check-eval of them
per workload) the batch command's total seconds, for the Go test TestBenchSamplersMatchBatch:

    /usr/bin/python3 scripts/bench_samplers_optuna.py --gctune /tmp/bench/gctune --check /tmp/bench/check.jsonl
    BENCH_SAMPLERS_CHECK=/tmp/bench/check.jsonl go test ./search -run TestBenchSamplersMatchBatch -v
"""

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

MiB = 1 << 20
GiB = 1 << 30
CHECKPOINTS = (50, 100, 200)
DEFAULT_WORKLOADS = "dataframe-500mb,dataframe-1.6gb,dataframe-3.1gb"

# search.DefaultSpace(): name, low, high, log scale (names as search stores them).
SPACE = (
    ("new_space_bytes", 4 * MiB, 1 * GiB, True),
    ("growth_headroom_bytes", 1 * MiB, 4 * GiB, True),
    ("shrink_threshold_bytes", 1 * MiB, 8 * GiB, True),
    ("full_gc_ratio", 0.05, 50.0, True),
    ("tenuring_proportion", 0.0, 1.25, False),
)

# The defaults of the published runs (heapsim.DefaultParams): Pharo's survivors, so no
# survivors_proportion key.
DEFAULT_PARAMS = {"eden": 16 * MiB, "headroom": 16 * MiB, "shrink": 32 * MiB, "ratio": 0.333333}


def go_round(x):
    """Go's math.Round: nearest integer, halves away from zero (exact: x - trunc(x) is exact)."""
    t = math.trunc(x)
    if abs(x - t) >= 0.5:
        t += math.copysign(1.0, x)
    return float(t)


def rounded(raw):
    """search.Point.Rounded: raw and result are dicts with Point's JSON keys."""
    def size(b):
        return max(go_round(b / MiB), 1.0) * MiB

    def sig(x, digits):
        if x == 0 or math.isnan(x) or math.isinf(x):
            return x
        k = digits - math.ceil(math.log10(abs(x)))
        scale = 10.0 ** k if k >= 0 else 1.0 / 10.0 ** (-k)  # as Go's Pow(10, k)
        return go_round(x * scale) / scale

    return {
        "newSpaceBytes": size(raw["newSpaceBytes"]),
        "headroomBytes": size(raw["headroomBytes"]),
        "shrinkBytes": size(raw["shrinkBytes"]),
        "ratio": sig(raw["ratio"], 4),
        "proportion": raw["proportion"],
    }


def batch_line(pt):
    """The --batch input for a rounded point."""
    return {
        "eden": int(pt["newSpaceBytes"]),
        "headroom": int(pt["headroomBytes"]),
        "shrink": int(pt["shrinkBytes"]),
        "ratio": pt["ratio"],
        "survivors_proportion": pt["proportion"],
    }


class SimError(Exception):
    pass


class Simulator:
    """One long-lived `gctune simulate --batch WORKLOAD` process."""

    def __init__(self, gctune, workload):
        env = {k: v for k, v in os.environ.items() if not k.startswith("GCTUNE_")}
        # An empty working directory: no ./config.yaml, so the built-in defaults apply (the same
        # as heapsim.DefaultParams and workload seed 1 at the spec's own resolution).
        self.cwd = tempfile.TemporaryDirectory(prefix="bench-optuna-")
        self.workload = workload
        self.proc = subprocess.Popen(
            [gctune, "simulate", "--batch", workload],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, env=env, cwd=self.cwd.name)
        self.lines = 0

    def run(self, params):
        self.proc.stdin.write(json.dumps(params) + "\n")
        self.proc.stdin.flush()
        self.lines += 1
        out = self.proc.stdout.readline()
        if not out:
            raise RuntimeError(f"gctune simulate --batch {self.workload} exited ({self.proc.poll()})")
        res = json.loads(out)
        if res.get("line") != self.lines:
            raise RuntimeError(f"batch answered line {res.get('line')}, want {self.lines}")
        if res.get("error"):
            raise SimError(res["error"])
        return res

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()
        self.cwd.cleanup()


def make_sampler(name, seed):
    import optuna
    if name == "optuna-tpe":
        return optuna.samplers.TPESampler(seed=seed)
    if name == "optuna-cmaes":
        return optuna.samplers.CmaEsSampler(seed=seed)
    raise SystemExit(f"sampler {name!r}: want optuna-tpe or optuna-cmaes")


def run_study(sim, workload, sampler_name, seed, trials, default_seconds):
    import optuna
    study = optuna.create_study(sampler=make_sampler(sampler_name, seed))
    points = {}

    def objective(trial):
        raw = {}
        for (name, lo, hi, log), key in zip(SPACE, ("newSpaceBytes", "headroomBytes", "shrinkBytes", "ratio", "proportion")):
            raw[key] = trial.suggest_float(name, lo, hi, log=log)
        pt = rounded(raw)
        points[trial.number] = pt
        return sim.run(batch_line(pt))["stats"]["totalSeconds"]

    start = time.time()
    study.optimize(objective, n_trials=trials, catch=(SimError,))
    wall = time.time() - start
    values, best, failed, failures = [], [], 0, []
    b, bpt = math.inf, None
    for t in sorted(study.trials, key=lambda t: t.number):
        if t.state == optuna.trial.TrialState.COMPLETE:
            values.append(t.value)
            if t.value < b:
                b, bpt = t.value, points.get(t.number)
        else:
            values.append(None)
            failed += 1
            if len(failures) < 5:
                failures.append(f"trial {t.number} {t.state.name}: {t.system_attrs.get('fail_reason', '')}")
        best.append(None if math.isinf(b) else b)
    rec = {"side": "optuna", "mode": "plain", "workload": workload, "sampler": sampler_name, "seed": seed,
           "trials": trials, "defaultSeconds": default_seconds, "values": values, "best": best,
           "failed": failed, "bestPoint": bpt, "wallSeconds": wall}
    if failures:
        rec["failures"] = failures
    if len(values) != trials:
        raise RuntimeError(f"study holds {len(values)} trials, want {trials}")
    return rec


def key(r):
    return (r["side"], r["mode"], r["workload"], r["sampler"], r["seed"], r["trials"])


def read_runs(path):
    runs = []
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    runs.append(json.loads(line))
    return runs


def quantile(xs, q):
    """Linear interpolation (numpy's default), as the Go side's bsQuantile."""
    s = sorted(xs)
    if not s:
        return math.nan
    pos = q * (len(s) - 1)
    i = math.floor(pos)
    if i >= len(s) - 1:
        return s[-1]
    return s[i] + (pos - i) * (s[i + 1] - s[i])


def best_at(r, n):
    n = min(n, len(r["best"]))
    v = r["best"][n - 1] if n > 0 else None
    return math.inf if v is None else v


def print_table(runs, workloads, samplers, seeds, trials):
    idx = {key(r): r for r in runs}
    cps = [c for c in CHECKPOINTS if c < trials] + [trials]
    print(f"median best over seeds {seeds} ({trials} trials, Optuna, plain space): "
          "speedup over the defaults [IQR], and seconds\n")
    print("| workload | sampler | " + " | ".join(f"@{c}" for c in cps) + " | failed trials | wall s/study |")
    print("| --- | --- | " + " | ".join("---" for _ in cps) + " | --- | --- |")
    for w in workloads:
        for s in samplers:
            rs = [idx[k] for k in (("optuna", "plain", w, s, seed, trials) for seed in seeds) if k in idx]
            if not rs:
                continue
            cells = []
            for c in cps:
                secs = [best_at(r, c) for r in rs]
                speed = [r["defaultSeconds"] / best_at(r, c) for r in rs]
                cells.append(f"{quantile(speed, .5):.4f}x [{quantile(speed, .25):.4f}–{quantile(speed, .75):.4f}] "
                             f"{quantile(secs, .5):.6g} s")
            failed = sum(r["failed"] for r in rs)
            wall = statistics.mean(r["wallSeconds"] for r in rs)
            print(f"| {w} | {s} | " + " | ".join(cells) + f" | {failed} | {wall:.0f} |")


# Rows of the merged table: (side, sampler, label).
MERGED_ROWS = (
    ("gctune", "tpe", "gctune tpe (default, multivariate)"),
    ("gctune", "tpe-independent", "gctune tpe-independent"),
    ("gctune", "cmaes", "goptuna cmaes"),
    ("gctune", "random", "random"),
    ("gctune", "goptuna-tpe", "goptuna stock tpe"),
    ("optuna", "optuna-tpe", "Optuna 3.1 TPE"),
    ("optuna", "optuna-cmaes", "Optuna 3.1 CMA-ES"),
)


def merge(files, workloads, seeds, trials):
    """The merged sampler table of the Go and Python results files (plain studies only)."""
    runs = []
    for f in files:
        runs.extend(read_runs(f))
    idx = {key(r): r for r in runs}
    cps = [c for c in CHECKPOINTS if c < trials] + [trials]
    cols = [(w, c) for w in workloads for c in cps]

    def row_runs(side, sampler, w):
        return [idx[k] for k in ((side, "plain", w, sampler, seed, trials) for seed in seeds) if k in idx]

    defaults = {}
    for r in runs:
        defaults.setdefault(r["workload"], r["defaultSeconds"])
    print(f"Median over seeds {seeds[0]}..{seeds[-1]} of the best value after N trials: speedup over the defaults "
          "(default seconds / best seconds) and, in brackets, the best simulated seconds. Plain "
          "search.DefaultSpace(), nothing enqueued, one worker. Defaults: "
          + ", ".join(f"{w} {defaults.get(w, math.nan):.4g} s" for w in workloads) + ".\n")
    print("| sampler | " + " | ".join(f"{w} @{c}" for w, c in cols) + " |")
    print("| --- | " + " | ".join("---" for _ in cols) + " |")
    for side, sampler, label in MERGED_ROWS:
        cells, n = [], set()
        for w, c in cols:
            rs = row_runs(side, sampler, w)
            n.add(len(rs))
            if not rs:
                cells.append("–")
                continue
            secs = [best_at(r, c) for r in rs]
            speed = [r["defaultSeconds"] / best_at(r, c) for r in rs]
            cells.append(f"{quantile(speed, .5):.4f}x ({quantile(secs, .5):.6g} s)")
        note = "" if n == {len(seeds)} else f" (seeds per workload: {sorted(n)})"
        print(f"| {label}{note} | " + " | ".join(cells) + " |")
    print("\nInterquartile range of the speedup over seeds (25th–75th percentile, linear interpolation):\n")
    print("| sampler | " + " | ".join(f"{w} @{c}" for w, c in cols) + " |")
    print("| --- | " + " | ".join("---" for _ in cols) + " |")
    for side, sampler, label in MERGED_ROWS:
        cells = []
        for w, c in cols:
            rs = row_runs(side, sampler, w)
            speed = [r["defaultSeconds"] / best_at(r, c) for r in rs]
            cells.append(f"{quantile(speed, .25):.4f}–{quantile(speed, .75):.4f}" if rs else "–")
        print(f"| {label} | " + " | ".join(cells) + " |")
    print("\nFailed trials and mean wall seconds per study:\n")
    print("| sampler | " + " | ".join(workloads) + " |")
    print("| --- | " + " | ".join("---" for _ in workloads) + " |")
    for side, sampler, label in MERGED_ROWS:
        cells = []
        for w in workloads:
            rs = row_runs(side, sampler, w)
            cells.append(f"{sum(r['failed'] for r in rs)} failed, {statistics.mean(r['wallSeconds'] for r in rs):.0f} s"
                         if rs else "–")
        print(f"| {label} | " + " | ".join(cells) + " |")
    print("\nBest known value per workload (every study in the files, any mode):\n")
    print("| workload | best s | speedup | found by | point (rounded) |")
    print("| --- | --- | --- | --- | --- |")
    for w in workloads:
        best = None
        for r in runs:
            if r["workload"] == w and (best is None or best_at(r, len(r["best"])) < best_at(best, len(best["best"]))):
                best = r
        if best is None:
            continue
        b = best_at(best, len(best["best"]))
        p = best.get("bestPoint") or {}
        pt = (f"new space {p.get('newSpaceBytes', 0) / MiB:.0f} MiB, headroom {p.get('headroomBytes', 0) / MiB:.0f} MiB, "
              f"shrink {p.get('shrinkBytes', 0) / MiB:.0f} MiB, ratio {p.get('ratio', math.nan):.4g}, "
              f"p {p.get('proportion', math.nan):.3f}") if p else ""
        print(f"| {w} | {b:.6g} | {best['defaultSeconds'] / b:.4f}x | {best['side']} {best['mode']} {best['sampler']} "
              f"seed {best['seed']} | {pt} |")


def parse_seeds(s):
    out = []
    for part in s.split(","):
        lo, _, hi = part.strip().partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def check(args, workloads):
    """Random and edge-case points for TestBenchSamplersMatchBatch."""
    rng = random.Random(12345)
    keys = ("newSpaceBytes", "headroomBytes", "shrinkBytes", "ratio", "proportion")

    def draw():
        raw = {}
        for (_, lo, hi, log), k in zip(SPACE, keys):
            raw[k] = math.exp(rng.uniform(math.log(lo), math.log(hi))) if log else rng.uniform(lo, hi)
        return raw

    pts = [draw() for _ in range(args.check_n)]
    # Edges: bounds, half-MiB sizes (ties), ratios at powers of ten and at 4-digit ties.
    for (nb, hb, sb, r, p) in [
        (4 * MiB, 1 * MiB, 1 * MiB, 0.05, 0.0), (1 * GiB, 4 * GiB, 8 * GiB, 50.0, 1.25),
        (16.5 * MiB, 0.5 * MiB, 0.49 * MiB, 0.1, 1.0), (100.5 * MiB, 2.5 * MiB, 3.5 * MiB, 1.0, 0.5),
        (7.4999 * MiB, 1.5 * MiB, 1023.5 * MiB, 10.0, 0.9), (5 * MiB + 1, 2 * MiB - 1, 3 * MiB, 0.12345, 0.2),
        (6 * MiB, 6 * MiB, 6 * MiB, 1.23456, 0.333), (6 * MiB, 6 * MiB, 6 * MiB, 12.34567, 0.75),
        (6 * MiB, 6 * MiB, 6 * MiB, 0.099995, 1.1), (6 * MiB, 6 * MiB, 6 * MiB, 9.9995, 0.01),
        (6 * MiB, 6 * MiB, 6 * MiB, 0.333333, 0.18),
    ]:
        pts.append({"newSpaceBytes": float(nb), "headroomBytes": float(hb), "shrinkBytes": float(sb), "ratio": r, "proportion": p})
    with open(args.check, "w") as f:
        for w in workloads:
            sim = Simulator(args.gctune, w)
            for i, raw in enumerate(pts):
                pt = rounded(raw)
                rec = {"workload": w, "raw": raw, "rounded": pt}
                if i < args.check_eval or i >= args.check_n:
                    try:
                        rec["totalSeconds"] = sim.run(batch_line(pt))["stats"]["totalSeconds"]
                    except SimError as e:
                        rec["error"] = str(e)
                f.write(json.dumps(rec) + "\n")
            sim.close()
    print(f"wrote {args.check}: {len(pts)} points per workload, {args.check_eval} + {len(pts) - args.check_n} evaluated")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gctune", default="/tmp/bench/gctune", help="gctune binary")
    ap.add_argument("--workloads", default=DEFAULT_WORKLOADS)
    ap.add_argument("--samplers", default="optuna-tpe,optuna-cmaes")
    ap.add_argument("--seeds", default="1-10", help='e.g. "1-10" or "1,2,5"')
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--out", default="/tmp/bench/optuna.jsonl", help="JSON-lines results (appended; resumable)")
    ap.add_argument("--table-only", action="store_true", help="print the table from --out and run nothing")
    ap.add_argument("--merge", metavar="FILES", help="print the merged table of these comma-separated results files "
                    "(Go BENCH_SAMPLERS_OUT and this script's --out) and run nothing")
    ap.add_argument("--check", metavar="FILE", help="write consistency-check points to FILE and exit")
    ap.add_argument("--check-n", type=int, default=2000, help="random points for --check")
    ap.add_argument("--check-eval", type=int, default=12, help="of which simulated per workload")
    args = ap.parse_args()
    workloads = [w for w in args.workloads.split(",") if w]
    samplers = [s for s in args.samplers.split(",") if s]
    seeds = parse_seeds(args.seeds)

    if args.check:
        check(args, workloads)
        return
    if args.merge:
        merge(args.merge.split(","), workloads, seeds, args.trials)
        return

    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.simplefilter("ignore")
    print(f"optuna {optuna.__version__}", file=sys.stderr)

    runs = read_runs(args.out)
    done = {key(r) for r in runs}
    if not args.table_only:
        for w in workloads:
            todo = [(s, seed) for s in samplers for seed in seeds
                    if ("optuna", "plain", w, s, seed, args.trials) not in done]
            if not todo:
                continue
            sim = Simulator(args.gctune, w)
            default_seconds = sim.run(DEFAULT_PARAMS)["stats"]["totalSeconds"]
            print(f"bench: {w}: default {default_seconds:.4g} s", file=sys.stderr, flush=True)
            for s, seed in todo:
                rec = run_study(sim, w, s, seed, args.trials, default_seconds)
                with open(args.out, "a") as f:
                    f.write(json.dumps(rec) + "\n")
                runs.append(rec)
                b = best_at(rec, args.trials)
                print(f"bench: {w} {s} seed {seed}: best {b:.4g} s ({default_seconds / b:.3g}x), "
                      f"{rec['failed']} failed, {rec['wallSeconds']:.0f} s", file=sys.stderr, flush=True)
            sim.close()
    print_table(runs, workloads, samplers, seeds, args.trials)


if __name__ == "__main__":
    main()
