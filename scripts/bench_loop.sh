#!/bin/sh
# Closing the loop: calibrate dataframe-3.1gb on [IWST23-P] Table 1's 3.1 GB default run and
# compare the simulated default with it; then verify a gcdemo study with the stand-in command
# (0.3 s under --edenSize=16m, 0.1 s otherwise) REPEAT times and print each measured speedup
# with its 95 % interval. Every command is printed first.
#
#   scripts/bench_loop.sh
#
# Environment: OUT (working directory, default /tmp/bench-loop), RUNS (verify --runs, 5),
# REPEAT (verify sessions, 3).
set -eu
cd "$(dirname "$0")/.."
. scripts/lib.sh
ROOT=$(pwd)
OUT=${OUT:-/tmp/bench-loop}
RUNS=${RUNS:-5}
REPEAT=${REPEAT:-3}

mkdir -p "$OUT"
run go build -o "$OUT/gctune" ./cmd/gctune
rm -f "$OUT/loop.db"
run "$OUT/gctune" calibrate dataframe-3.1gb --measured costfit/testdata/iwst23p-3.1gb.json
run "$OUT/gctune" optimize cmd/gctune/testdata/gcdemo.yaml --trials 10 --workers 1 -q --storage "$OUT/loop.db" --study demo >/dev/null
i=0
while [ "$i" -lt "$REPEAT" ]; do
	run "$OUT/gctune" verify demo --storage "$OUT/loop.db" --runs "$RUNS" -q -- sh "$ROOT/verify/testdata/standin.sh" '{eden}' '{st}' |
		grep -E '^(default|best)|warning'
	i=$((i + 1))
done
