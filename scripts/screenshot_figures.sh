#!/usr/bin/env bash
# screenshot_figures.sh: every figure of the report, as headless Chromium draws it, for review.
#
# Builds gctune, runs the README's study (optimize dataframe-3.1gb --trials 200) and one on a
# sampled export of the same workload (gctune sample --rate 1/1000), writes both reports, and
# screenshots each figure of each (scripts/figshots) into OUT/full/shots and OUT/sampled/shots.
# Nothing is written in the repository; look at the PNGs before calling a figure done.
#
# Environment: OUT (default /tmp/gctune-figures; must be outside the repository), TRIALS (200),
# SAMPLED_TRIALS (TRIALS), RATE (1/1000), WORKLOAD (dataframe-3.1gb), REUSE=1 keeps the studies
# of an earlier run in OUT/studies.db (only the reports and screenshots are redone).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

OUT=${OUT:-/tmp/gctune-figures}
TRIALS=${TRIALS:-200}
SAMPLED_TRIALS=${SAMPLED_TRIALS:-$TRIALS}
RATE=${RATE:-1/1000}
WORKLOAD=${WORKLOAD:-dataframe-3.1gb}
REUSE=${REUSE:-0}

repo=$(pwd -P)
mkdir -p "$OUT"
out=$(cd "$OUT" && pwd -P)
case $out/ in
"$repo"/*)
	echo "screenshot_figures.sh: OUT=$OUT is inside the repository; screenshots are not committed" >&2
	exit 2
	;;
esac

bin=$out/gctune
db=$out/studies.db
run go build -o "$bin" ./cmd/gctune
if [ "$REUSE" != 1 ] || [ ! -f "$db" ]; then
	rm -f "$db" "$db"-shm "$db"-wal
	run "$bin" optimize "$WORKLOAD" --trials "$TRIALS" --storage "$db" --study full
	run "$bin" sample "$WORKLOAD" --rate "$RATE" -o "$out/sampled.csv" --force
	run "$bin" optimize "$out/sampled.csv" --trials "$SAMPLED_TRIALS" --storage "$db" --study sampled
fi
for study in full sampled; do
	mkdir -p "$out/$study"
	run "$bin" report "$study" --storage "$db" -o "$out/$study/report.html" --png "$out/$study/png"
	run go run ./scripts/figshots "$out/$study/report.html" "$out/$study/shots"
done
echo "screenshots: $out/full/shots/*.png $out/sampled/shots/*.png" >&2
