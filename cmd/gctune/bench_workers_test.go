package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/tunable"
)

// TestBenchWorkers measures the throughput of worker processes on one study: for each storage
// (SQLite, PostgreSQL), workload and number of workers, it creates a study, starts that many
// `gctune worker --workers 1` processes and reports trials per second from the first trial's
// start to the last one's end (process start-up aside), beside the time one evaluation of the
// workload takes (the simulator alone, in this process, on parameters the study tried) and
// the time a trial takes from creation to completion (sampler, simulation and its writes).
// It is a measurement, not a test: it runs only with BENCH_WORKERS=1 (scripts/bench_workers.sh),
// and prints a Markdown table.
//
//	BENCH_WORKERS=1 BENCH_WORKERS_WORKLOADS=testdata/gcdemo.yaml,dataframe-500mb \
//	  BENCH_WORKERS_TRIALS=200 BENCH_WORKERS_COUNTS=1,2,4 BENCH_WORKERS_STORAGE=sqlite,postgres \
//	  BENCH_WORKERS_REPEAT=3 \
//	  go test ./cmd/gctune -run '^TestBenchWorkers$' -v -timeout 0
func TestBenchWorkers(t *testing.T) {
	if os.Getenv("BENCH_WORKERS") != "1" {
		t.Skip("a measurement: set BENCH_WORKERS=1 (scripts/bench_workers.sh)")
	}
	workloads := benchList("BENCH_WORKERS_WORKLOADS", "testdata/gcdemo.yaml,dataframe-500mb")
	storages := benchList("BENCH_WORKERS_STORAGE", "sqlite,postgres")
	trials, _ := strconv.Atoi(benchEnv("BENCH_WORKERS_TRIALS", "200"))
	repeat, _ := strconv.Atoi(benchEnv("BENCH_WORKERS_REPEAT", "1"))
	repeat = max(repeat, 1)
	var counts []int
	for _, c := range benchList("BENCH_WORKERS_COUNTS", "1,2,4") {
		n, err := strconv.Atoi(c)
		require.NoError(t, err)
		counts = append(counts, n)
	}
	before := loadAvg()
	rows := []string{
		fmt.Sprintf("%d cores (GOMAXPROCS %d), %d trials per study, one goroutine per worker process, median of %d runs", runtime.NumCPU(), runtime.GOMAXPROCS(0), trials, repeat),
		"",
		"| storage | workload | workers | trials/s, median (all runs) | speedup | evaluation (simulator) | trial (create to complete) | between trials | worker CPU per trial | server CPU per trial |",
		"| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
	}
	for _, storage := range storages {
		var be backend
		switch storage {
		case "sqlite":
			be = sqliteBackend()
		case "postgres":
			be = postgresBackend(t)
		default:
			t.Fatalf("BENCH_WORKERS_STORAGE: unknown %q", storage)
		}
		for _, wl := range workloads {
			base := 0.0
			for _, n := range counts {
				// The median run by throughput, of BENCH_WORKERS_REPEAT.
				var runs []benchResult
				for range repeat {
					runs = append(runs, benchWorkersOnce(t, be, be.fresh(t), wl, trials, n))
				}
				slices.SortFunc(runs, func(a, b benchResult) int { return cmpFloat(a.perSecond, b.perSecond) })
				r := runs[len(runs)/2]
				var all []string
				for _, x := range runs {
					all = append(all, fmt.Sprintf("%.1f", x.perSecond))
				}
				if n == counts[0] {
					base = r.perSecond / float64(n)
				}
				server := "(in the worker)"
				if be.srv != nil {
					server = ms(r.serverCPU)
				}
				rows = append(rows, fmt.Sprintf("| %s | %s | %d | %.1f (%s) | %.2fx | %s | %s | %s | %s | %s |", storage, wl, n, r.perSecond,
					strings.Join(all, ", "), r.perSecond/base, ms(r.eval), ms(r.trial), ms(r.gap), ms(r.cpu), server))
				t.Log(rows[len(rows)-1])
			}
		}
	}
	rows = append(rows, "", "load average before: "+before+", after: "+loadAvg())
	fmt.Println(strings.Join(rows, "\n"))
}

type benchResult struct {
	perSecond float64
	eval      time.Duration // one simulation
	trial     time.Duration // mean start-to-complete of a trial
	gap       time.Duration // mean time a worker spends between its trials
	cpu       time.Duration // worker processes' CPU per trial
	serverCPU time.Duration // PostgreSQL's CPU per trial
}

func benchWorkersOnce(t *testing.T, be backend, url, workload string, trials, workers int) benchResult {
	// --no-seed: no enqueued trial, whose start time would be its enqueueing.
	createStudyT(t, url, "bench", workload, "--trials", itoa(trials), "--no-seed")
	serverBefore := serverCPU(t, be)
	var ps []*proc
	for range workers {
		ps = append(ps, startProc(t, nil, "worker", "--study", "bench", "--storage", url, "--workers", "1", "-q"))
	}
	var cpu time.Duration
	for _, p := range ps {
		require.Equal(t, 0, p.wait(t, time.Hour), "stderr: %s", p.stderr)
		cpu += p.cmd.ProcessState.UserTime() + p.cmd.ProcessState.SystemTime()
	}
	time.Sleep(300 * time.Millisecond) // the workers' server processes exit and are accounted
	serverUsed := serverCPU(t, be) - serverBefore
	all := readTrials(t, url, "bench")
	var done []goptuna.FrozenTrial
	first, last := time.Time{}, time.Time{}
	var busy time.Duration
	for _, tr := range all {
		if tr.State != goptuna.TrialStateComplete {
			continue
		}
		done = append(done, tr)
		if first.IsZero() || tr.DatetimeStart.Before(first) {
			first = tr.DatetimeStart
		}
		if tr.DatetimeComplete.After(last) {
			last = tr.DatetimeComplete
		}
		busy += tr.DatetimeComplete.Sub(tr.DatetimeStart)
	}
	require.NotEmpty(t, done)
	span := last.Sub(first)
	n := len(done)
	r := benchResult{
		perSecond: float64(n) / span.Seconds(),
		trial:     busy / time.Duration(n),
		cpu:       cpu / time.Duration(n),
		serverCPU: serverUsed / time.Duration(n),
	}
	// Between trials: each worker's share of the span not spent inside a trial (reading the
	// study, creating the next trial).
	r.gap = max(0, (span*time.Duration(workers)-busy)/time.Duration(n))
	r.eval = evalTime(t, url, done)
	return r
}

// evalTime times the simulation of up to 20 of the study's trials, in this process.
func evalTime(t *testing.T, url string, trials []goptuna.FrozenTrial) time.Duration {
	store, _, sp, err := openStudy(t.Context(), url, "bench", false)
	require.NoError(t, err)
	defer store.Close()
	prob, err := sp.ReopenObjective(study.ReopenOptions{PreferStored: true, Worker: true, LongLivedThreshold: defaultConfig().Lifetimes.LongLivedThreshold})
	require.NoError(t, err)
	step := max(1, len(trials)/20)
	var times []time.Duration
	for i := 0; i < len(trials); i += step {
		p, err := tunable.PointFromParams(trials[i].Params)
		require.NoError(t, err)
		p = p.Rounded()
		began := time.Now()
		_, err = prob.Evaluate(p.Params(prob.Base()))
		times = append(times, time.Since(began))
		require.NoError(t, err)
	}
	slices.Sort(times)
	return times[len(times)/2]
}

// serverCPU returns the CPU time the PostgreSQL server has used: its postmaster's own and that
// of its exited children (the backends of connections that closed), from /proc. Zero for
// SQLite or where /proc cannot tell.
func serverCPU(t *testing.T, be backend) time.Duration {
	if be.srv == nil {
		return 0
	}
	pidFile, err := os.ReadFile(filepath.Join(be.srv.Dir(), "data", "postmaster.pid"))
	if err != nil {
		return 0
	}
	pid := strings.SplitN(string(pidFile), "\n", 2)[0]
	stat, err := os.ReadFile("/proc/" + strings.TrimSpace(pid) + "/stat")
	if err != nil {
		return 0
	}
	// Fields after the command's closing parenthesis: state is field 3; utime, stime, cutime
	// and cstime are fields 14-17, in clock ticks (100 per second on Linux).
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	var ticks int64
	for _, f := range fields[11:15] {
		v, err := strconv.ParseInt(f, 10, 64)
		require.NoError(t, err)
		ticks += v
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}

// loadAvg returns the 1, 5 and 15 minute load averages, from /proc.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func benchEnv(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func benchList(key, def string) []string {
	return strings.Split(benchEnv(key, def), ",")
}

func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	if v < 10 {
		return fmt.Sprintf("%.2f ms", v)
	}
	return fmt.Sprintf("%.0f ms", math.Round(v))
}
