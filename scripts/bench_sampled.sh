#!/bin/sh
# Sampled profiles: does a FiLiP export sampled at 1/N give the recommendation the full profile
# gives? For every bundled workload (smallest first), rate and phase:
#   1. the full profile's own best: optimize WORKLOAD (once per workload);
#   2. gctune sample WORKLOAD --rate 1/N --phase P -o X.csv (the current exporter's format);
#   3. optimize X.csv, rebuilt (--rebuild auto) and the old reading (--no-rebuild);
#   4. simulate the recommendation on the FULL profile, once as recorded and on REPLICAS perturbed
#      runs drawn from a seed no study used (REPLICA_SEED): the realised speedup, against the
#      sampled study's predicted one and the full profile's best simulated the same two ways
#      (like with like: single simulation against single simulation, the mean over the same
#      perturbed runs against the mean). A cell passes when the robust share is at least 0.95;
#      the table also says whether the realised speedup lies in the stated speedup interval.
#   5. calibration (issue 29): the sampled study's stated speedup, its interval and width against
#      the full profile as recorded and REPLICAS fresh runs of "this input again" (--scenario
#      again, seed AGAIN_SEED) of the full profile; the full profile's own study (workload
#      "full") the same way. Whether the export carries the run's GC counts (totalScavenges,
#      totalFullGCs in its .json) is recorded: the width target applies to those.
# Results are JSON lines in $OUT/results.jsonl (one per finished cell, appended as it goes, so a
# run cut short keeps what it measured; cells already there are skipped) and the table
# $OUT/table.md; the calibration's in $OUT/calibration.jsonl and $OUT/calibration.md
# (scripts/calibration_table.py). Every command is printed first.
#
#   nice -n 10 scripts/bench_sampled.sh
#   WORKLOADS="scripts/specs/job-queue.yaml" RATES=100 PHASES=0 MODES=auto TRIALS=40 nice -n 10 scripts/bench_sampled.sh
#
# Environment: WORKLOADS (names or spec paths such as scripts/specs/*.yaml, default every
# bundled workload by size), RATES (default "100 1000"), PHASES (fractions of N, default
# "0 0.37"), TRIALS (120), WORKERS (1), SEED (1), MODES ("auto off"), REPLICAS (16),
# REPLICA_SEED (1000 + SEED), AGAIN_SEED (seed of the fresh "again" runs, 2000 + SEED), OUT
# (/tmp/bench-sampled), GCTUNE (the binary; built once from this tree when missing).
set -eu
cd "$(dirname "$0")/.."
. scripts/lib.sh

OUT=${OUT:-/tmp/bench-sampled}
GCTUNE=${GCTUNE:-$OUT/gctune}
RATES=${RATES:-100 1000}
PHASES=${PHASES:-0 0.37}
TRIALS=${TRIALS:-120}
WORKERS=${WORKERS:-1}
SEED=${SEED:-1}
MODES=${MODES:-auto off}
REPLICAS=${REPLICAS:-16}
REPLICA_SEED=${REPLICA_SEED:-$((1000 + SEED))}
AGAIN_SEED=${AGAIN_SEED:-$((2000 + SEED))}
DB=$OUT/studies.db
RES=$OUT/results.jsonl
CAL=$OUT/calibration.jsonl

mkdir -p "$OUT"
[ -x "$GCTUNE" ] || run go build -o "$GCTUNE" ./cmd/gctune
if [ -z "${WORKLOADS:-}" ]; then
	WORKLOADS=$("$GCTUNE" workloads --json | python3 -c 'import json,sys
for w in sorted(json.load(sys.stdin)["workloads"], key=lambda w: w["records"]): print(w["name"])')
fi
touch "$RES" "$CAL"
# The exports are on the bytes clock (parameter 34), which the reader tells from the era with no
# flag (docs/filip.md).

# field FILE.json PATH: one value of a JSON document ("a.b.c").
field() {
	python3 -c 'import json,sys
v=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): v=v[k]
print(v)' "$1" "$2"
}

# optimize_best STUDY REF [flags]: run the study unless it exists, export its best as
# $OUT/STUDY.json (predicted) and $OUT/STUDY.yaml (to simulate).
optimize_best() {
	study=$1
	ref=$2
	shift 2
	if ! "$GCTUNE" studies show "$study" --storage "$DB" >/dev/null 2>&1; then
		run "$GCTUNE" optimize "$ref" --study "$study" --storage "$DB" --trials "$TRIALS" --workers "$WORKERS" --seed "$SEED" -q "$@" >/dev/null
	fi
	run "$GCTUNE" export "$study" --storage "$DB" --format json -o "$OUT/$study.json" >/dev/null
	run "$GCTUNE" export "$study" --storage "$DB" --format yaml -o "$OUT/$study.yaml" >/dev/null
}

# realised W STUDY: simulate STUDY's export on the full profile W, as recorded and on the
# perturbed runs; prints "nominal robust" (the robust speedup is mean default / mean given, as
# a study's expected speedup).
realised() {
	run "$GCTUNE" simulate "$1" --config "$OUT/$2.yaml" --replicas "$REPLICAS" --replica-seed "$REPLICA_SEED" --json >"$OUT/$2.sim.json"
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); r=d["replicas"]
print(d["speedup"], (sum(r["default"])/len(r["default"]))/(sum(r["given"])/len(r["given"])))' "$OUT/$2.sim.json"
}

# calibrate W STUDY CELL KIND COUNTS: unless CELL is in $CAL, simulate STUDY's export on the full
# profile W on REPLICAS fresh runs of "this input again" and add the cell to $CAL (the run as
# recorded is $OUT/STUDY.sim.json's speedup, from realised).
calibrate() {
	grep -qF "\"cell\": \"$3\"" "$CAL" && return 0
	run "$GCTUNE" simulate "$1" --config "$OUT/$2.yaml" --replicas "$REPLICAS" --replica-seed "$AGAIN_SEED" --scenario again --json >"$OUT/$2.again.json"
	python3 scripts/calibration_table.py add "$CAL" --cell "$3" --kind "$4" --counts "$5" --export "$OUT/$2.json" \
		--recorded "$OUT/$2.sim.json" --again "$OUT/$2.again.json"
}

for w in $WORKLOADS; do
	wn=$(wname "$w") # files, studies and cells by name: a spec path's file name
	optimize_best "full-$wn" "$w"
	set -- $(realised "$w" "full-$wn")
	full=$1
	fullRobust=$2
	calibrate "$w" "full-$wn" "$wn full" full yes
	for n in $RATES; do
		for f in $PHASES; do
			p=$(python3 -c "import sys; print(int(float(sys.argv[1])*int(sys.argv[2])))" "$f" "$n")
			csv=$OUT/$wn-1in$n-p$p.csv
			[ -s "$csv" ] || run "$GCTUNE" sample "$w" --rate "1/$n" --phase "$p" --seed "$SEED" -o "$csv" --force >/dev/null
			# Whether the export carries the profiled run's GC counts (the exporter's .json).
			counts=$(python3 -c 'import json,sys
try: m=json.load(open(sys.argv[1]))
except Exception: m={}
print("yes" if m.get("totalScavenges") is not None and m.get("totalFullGCs") is not None else "no")' "${csv%.csv}.json")
			for mode in $MODES; do
				cell="$wn 1/$n phase $p $mode"
				study=s-$wn-1in$n-p$p-$mode
				if grep -qF "\"cell\": \"$cell\"" "$RES"; then
					if ! grep -qF "\"cell\": \"$cell\"" "$CAL"; then # a cell of a run before the calibration
						optimize_best "$study" "$csv" --rebuild "$mode"
						realised "$w" "$study" >/dev/null
						calibrate "$w" "$study" "$cell" sampled "$counts"
					fi
					continue
				fi
				optimize_best "$study" "$csv" --rebuild "$mode"
				pred=$(field "$OUT/$study.json" predicted.speedup)
				predLo=$(field "$OUT/$study.json" predicted.speedupInterval.lo)
				predHi=$(field "$OUT/$study.json" predicted.speedupInterval.hi)
				set -- $(realised "$w" "$study")
				real=$1
				realRobust=$2
				rebuild=$("$GCTUNE" lifetimes "$csv" --rebuild "$mode" --json | python3 -c 'import json,sys
r=json.load(sys.stdin)["input"].get("rebuild")
print("-" if r is None else "%d inferred, %d sampled large, %s" % (r["inferredLarge"], r["sampledLarge"], r["hypothesis"].split(" ")[0]))')
				python3 -c 'import json,sys
w,n,p,mode,pred,real,full,realR,fullR,lo,hi,rb=sys.argv[1:]
pred,real,full,realR,fullR,lo,hi=float(pred),float(real),float(full),float(realR),float(fullR),float(lo),float(hi)
print(json.dumps({"cell": "%s 1/%s phase %s %s" % (w,n,p,mode), "workload": w, "every": int(n), "phase": int(p), "mode": mode,
  "predicted": pred, "realised": real, "fullBest": full, "recommendationShare": real/full,
  "realisedRobust": realR, "fullBestRobust": fullR, "robustShare": realR/fullR,
  "predictedOverRealised": pred/realR, "predictedLo": lo, "predictedHi": hi, "realisedInInterval": lo <= realR <= hi, "rebuild": rb}))' \
					"$wn" "$n" "$p" "$mode" "$pred" "$real" "$full" "$realRobust" "$fullRobust" "$predLo" "$predHi" "$rebuild" >>"$RES"
				calibrate "$w" "$study" "$cell" sampled "$counts"
			done
		done
	done
done

python3 - "$RES" >"$OUT/table.md" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print("| workload | rate | phase | reading | predicted (interval) | realised (perturbed runs) | full best (perturbed runs) | share | realised / full best, as recorded | predicted / realised | rebuild |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for r in rows:
    if "robustShare" not in r:
        continue  # a row of the script before the perturbed runs: not comparable
    ok1 = "✓" if r["robustShare"] >= 0.95 else "✗"
    ok2 = "✓" if abs(r["predictedOverRealised"] - 1) <= 0.25 else "✗"
    mode = "rebuilt" if r["mode"] == "auto" else ("multiplied (--no-rebuild)" if r["mode"] == "off" else r["mode"])
    iv = "%.2f-%.2fx %s" % (r["predictedLo"], r["predictedHi"], "✓" if r["realisedInInterval"] else "✗") if "predictedLo" in r else "-"
    print("| %s | 1/%d | %d | %s | %.2fx (%s) | %.2fx | %.2fx | %.3f %s | %.2fx / %.2fx = %.3f | %.2f %s | %s |" % (
        r["workload"], r["every"], r["phase"], mode, r["predicted"], iv, r["realisedRobust"], r["fullBestRobust"],
        r["robustShare"], ok1, r["realised"], r["fullBest"], r["recommendationShare"], r["predictedOverRealised"], ok2, r["rebuild"]))
EOF
cat "$OUT/table.md"
python3 scripts/calibration_table.py table "$CAL" --title "Calibration, sampled exports and their full profiles (TRIALS=$TRIALS, seed $SEED; fresh again runs: $REPLICAS from seed $AGAIN_SEED)" >"$OUT/calibration.md"
cat "$OUT/calibration.md"
