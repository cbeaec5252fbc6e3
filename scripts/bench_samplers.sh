#!/bin/sh
# The sampler table: gctune's samplers (search/bench_samplers_test.go, BenchmarkSamplersBundled)
# and Python Optuna 3.1's TPE and CMA-ES (scripts/bench_samplers_optuna.py) on the bundled
# DataFrame workloads, median best after 50/100/200 trials over seeds 1..10, merged into one
# Markdown table. Every command is printed before it runs.
#
#   scripts/bench_samplers.sh
#
# Environment: WORKLOADS (comma-separated, default the three dataframe-* workloads), SEEDS
# (default 1-10), TRIALS (default 200), PAR (Go studies at once, default 2), OUT (results
# directory, default /tmp/bench). Results are appended to $OUT/gctune.jsonl and
# $OUT/optuna.jsonl and studies already there are not run again: delete them to start afresh,
# or interrupt and rerun to resume.
#
# Needs /usr/bin/python3 with python3-optuna (apt-get update && apt-get install -y python3-optuna).
# Run time on 2 shared cores (measured 2026-11): the Go side 21 min alone with PAR=2, 27 min
# with the Python side running beside it (a study of 200 trials takes 5-20 s on dataframe-500mb
# and -1.6gb, 20-70 s on dataframe-3.1gb, where one simulation takes 0.1-0.2 s, over 1 s near
# the defaults); the Python side, one core, about 27 min.
set -eu
cd "$(dirname "$0")/.."

. scripts/lib.sh
sampler_env
PY=/usr/bin/python3

mkdir -p "$OUT"
run go build -o "$OUT/gctune" ./cmd/gctune

# The Python side must evaluate exactly what the Go side does: same rounding, same seconds.
run $PY scripts/bench_samplers_optuna.py --gctune "$OUT/gctune" --workloads "$WORKLOADS" --check "$OUT/check.jsonl"
run env BENCH_SAMPLERS_CHECK="$OUT/check.jsonl" go test ./search -run '^TestBenchSamplersMatchBatch$' -count=1 -v

# Go side (gctune tpe, tpe-independent, cmaes, random, goptuna-tpe).
run env BENCH_SAMPLERS_WORKLOADS="$WORKLOADS" BENCH_SAMPLERS_SEEDS="$SEEDS" BENCH_SAMPLERS_TRIALS="$TRIALS" \
	BENCH_SAMPLERS_PAR="$PAR" BENCH_SAMPLERS_OUT="$OUT/gctune.jsonl" \
	go test ./search -run '^$' -bench '^BenchmarkSamplersBundled$' -benchtime 1x -timeout 0 -v |
	tee "$OUT/gctune_table.txt"

# Python side (Optuna 3.1 TPE and CMA-ES), one `gctune simulate --batch` process per workload.
run $PY scripts/bench_samplers_optuna.py --gctune "$OUT/gctune" --workloads "$WORKLOADS" --seeds "$SEEDS" \
	--trials "$TRIALS" --out "$OUT/optuna.jsonl" | tee "$OUT/optuna_table.txt"

# Merged table.
run $PY scripts/bench_samplers_optuna.py --merge "$OUT/gctune.jsonl,$OUT/optuna.jsonl" --workloads "$WORKLOADS" \
	--seeds "$SEEDS" --trials "$TRIALS" | tee "$OUT/table.md"
