# Shell library of the benchmark scripts, sourced from the repository root
# (`. scripts/lib.sh`, after the script's cd there).

# run prints a command on stderr, then runs it.
run() {
	echo "+ $*" >&2
	"$@"
}

# sampler_env sets the environment of the sampler table that bench_samplers.sh writes and
# bench_seeding.sh reads back, each variable to its default unless set: WORKLOADS
# (comma-separated, the three dataframe-* workloads), SEEDS (1-10), TRIALS (200), PAR (Go
# studies at once, 2), OUT (results directory, /tmp/bench).
sampler_env() {
	WORKLOADS=${WORKLOADS:-dataframe-500mb,dataframe-1.6gb,dataframe-3.1gb}
	SEEDS=${SEEDS:-1-10}
	TRIALS=${TRIALS:-200}
	PAR=${PAR:-2}
	OUT=${OUT:-/tmp/bench}
}

# wname WORKLOAD: the name a benchmark script gives a workload's files and cells: a bundled
# workload's own name, or a spec or profile path's file name without its directory and
# extension (scripts/specs/job-queue.yaml: job-queue).
wname() {
	case $1 in
	*/* | *.yaml | *.yml | *.csv | *.gcprof)
		b=${1##*/}
		echo "${b%.*}"
		;;
	*) echo "$1" ;;
	esac
}
