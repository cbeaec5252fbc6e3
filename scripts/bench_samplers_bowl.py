#!/usr/bin/python3
"""Python Optuna's samplers on gctune's 5-parameter shifted bowl.

The reference side of search/tpe/bench_test.go (BenchmarkBowl): the same bowl, the same
budgets and 10 seeds, so gctune's TPE can be compared with Optuna's. Written for Optuna 3.1
(Debian's python3-optuna: `apt-get install -y python3-optuna`), run with /usr/bin/python3:

    /usr/bin/python3 scripts/bench_samplers_bowl.py [--seeds 10] [--trials 200]

The bowl (search/tpe/bowl_test.go): x0..x3 uniform on [-5, 5], x4 log-uniform on [1e-5, 1e5],

    f(x) = sum_{i<4} (x_i - c_i)^2 + (log10 x4 - 2)^2,   c = (1.5, -2, 3, -0.5),

minimum 0 at (1.5, -2, 3, -0.5, 100). Prints the median over seeds of the best value after
50, 100 and 200 trials for each sampler, as a Markdown table.
"""

import argparse
import math
import statistics
import warnings

import optuna

CENTRE = (1.5, -2.0, 3.0, -0.5)
LOG_LOW, LOG_HIGH, LOG_CENTRE = 1e-5, 1e5, 2.0
CHECKPOINTS = (50, 100, 200)


def bowl(trial):
    f = 0.0
    for i, c in enumerate(CENTRE):
        x = trial.suggest_float(f"x{i}", -5.0, 5.0)
        f += (x - c) ** 2
    x4 = trial.suggest_float("x4", LOG_LOW, LOG_HIGH, log=True)
    return f + (math.log10(x4) - LOG_CENTRE) ** 2


SAMPLERS = {
    "optuna-tpe": lambda seed: optuna.samplers.TPESampler(seed=seed),
    "optuna-tpe-multivariate": lambda seed: optuna.samplers.TPESampler(seed=seed, multivariate=True),
    "optuna-cmaes": lambda seed: optuna.samplers.CmaEsSampler(seed=seed),
    "optuna-random": lambda seed: optuna.samplers.RandomSampler(seed=seed),
}


def run(make_sampler, seed, n_trials):
    study = optuna.create_study(sampler=make_sampler(seed))
    study.optimize(bowl, n_trials=n_trials)
    best, out = math.inf, []
    for t in sorted(study.trials, key=lambda t: t.number):
        if t.value is not None and t.value < best:
            best = t.value
        out.append(best)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--trials", type=int, default=200)
    args = ap.parse_args()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.simplefilter("ignore")  # ExperimentalWarning for multivariate

    checkpoints = [c for c in CHECKPOINTS if c <= args.trials]
    print(f"optuna {optuna.__version__}, median best over {args.seeds} seeds (seeds 1..{args.seeds})")
    print("| sampler | " + " | ".join(f"@{c}" for c in checkpoints) + " |")
    print("| --- | " + " | ".join("---" for _ in checkpoints) + " |")
    for name, make in SAMPLERS.items():
        runs = [run(make, seed, args.trials) for seed in range(1, args.seeds + 1)]
        medians = [statistics.median(r[c - 1] for r in runs) for c in checkpoints]
        print(f"| {name} | " + " | ".join(f"{m:.4f}" for m in medians) + " |", flush=True)


if __name__ == "__main__":
    main()
