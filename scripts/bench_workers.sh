#!/bin/sh
# Throughput of worker processes on one study (docs/benchmarks.md, "Many workers on one
# study"): for SQLite and PostgreSQL (a private server, internal/pgtest), each workload and
# 1, 2 and 4 `gctune worker --workers 1` processes, trials per second from the first trial's
# start to the last one's end, beside the time the simulator takes for one evaluation and the
# time a trial takes from creation to completion. Prints a Markdown table. Every command is
# printed before it runs.
#
#   scripts/bench_workers.sh
#
# Environment: WORKLOADS (comma-separated; default testdata/gcdemo.yaml, a workload the
# simulator evaluates in under a millisecond, and dataframe-500mb, about 40 ms), TRIALS per
# study (default 200), COUNTS (default 1,2,4), STORAGE (default sqlite,postgres; postgres needs
# the PostgreSQL server binaries: apt-get install -y postgresql), REPEAT (runs of each row,
# the median is shown; default 3). About 4 minutes on 2 cores with the defaults.
set -eu
cd "$(dirname "$0")/.."
. scripts/lib.sh

run env BENCH_WORKERS=1 \
	BENCH_WORKERS_WORKLOADS="${WORKLOADS:-testdata/gcdemo.yaml,dataframe-500mb}" \
	BENCH_WORKERS_TRIALS="${TRIALS:-200}" \
	BENCH_WORKERS_COUNTS="${COUNTS:-1,2,4}" \
	BENCH_WORKERS_STORAGE="${STORAGE:-sqlite,postgres}" \
	BENCH_WORKERS_REPEAT="${REPEAT:-3}" \
	go test ./cmd/gctune -run '^TestBenchWorkers$' -count=1 -v -timeout 0
