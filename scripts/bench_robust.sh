#!/usr/bin/env bash
# Measures what issue 19 asks of robust answers (docs/benchmarks.md, "Robust answers"): for
# each workload and study seed, optimize with the default (robust) settings, then judge the
# exported recommendation on perturbations the search never saw (replicas drawn from another
# seed):
#
#   - realised: the recommendation's run time on FRESH perturbed runs, against the predicted
#     expected value and interval (how many of the fresh runs fall in it);
#   - neighbours: each exported parameter moved by ±2, ±5 and ±10 %, everything else as
#     exported, judged on the same fresh runs: the worst cost against the recommendation;
#   - regret: the recommendation's expected value on the fresh runs against the one of a long
#     study (LONG trials, same settings) of the same workload;
#   - calibration (issue 29): the stated speedup, its interval and width against the full profile
#     as recorded (one simulation of the exported configuration) and REPLICAS fresh runs of
#     "this input again" (--scenario again, seed AGAIN + the study seed): the table
#     OUT/calibration.md (scripts/calibration_table.py), from OUT/calibration.jsonl.
#
#   scripts/bench_robust.sh                 every bundled workload, seeds 1 2 3
#   WORKLOADS="dataframe-3.1gb" SEEDS="1 2 3" DESIGN="--search-replicas 2" scripts/bench_robust.sh
#   TRIALS=60 SEEDS=1 LONG=0 NEIGHBOURS=0 WORKLOADS="scripts/specs/job-queue.yaml" scripts/bench_robust.sh
#
# Environment: WORKLOADS (space-separated names or spec/profile paths, e.g. scripts/specs/*.yaml;
# default every bundled workload), SEEDS ("1 2 3"),
# TRIALS (200), LONG (trials of the long study, 1000; 0 skips the regret), FRESH (seed of the
# fresh replicas, 1000 + the study seed), REPLICAS (fresh runs, 16), DESIGN (extra optimize
# flags, e.g. "--search-replicas 0" for the single-simulation search), NEIGHBOURS (0 skips the
# neighbours), AGAIN (seed of the fresh "again" runs, 2000 + the study seed), OUT (/tmp/bench-robust),
# GCTUNE (a gctune binary to use; default: built from this tree into OUT), FRESH_SCENARIO (what
# the fresh runs of fresh_in, the neighbours and the regret are: like, the default, or again;
# the stated interval is on "again" runs, so fresh_in of "like" runs measures it on the wider
# question; the calibration table always uses "again" runs).
# Prints one TSV line per workload and seed (and its commands on stderr); writes the studies
# and the JSON documents to OUT. A long study already in OUT (an earlier run's) is reused.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

OUT=${OUT:-/tmp/bench-robust}
SEEDS=${SEEDS:-1 2 3}
TRIALS=${TRIALS:-200}
LONG=${LONG:-1000}
FRESH=${FRESH:-1000}
REPLICAS=${REPLICAS:-16}
DESIGN=${DESIGN:-}
NEIGHBOURS=${NEIGHBOURS:-1}
AGAIN=${AGAIN:-2000}
FRESH_SCENARIO=${FRESH_SCENARIO:-like}
mkdir -p "$OUT"
CAL=$OUT/calibration.jsonl
: >"$CAL" # this run's cells only
bin=${GCTUNE:-$OUT/gctune}
[ -n "${GCTUNE:-}" ] || go build -o "$bin" ./cmd/gctune # GCTUNE: a binary already built
WORKLOADS=${WORKLOADS:-$("$bin" workloads --json | jq -r '.workloads[].name' | tr '\n' ' ')}

# The simulate flag of each exported parameter (search.Tunables: Name, FlagName).
declare -A flag=([new_space_bytes]=eden [growth_headroom_bytes]=headroom [shrink_threshold_bytes]=shrink
	[full_gc_ratio]=ratio [tenuring_proportion]=survivors-proportion)
declare -A key=([new_space_bytes]=edenBytes [growth_headroom_bytes]=headroomBytes [shrink_threshold_bytes]=shrinkBytes
	[full_gc_ratio]=fullGCRatio [tenuring_proportion]=survivorsProportion)

# fresh W SEED ARGS...: the mean given run time over REPLICAS fresh replicas, then each value.
fresh() {
	local w=$1 seed=$2
	shift 2
	"$bin" simulate "$w" --replicas "$REPLICAS" --replica-seed "$seed" --scenario "$FRESH_SCENARIO" --json "$@" 2>/dev/null |
		jq -r '[.replicas.meanGiven] + .replicas.given | map(tostring) | join(" ")'
}

# study W SEED TRIALS DB: runs optimize, prints its CPU seconds (user + system) and wall time.
study() {
	local w=$1 seed=$2 trials=$3 db=$4
	rm -f "$db"
	# shellcheck disable=SC2086
	/usr/bin/time -f "%U %S %e" -o "$db.time" "$bin" optimize "$w" --trials "$trials" --seed "$seed" \
		--storage "$db" --study s -q --json $DESIGN >"$db.json" 2>"$db.err"
	awk '{printf "%.1f %.1f\n", $1 + $2, $3}' "$db.time"
}

printf 'workload\tseed\tcpu_s\twall_s\tpredicted\tlo\thi\tfresh_mean\tfresh_in\tworst_neighbour\tworst_at\tregret\n'
for w in $WORKLOADS; do
	n=$(wname "$w") # files and cells by name: a spec path's file name
	if [ "$LONG" -gt 0 ] && [ ! -s "$OUT/$n-long.yaml" ]; then # an earlier run's long study in OUT is kept
		study "$w" 99 "$LONG" "$OUT/$n-long.db" >/dev/null
		"$bin" export s --storage "$OUT/$n-long.db" --format yaml -o "$OUT/$n-long.yaml"
	fi
	for seed in $SEEDS; do
		db="$OUT/$n-$seed.db"
		read -r cpu wall < <(study "$w" "$seed" "$TRIALS" "$db")
		"$bin" export s --storage "$db" --format yaml -o "$OUT/$n-$seed.yaml"
		"$bin" export s --storage "$db" --format json >"$OUT/$n-$seed.export.json"
		rec="$OUT/$n-$seed.export.json"
		# Calibration: the full profile as recorded, and fresh runs of "this input again".
		"$bin" simulate "$w" --config "$OUT/$n-$seed.yaml" --json >"$OUT/$n-$seed.sim.json" 2>/dev/null
		"$bin" simulate "$w" --config "$OUT/$n-$seed.yaml" --replicas "$REPLICAS" --replica-seed $((AGAIN + seed)) \
			--scenario again --json >"$OUT/$n-$seed.again.json" 2>/dev/null
		python3 scripts/calibration_table.py add "$CAL" --cell "$n seed $seed" --kind full --export "$rec" \
			--recorded "$OUT/$n-$seed.sim.json" --again "$OUT/$n-$seed.again.json"
		pred=$(jq -r '.predicted.value' "$rec")
		lo=$(jq -r '.predicted.interval.lo // .predicted.value' "$rec")
		hi=$(jq -r '.predicted.interval.hi // .predicted.value' "$rec")
		fs=$((FRESH + seed))
		read -r -a base < <(fresh "$w" "$fs" --config "$OUT/$n-$seed.yaml")
		mean=${base[0]}
		inside=$(printf '%s\n' "${base[@]:1}" | awk -v lo="$lo" -v hi="$hi" '$1 >= lo && $1 <= hi {n++} END {print n + 0}')
		worst=0 worst_at=-
		for p in $( ((NEIGHBOURS)) && jq -r '.set[]' "$rec"); do
			v=$(jq -r --arg k "${key[$p]}" '.parameters[$k]' "$rec")
			for f in -0.10 -0.05 -0.02 0.02 0.05 0.10; do
				nv=$(awk -v v="$v" -v f="$f" -v p="$p" 'BEGIN { x = v * (1 + f); if (p == "full_gc_ratio" || p == "tenuring_proportion") printf "%.6g", x; else printf "%d", x }')
				# A move past what the VM accepts (eden over 1 GiB) is no configuration: skipped.
				nb=()
				read -r -a nb < <(fresh "$w" "$fs" --config "$OUT/$n-$seed.yaml" "--${flag[$p]}" "$nv") || true
				cost=$(awk -v a="${nb[0]:-0}" -v b="$mean" 'BEGIN { if (a == 0) print "nan"; else printf "%.4f", a / b - 1 }')
				if awk -v c="$cost" -v w="$worst" 'BEGIN { exit !(c != "nan" && c + 0 > w + 0) }'; then
					worst=$cost worst_at="$p$f"
				fi
			done
		done
		regret=-
		if [ -n "${LONG:-}" ] && [ "$LONG" -gt 0 ]; then
			read -r -a lg < <(fresh "$w" "$fs" --config "$OUT/$n-long.yaml")
			regret=$(awk -v a="$mean" -v b="${lg[0]}" 'BEGIN { printf "%.4f", a / b - 1 }')
		fi
		printf '%s\t%s\t%s\t%s\t%.1f\t%.1f\t%.1f\t%.1f\t%s/%s\t%s\t%s\t%s\n' "$n" "$seed" "$cpu" "$wall" "$pred" "$lo" "$hi" \
			"$mean" "$inside" "$REPLICAS" "$worst" "$worst_at" "$regret"
	done
done
python3 scripts/calibration_table.py table "$CAL" --title "Calibration, full profiles (TRIALS=$TRIALS, seeds $SEEDS; fresh again runs: $REPLICAS from seed $AGAIN + the study seed)" >"$OUT/calibration.md"
echo "calibration table: $OUT/calibration.md" >&2
cat "$OUT/calibration.md" >&2
