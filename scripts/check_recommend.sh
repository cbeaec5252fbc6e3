#!/usr/bin/env bash
# Measures what issue 13 asks of the recommendation (docs/benchmarks.md, "The recommendation"):
# on dataframe-3.1gb (150 trials) the recommended peak footprint against the smallest footprint
# among the trials within 1 % of the fastest, and what each exported change is worth put back
# alone; on request-server (150 trials) whether gctune says to keep the defaults.
#
#   scripts/check_recommend.sh [SEED...]     (default seed 1)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/gctune
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/gctune
seeds=("${@:-1}")
for seed in "${seeds[@]}"; do
	db=$(dirname "$bin")/s$seed.db
	"$bin" optimize dataframe-3.1gb --trials 150 --seed "$seed" --storage "$db" -q >/dev/null
	rec=$("$bin" export dataframe-3.1gb --storage "$db" --format json)
	front=$("$bin" export dataframe-3.1gb --storage "$db" --pareto --json)
	echo "$rec" | jq -r --argjson front "$front" --arg seed "$seed" '
		.recommendation as $r
		| ($r.bestValue * 1.01) as $limit
		| ([$front[] | select(.value <= $limit) | .peakFootprintBytes] | min) as $smallest
		| "dataframe-3.1gb seed \($seed): trial \(.trial) (fastest \($r.bestTrial)), \(.predicted.speedup*100|round/100)x, "
		  + "recommended footprint \(.predicted.peakFootprintBytes) B, smallest within 1 %: \($smallest) B, "
		  + "ratio \((.predicted.peakFootprintBytes / $smallest * 10000 | round) / 10000)\n"
		  + "  put back: \([$r.putBack[] | "\(.param) \((.cost*10000|round)/100) %"] | join(", "))\n"
		  + "  kept (cost put back alone): \([$r.kept[] | "\(.param) \((.cost*10000|round)/100) %"] | join(", "))"'
	"$bin" optimize request-server --trials 150 --seed "$seed" --storage "$db" -q >/dev/null
	"$bin" export request-server --storage "$db" --format json | jq -r --arg seed "$seed" '
		"request-server seed \($seed): keepDefaults \(.recommendation.keepDefaults), fastest \((.predicted.defaultValue / .recommendation.bestValue * 1000 | round) / 1000)x"'
done
