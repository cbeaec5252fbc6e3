package search_test

// Sampler and seeding benchmarks on the bundled DataFrame workloads (the "done when").
// Nothing here runs in the normal test run: the benchmarks run only when -bench selects them,
// and the consistency test only when BENCH_SAMPLERS_CHECK names a file.
//
// Sampler table (gctune's samplers; scripts/bench_samplers_optuna.py runs Python Optuna's on the
// same workloads and space, scripts/bench_samplers.sh runs both and merges the tables):
//
//	go test ./search -run '^$' -bench 'SamplersBundled' -benchtime 1x -timeout 0 -v
//
// Seeding (search.PlanSearch's seeds and constraints against the plain space, default sampler):
//
//	go test ./search -run '^$' -bench 'SeedingBundled' -benchtime 1x -timeout 0 -v
//
// Environment (all optional; the names avoid the GCTUNE_ prefix, which gctune's CLI reserves):
//
//	BENCH_SAMPLERS_WORKLOADS  comma-separated workloads (default the three dataframe-* ones)
//	BENCH_SAMPLERS_SAMPLERS   comma-separated samplers (default search.Samplers())
//	BENCH_SAMPLERS_SEEDS      seeds, e.g. "1-10" or "1,2,5" (default 1-10)
//	BENCH_SAMPLERS_TRIALS     trials per study (default 200)
//	BENCH_SAMPLERS_PAR        studies run at once (default 2, the machine's cores)
//	BENCH_SAMPLERS_OUT        JSON-lines file: one line per study is appended as soon as it
//	                          ends, and studies already in it are not run again (so the grid
//	                          can be run in pieces and resumed); the tables cover the whole
//	                          requested grid, read back from it
//	BENCH_SAMPLERS_EXTRA      comma-separated results files of other runs (the Python side's
//	                          scripts/bench_samplers_optuna.py --out) whose studies count
//	                          towards the seeding table's best known value
//
// Every study: one worker, an in-memory goptuna storage, search.Optimize with
// Settings{Trials, Workers: 1, Seed: seed, Sampler, Space}, objective.NewProblem on the one
// workload with heapsim.DefaultCost(), heapsim.DefaultParams() and objective.Settings{} (the
// value is the simulated total seconds). The plain runs use tunable.DefaultSpace() with nothing
// enqueued; the plan runs use search.PlanSearch(..., PlanOptions{})'s space and enqueue its
// seeds first (they count as trials).

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/internal/testfixture"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/tunable"
)

// bsCheckpoints are the trial counts the tables report: 50, 100 and 200 up to trials, and trials.
func bsCheckpoints(trials int) []int {
	var out []int
	for _, c := range []int{50, 100, 200} {
		if c < trials {
			out = append(out, c)
		}
	}
	return append(out, trials)
}

// bsRun is one study's record in BENCH_SAMPLERS_OUT (and in the Python side's results file).
type bsRun struct {
	Side     string  `json:"side"` // "gctune" or "optuna"
	Mode     string  `json:"mode"` // "plain" (DefaultSpace, nothing enqueued) or "plan"
	Workload string  `json:"workload"`
	Sampler  string  `json:"sampler"`
	Seed     int     `json:"seed"`
	Trials   int     `json:"trials"`
	Default  float64 `json:"defaultSeconds"`
	// Values holds each trial's value in number order (null for a failed trial).
	Values []*float64 `json:"values"`
	// Best holds the best value so far after each trial (Inf as null before the first).
	Best     []*float64     `json:"best"`
	Failed   int            `json:"failed"`
	FailMsgs []string       `json:"failures,omitempty"`
	Point    *tunable.Point `json:"bestPoint,omitempty"`
	Seconds  float64        `json:"wallSeconds"`
}

func (r bsRun) key() string {
	return fmt.Sprintf("%s/%s/%s/%s/%d/%d", r.Side, r.Mode, r.Workload, r.Sampler, r.Seed, r.Trials)
}

// bestAt is the best value after n trials (+Inf if none completed).
func (r bsRun) bestAt(n int) float64 {
	if n > len(r.Best) {
		n = len(r.Best)
	}
	if n == 0 || r.Best[n-1] == nil {
		return math.Inf(1)
	}
	return *r.Best[n-1]
}

// bsConfig is the grid the environment asks for.
type bsConfig struct {
	workloads, samplers []string
	seeds               []int
	trials, par         int
	out                 string
	extra               []string
}

func bsEnvList(name string, def []string) []string {
	v := strings.TrimSpace(os.Getenv(name))
	if v == "" {
		return def
	}
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func bsEnvInt(tb testing.TB, name string, def int) int {
	v := strings.TrimSpace(os.Getenv(name))
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		tb.Fatalf("%s=%q: want a positive integer", name, v)
	}
	return n
}

// bsParseSeeds reads "1-10", "3" or "1,2,7-9".
func bsParseSeeds(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("seeds %q: %w", s, err)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, fmt.Errorf("seeds %q: %w", s, err)
			}
		}
		for x := a; x <= b; x++ {
			out = append(out, x)
		}
	}
	return out, nil
}

func bsReadConfig(tb testing.TB) bsConfig {
	c := bsConfig{
		workloads: bsEnvList("BENCH_SAMPLERS_WORKLOADS", []string{"dataframe-500mb", "dataframe-1.6gb", "dataframe-3.1gb"}),
		samplers:  bsEnvList("BENCH_SAMPLERS_SAMPLERS", search.Samplers()),
		trials:    bsEnvInt(tb, "BENCH_SAMPLERS_TRIALS", 200),
		par:       bsEnvInt(tb, "BENCH_SAMPLERS_PAR", 2),
		out:       os.Getenv("BENCH_SAMPLERS_OUT"),
		extra:     bsEnvList("BENCH_SAMPLERS_EXTRA", nil),
	}
	seeds := os.Getenv("BENCH_SAMPLERS_SEEDS")
	if seeds == "" {
		seeds = "1-10"
	}
	var err error
	if c.seeds, err = bsParseSeeds(seeds); err != nil {
		tb.Fatal(err)
	}
	return c
}

// bsWorkload is an opened bundled workload: generated exactly as `gctune simulate` and
// `gctune optimize` do with the default configuration (workload.seed 1, the spec's own
// resolution).
type bsWorkload struct {
	name    string
	problem *objective.Problem
	summary *lifetimes.Summary
}

func bsOpen(tb testing.TB, name string) *bsWorkload {
	tb.Helper()
	w := testfixture.Bundled(tb, name)
	return &bsWorkload{name: name, problem: testfixture.Problem(tb, objective.Settings{}, w),
		summary: testfixture.Summary(tb, w)}
}

// bsStudy runs one study and returns its record.
func bsStudy(w *bsWorkload, mode, sampler string, seed, trials int) (bsRun, error) {
	run := bsRun{Side: "gctune", Mode: mode, Workload: w.name, Sampler: sampler, Seed: seed, Trials: trials,
		Default: w.problem.DefaultValue()}
	st := goptuna.NewInMemoryStorage()
	study, err := goptuna.CreateStudy("bench", goptuna.StudyOptionStorage(st), goptuna.StudyOptionLogger(nil))
	if err != nil {
		return run, err
	}
	space := tunable.DefaultSpace()
	if mode == "plan" {
		plan, err := search.PlanSearch([]*lifetimes.Summary{w.summary}, w.problem.Base(), space, search.PlanOptions{})
		if err != nil {
			return run, err
		}
		if err := search.Enqueue(study, plan.Seeds); err != nil {
			return run, err
		}
		space = plan.Space
	}
	start := time.Now()
	_, err = search.Optimize(context.Background(), st, "bench", w.problem,
		search.Settings{Trials: trials, Workers: 1, Seed: uint64(seed), Sampler: sampler, Space: space})
	run.Seconds = time.Since(start).Seconds()
	if err != nil {
		return run, err
	}
	all, err := st.GetAllTrials(study.ID)
	if err != nil {
		return run, err
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Number < all[j].Number })
	best := math.Inf(1)
	for _, t := range all {
		if t.State == goptuna.TrialStateComplete {
			v := t.Value
			run.Values = append(run.Values, &v)
			if v < best {
				best = v
				if p, err := tunable.PointFromParams(t.Params); err == nil {
					p = p.Rounded()
					run.Point = &p
				}
			}
		} else {
			run.Values = append(run.Values, nil)
			run.Failed++
			if len(run.FailMsgs) < 5 {
				run.FailMsgs = append(run.FailMsgs, fmt.Sprintf("trial %d %v: %s", t.Number, t.State, t.SystemAttrs["fail_reason"]))
			}
		}
		if math.IsInf(best, 1) {
			run.Best = append(run.Best, nil)
		} else {
			b := best
			run.Best = append(run.Best, &b)
		}
	}
	if len(all) != trials {
		return run, fmt.Errorf("study holds %d trials, want %d", len(all), trials)
	}
	return run, nil
}

// bsReadRuns reads a JSON-lines results file (missing file: none).
func bsReadRuns(path string) ([]bsRun, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	var runs []bsRun
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r bsRun
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		runs = append(runs, r)
	}
	return runs, sc.Err()
}

// bsRunGrid runs every (workload, sampler, seed) study of the grid not yet in the output file,
// par at a time, and returns all the grid's records.
func bsRunGrid(b *testing.B, c bsConfig, mode string) map[string]bsRun {
	done := map[string]bsRun{}
	old, err := bsReadRuns(c.out)
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range old {
		done[r.key()] = r
	}
	var out *os.File
	if c.out != "" {
		if out, err = os.OpenFile(c.out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err != nil {
			b.Fatal(err)
		}
		defer out.Close()
	}
	type job struct {
		w       *bsWorkload
		sampler string
		seed    int
	}
	var mu sync.Mutex
	var firstErr error
	for _, wname := range c.workloads {
		var jobs []job
		var w *bsWorkload
		for _, s := range c.samplers {
			for _, seed := range c.seeds {
				k := bsRun{Side: "gctune", Mode: mode, Workload: wname, Sampler: s, Seed: seed, Trials: c.trials}.key()
				if _, ok := done[k]; ok {
					continue
				}
				if w == nil {
					w = bsOpen(b, wname)
					fmt.Fprintf(os.Stderr, "bench: %s: default %.4g s\n", wname, w.problem.DefaultValue())
				}
				jobs = append(jobs, job{w, s, seed})
			}
		}
		ch := make(chan job)
		var wg sync.WaitGroup
		for range c.par {
			wg.Go(func() {
				for j := range ch {
					r, err := bsStudy(j.w, mode, j.sampler, j.seed, c.trials)
					mu.Lock()
					if err != nil {
						if firstErr == nil {
							firstErr = fmt.Errorf("%s %s seed %d: %w", j.w.name, j.sampler, j.seed, err)
						}
						mu.Unlock()
						continue
					}
					done[r.key()] = r
					if out != nil {
						line, _ := json.Marshal(r)
						if _, err := out.Write(append(line, '\n')); err != nil && firstErr == nil {
							firstErr = err
						}
					}
					fmt.Fprintf(os.Stderr, "bench: %s %s %s seed %d: best %.4g s (%.3gx) after %d trials, %d failed, %.0f s\n",
						mode, j.w.name, j.sampler, j.seed, r.bestAt(c.trials), r.Default/r.bestAt(c.trials), c.trials, r.Failed, r.Seconds)
					mu.Unlock()
				}
			})
		}
		for _, j := range jobs {
			ch <- j
		}
		close(ch)
		wg.Wait()
		if firstErr != nil {
			b.Fatal(firstErr)
		}
	}
	return done
}

// bsQuantile is the q-quantile with linear interpolation (numpy's default).
func bsQuantile(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(s)-1)
	i := int(math.Floor(pos))
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[i] + (pos-float64(i))*(s[i+1]-s[i])
}

// BenchmarkSamplersBundled: for each workload × sampler, the median (and interquartile range)
// over seeds of the best value after 50, 100 and 200 trials, as speedup over the defaults and
// in simulated seconds, logged as one Markdown table at the end. Run it once (-benchtime 1x).
func BenchmarkSamplersBundled(b *testing.B) {
	c := bsReadConfig(b)
	for _, s := range c.samplers {
		if !slices.Contains(search.Samplers(), s) {
			b.Fatalf("sampler %q: want one of %v", s, search.Samplers())
		}
	}
	var runs map[string]bsRun
	for b.Loop() {
		runs = bsRunGrid(b, c, "plain")
	}
	var t strings.Builder
	fmt.Fprintf(&t, "median best over seeds %v (%d trials, plain DefaultSpace, nothing enqueued): speedup over the defaults [IQR], and seconds\n\n", c.seeds, c.trials)
	t.WriteString("| workload | sampler |")
	for _, cp := range bsCheckpoints(c.trials) {
		fmt.Fprintf(&t, " @%d |", cp)
	}
	t.WriteString(" failed trials | wall s/study |\n| --- | --- |" + strings.Repeat(" --- |", len(bsCheckpoints(c.trials))+2) + "\n")
	for _, w := range c.workloads {
		for _, s := range c.samplers {
			var rs []bsRun
			for _, seed := range c.seeds {
				if r, ok := runs[bsRun{Side: "gctune", Mode: "plain", Workload: w, Sampler: s, Seed: seed, Trials: c.trials}.key()]; ok {
					rs = append(rs, r)
				}
			}
			if len(rs) == 0 {
				continue
			}
			fmt.Fprintf(&t, "| %s | %s |", w, s)
			failed, wall := 0, 0.0
			for _, cp := range bsCheckpoints(c.trials) {
				var secs, speed []float64
				for _, r := range rs {
					secs = append(secs, r.bestAt(cp))
					speed = append(speed, r.Default/r.bestAt(cp))
				}
				fmt.Fprintf(&t, " %.4fx [%.4f–%.4f] %.6g s |", bsQuantile(speed, 0.5), bsQuantile(speed, 0.25), bsQuantile(speed, 0.75), bsQuantile(secs, 0.5))
			}
			for _, r := range rs {
				failed += r.Failed
				wall += r.Seconds
			}
			fmt.Fprintf(&t, " %d | %.0f |\n", failed, wall/float64(len(rs)))
		}
	}
	b.Log("\n" + t.String())
}

// BenchmarkSeedingBundled: with the default sampler, the number of trials until the best so far
// is within 1 % of the best known value, with the plan's seeds and constraints and without
// them, for each workload and seed. The best known value is the best of every study in
// BENCH_SAMPLERS_OUT and BENCH_SAMPLERS_EXTRA (all samplers, both sides, both modes).
func BenchmarkSeedingBundled(b *testing.B) {
	c := bsReadConfig(b)
	c.samplers = []string{search.DefaultSampler}
	var plain, plan map[string]bsRun
	for b.Loop() {
		plain = bsRunGrid(b, c, "plain")
		plan = bsRunGrid(b, c, "plan")
	}
	best := map[string]float64{}
	var all []bsRun
	for _, f := range append([]string{c.out}, c.extra...) {
		rs, err := bsReadRuns(f)
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, rs...)
	}
	for _, m := range []map[string]bsRun{plain, plan} {
		for _, r := range m {
			all = append(all, r)
		}
	}
	for _, r := range all {
		v := r.bestAt(len(r.Best))
		if old, ok := best[r.Workload]; !ok || v < old {
			best[r.Workload] = v
		}
	}
	var t strings.Builder
	for _, tol := range []float64{0.01, 0.001} {
		fmt.Fprintf(&t, "trials until the best so far is within %g %% of the best known value (sampler %s, %d trials; %d+ = never; the plan's seeds count as trials)\n\n", 100*tol, search.DefaultSampler, c.trials, c.trials)
		t.WriteString("| workload | best known s | mode | median | per seed " + fmt.Sprint(c.seeds) + " | median best@10 s | @50 s | @" + strconv.Itoa(c.trials) + " s |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n")
		for _, w := range c.workloads {
			target := best[w] * (1 + tol)
			for _, m := range []struct {
				name string
				runs map[string]bsRun
				mode string
			}{{"plain (no seed, no constrain)", plain, "plain"}, {"plan (seeds + constraints)", plan, "plan"}} {
				var counts, b10, b50, bEnd []float64
				var per []string
				for _, seed := range c.seeds {
					r, ok := m.runs[bsRun{Side: "gctune", Mode: m.mode, Workload: w, Sampler: search.DefaultSampler, Seed: seed, Trials: c.trials}.key()]
					if !ok {
						per = append(per, "-")
						continue
					}
					n := c.trials + 1
					for i := range r.Best {
						if r.Best[i] != nil && *r.Best[i] <= target {
							n = i + 1
							break
						}
					}
					counts = append(counts, float64(n))
					b10 = append(b10, r.bestAt(10))
					b50 = append(b50, r.bestAt(50))
					bEnd = append(bEnd, r.bestAt(c.trials))
					per = append(per, bsTrialCount(n, c.trials))
				}
				med := bsQuantile(counts, 0.5)
				medS := strconv.FormatFloat(med, 'g', -1, 64)
				if med > float64(c.trials) {
					medS = bsTrialCount(int(med), c.trials)
				}
				fmt.Fprintf(&t, "| %s | %.6g | %s | %s | %s | %.6g | %.6g | %.6g |\n", w, best[w], m.name, medS, strings.Join(per, " "), bsQuantile(b10, 0.5), bsQuantile(b50, 0.5), bsQuantile(bEnd, 0.5))
			}
		}
		t.WriteString("\n")
	}
	b.Log("\n" + t.String())
}

// bsTrialCount prints a trial count, "200+" when it is past the budget.
func bsTrialCount(n, trials int) string {
	if n > trials {
		return strconv.Itoa(trials) + "+"
	}
	return strconv.Itoa(n)
}

// bsCheckPoint is one line of the file scripts/bench_samplers_optuna.py --check writes: a raw
// point, the script's rounding of it, and (for some) what `gctune simulate --batch` answered for
// the rounded point.
type bsCheckPoint struct {
	Workload string        `json:"workload"`
	Raw      tunable.Point `json:"raw"`
	Rounded  tunable.Point `json:"rounded"`
	// TotalSeconds is stats.totalSeconds from the batch command (absent: rounding only).
	TotalSeconds *float64 `json:"totalSeconds"`
	Error        string   `json:"error"`
}

// TestBenchSamplersMatchBatch checks that the Python side of the benchmark evaluates exactly
// what the Go side does: the script's rounding equals tunable.Point.Rounded bit for bit, and the
// batch command's total seconds for the rounded point equal the objective's value for
// point.Params(base) bit for bit. Runs only when BENCH_SAMPLERS_CHECK names the file written
// by `bench_samplers_optuna.py --check FILE`.
func TestBenchSamplersMatchBatch(t *testing.T) {
	path := os.Getenv("BENCH_SAMPLERS_CHECK")
	if path == "" {
		t.Skip("set BENCH_SAMPLERS_CHECK to the file written by scripts/bench_samplers_optuna.py --check")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	workloads := map[string]*bsWorkload{}
	rounded, evaluated := 0, 0
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var c bsCheckPoint
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if got := c.Raw.Rounded(); got != c.Rounded {
			t.Errorf("line %d: rounding of %+v: Go %+v, script %+v", i+1, c.Raw, got, c.Rounded)
		}
		rounded++
		if c.Error != "" {
			t.Errorf("line %d: batch error: %s", i+1, c.Error)
			continue
		}
		if c.TotalSeconds == nil {
			continue
		}
		w := workloads[c.Workload]
		if w == nil {
			w = bsOpen(t, c.Workload)
			workloads[c.Workload] = w
		}
		res, err := w.problem.Evaluate(c.Raw.Params(w.problem.Base()))
		if err != nil {
			t.Errorf("line %d: %v", i+1, err)
			continue
		}
		if res.Value != *c.TotalSeconds {
			t.Errorf("line %d: %s at %+v: objective %v s, batch %v s", i+1, c.Workload, c.Rounded, res.Value, *c.TotalSeconds)
		}
		evaluated++
	}
	t.Logf("%d roundings and %d evaluations compared", rounded, evaluated)
}
