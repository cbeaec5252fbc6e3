#!/bin/sh
# Does the lifetime-informed plan help? With the default sampler, trials until the best so far is
# within 1 % of the best known value, with search.PlanSearch's seeds and constraints
# (PlanOptions{}) and without them (plain DefaultSpace, nothing enqueued), seeds 1..10
# (search/bench_samplers_test.go, BenchmarkSeedingBundled). Every command is printed first.
#
#   scripts/bench_seeding.sh
#
# Run scripts/bench_samplers.sh first: the plain runs are the sampler table's default-sampler
# studies (read back from $OUT/gctune.jsonl, not run again), and the best known value of each
# workload is the best of every study in $OUT/gctune.jsonl and $OUT/optuna.jsonl. Environment
# as bench_samplers.sh: WORKLOADS, SEEDS, TRIALS, PAR, OUT.
set -eu
cd "$(dirname "$0")/.."

. scripts/lib.sh
sampler_env

mkdir -p "$OUT"
run env BENCH_SAMPLERS_WORKLOADS="$WORKLOADS" BENCH_SAMPLERS_SEEDS="$SEEDS" BENCH_SAMPLERS_TRIALS="$TRIALS" \
	BENCH_SAMPLERS_PAR="$PAR" BENCH_SAMPLERS_OUT="$OUT/gctune.jsonl" BENCH_SAMPLERS_EXTRA="$OUT/optuna.jsonl" \
	go test ./search -run '^$' -bench '^BenchmarkSeedingBundled$' -benchtime 1x -timeout 0 -v |
	tee "$OUT/seeding_table.txt"
