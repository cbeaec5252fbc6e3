package report

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/verify"
)

// Input is what a report is built from: the study's problem and trials.
type Input struct {
	// Study names the study; Version is the gctune version building the report.
	Study   string
	Version string
	// Problem is the study's objective over its workloads (its cost model, VM facts, budget).
	Problem *objective.Problem
	// Space is the range each parameter is swept over for the sensitivity figure: the space
	// the study was configured with (wider than a constrained plan's, so the sweep shows why
	// the constraint is there).
	Space tunable.Space
	// Trials are the study's trials, in any order.
	Trials []goptuna.FrozenTrial
	// Trial is the number of the trial to report on as "best"; -1 means the best feasible
	// trial (trialattr.Best).
	Trial int
	// Analysis sets the long-lived threshold of the workload summaries.
	Analysis lifetimes.AnalysisOptions
	// Measured are the runs gctune verify stored in the study (measured.go).
	Measured []verify.MeasuredRun
	// Profiles says how each workload's profile was read, by workload index (nil or shorter:
	// nothing to say). The workload section shows it.
	Profiles []ProfileInfo
	// Tolerance is the recommendation's (recommend.Settings.Tolerance) when Trial < 0: the
	// report is then on the recommended configuration, not the fastest trial.
	Tolerance float64
	// Recommendation, when set (Trial < 0), is the study's recommendation as stored with it,
	// made for these trials and this tolerance: Build uses it instead of making it again.
	Recommendation *recommend.Recommendation
	// Export carries the provenance the Apply section's script states (storage, versions);
	// Study, Workloads, VM and DefaultValue are filled from the problem when empty.
	Export export.Meta
}

// ProfileInfo says how a workload's profile was read: the one line the commands print (for a
// FiLiP export the exporter's era, layout, clock and why, sampling rate) and notes such as
// the profiled run's GC counts beside the simulated default run, or the reader's warnings.
type ProfileInfo struct {
	Line  string   `json:"line"`
	Notes []string `json:"notes,omitempty"`
}

// Options tune how much a report simulates.
type Options struct {
	// SweepPoints is the number of grid points per parameter in the sensitivity sweeps
	// (≥ 3; 0 means DefaultSweepPoints). The best's and the default's values are added to them.
	SweepPoints int
	// Workers is how many simulations run at once (0: GOMAXPROCS).
	Workers int
	// LivePoints is the number of samples of the live-bytes curve (0: DefaultLivePoints).
	LivePoints int
	// Progress, when not nil, is told after each simulation how many of the simulations
	// announced so far are done (total grows as each phase starts). Calls are serialised.
	Progress func(done, total int)
}

// Defaults of Options.
const (
	// DefaultSweepPoints gives 21 grid points per parameter: on the default space's log axes
	// that is a step of about ×1.3 to ×1.6 in the sizes, fine enough to place a cliff within
	// one step, and 5 × 23 simulations in all (about 10 s on dataframe-3.1gb on 2 cores).
	DefaultSweepPoints = 21
	// DefaultLivePoints samples the live-bytes curve 400 times over the run: finer than a
	// figure's pixels.
	DefaultLivePoints = 400
)

// Validate checks the options, naming the bad field.
func (o Options) Validate() error {
	if o.SweepPoints != 0 && (o.SweepPoints < 3 || o.SweepPoints > 1000) {
		return fmt.Errorf("report: SweepPoints %d is not in [3, 1000]", o.SweepPoints)
	}
	if o.Workers < 0 {
		return fmt.Errorf("report: Workers %d is negative", o.Workers)
	}
	if o.LivePoints < 0 || o.LivePoints > 100000 {
		return fmt.Errorf("report: LivePoints %d is not in [0, 100000]", o.LivePoints)
	}
	return nil
}

func (o Options) withDefaults() Options {
	if o.SweepPoints == 0 {
		o.SweepPoints = DefaultSweepPoints
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.LivePoints == 0 {
		o.LivePoints = DefaultLivePoints
	}
	return o
}

// ErrNoBestTrial is returned when the study has no complete, feasible trial to report on.
var ErrNoBestTrial = errors.New("report: the study has no complete feasible trial yet")

// Build simulates what the report shows: the workloads' lifetime analysis, the search's
// trials, a sensitivity sweep per parameter around the best trial, the default and the best
// run with their event logs, and the diagnosis. It is deterministic: the same input gives
// the same Report.
func Build(ctx context.Context, in Input, opts Options) (*Report, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	if in.Problem == nil {
		return nil, errors.New("report: no problem")
	}
	if err := in.Space.Validate(); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	srch, err := searchData(in.Problem, in.Trials, in.Trial)
	if err != nil {
		return nil, err
	}
	r := &Report{Study: in.Study, Version: in.Version, Search: srch, Measured: MeasuredFrom(in.Measured)}
	// Every simulation below runs on one pool of opts.Workers. The default runs do not depend
	// on the reported configuration: they start while the recommendation is chosen.
	p := diagnose.NewPool(opts.Workers, opts.Progress)
	ctx, cancel := context.WithCancel(ctx)
	defaults := diagnose.StartDefaultRuns(ctx, in.Problem, p)
	defer func() {
		cancel()
		_ = defaults.Wait() // no simulation outlives Build
	}()
	if in.Trial < 0 {
		p.Hold(func() { r.Recommendation, err = recommendation(ctx, in) })
		if err != nil {
			return nil, err
		}
		rec := r.Recommendation
		srch.Best = Trial{Number: rec.Trial, State: "complete", Value: rec.Value, Feasible: true,
			PeakFootprintBytes: rec.PeakFootprintBytes, Point: rec.Point}
		r.Search = srch
	}
	if r.Apply, err = applyData(in, r.Recommendation); err != nil {
		return nil, err
	}
	// The sensitivity sweeps and the diagnosis are independent: they share the pool, and the
	// workloads' lifetime analysis below runs beside them.
	var sweeps []diagnose.Sweep
	var sweepErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sweeps, sweepErr = diagnose.Sensitivity(ctx, in.Problem, in.Space, srch.Best.Point, opts.SweepPoints, p)
	}()
	// So is the landscape around the recommendation (diagnose/holds.go).
	var holdsErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.Holds, holdsErr = diagnose.JudgeLandscape(ctx, in.Problem, r.Recommendation, p)
	}()
	// And the allocation sites' pretenuring advice (sites.go), whose simulations run one after
	// another: on one of the pool's slots beside the others rather than after them (on
	// dataframe-3.1gb a fifth of the report's CPU).
	var sitesErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.Hold(func() {
			if sitesErr = ctx.Err(); sitesErr == nil { // not started once the report failed
				sitesErr = buildSites(r, in.Problem, r.Recommendation)
			}
		})
	}()
	for i, w := range in.Problem.Workloads() {
		wl, err := workloadData(w, in.Analysis)
		if err != nil {
			cancel()
			wg.Wait()
			return nil, err
		}
		if i < len(in.Profiles) {
			wl.Profile = &in.Profiles[i]
		}
		r.Workloads = append(r.Workloads, wl)
	}
	diag, runs, err := diagnose.DiagnoseRuns(ctx, in.Problem, srch.Best.Point, srch.ValueLabel, p, defaults)
	if err != nil {
		cancel()
		wg.Wait()
		return nil, err
	}
	r.Diagnosis = diag
	for i, w := range in.Problem.Workloads() {
		clocks, live, err := lifetimes.LiveCurve(w.Profile, opts.LivePoints)
		if err != nil {
			cancel()
			wg.Wait()
			return nil, fmt.Errorf("report: workload %s: %w", w.Name, err)
		}
		c := Comparison{Workload: w.Name, EndBytes: w.Profile.Meta.EndBytes, Default: runs[i][0], Best: runs[i][1]}
		for k := range clocks {
			c.Live = append(c.Live, LivePoint{ClockBytes: clocks[k], LiveBytes: live[k]})
		}
		r.Comparisons = append(r.Comparisons, c)
	}
	wg.Wait()
	if sweepErr != nil {
		return nil, sweepErr
	}
	r.Sensitivity = sweeps
	if sitesErr != nil {
		return nil, sitesErr
	}
	if holdsErr != nil {
		return nil, holdsErr
	}
	measuredAgainstPrediction(r.Measured, r.Recommendation)
	return r, nil
}

// searchData turns the study's trials into the report's.
func searchData(p *objective.Problem, trials []goptuna.FrozenTrial, trial int) (Search, error) {
	s := Search{ValueLabel: diagnose.ValueLabel(p), DefaultValue: p.DefaultValue(), DefaultPoint: tunable.DefaultPoint(p.Base()),
		MaxFootprintBytes: p.Settings().MaxFootprintBytes}
	for i := range p.Workloads() {
		s.DefaultFootprintBytes = max(s.DefaultFootprintBytes, p.Baseline(i).PeakFootprintBytes)
	}
	sorted := slices.Clone(trials)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Number < sorted[j].Number })
	for _, t := range sorted {
		tr, ok := trialData(t)
		if ok {
			s.Trials = append(s.Trials, tr)
		}
	}
	best, err := SelectTrial(sorted, trial)
	if err != nil {
		return s, err
	}
	s.Best = best
	for _, t := range trialattr.ParetoFront(sorted, trialattr.Footprint) {
		if tr, ok := trialData(t); ok {
			s.Pareto = append(s.Pareto, tr)
		}
	}
	sort.SliceStable(s.Pareto, func(i, j int) bool { return s.Pareto[i].PeakFootprintBytes < s.Pareto[j].PeakFootprintBytes })
	return s, nil
}

// SelectTrial returns trial number n of trials, which must be complete, or the best feasible
// trial when n < 0 (ErrNoBestTrial when there is none), with its point Rounded as gctune export
// writes it and the simulator runs it.
func SelectTrial(trials []goptuna.FrozenTrial, n int) (Trial, error) {
	var t goptuna.FrozenTrial
	if n < 0 {
		var ok bool
		if t, ok = trialattr.Best(trials); !ok {
			return Trial{}, ErrNoBestTrial
		}
	} else {
		var err error
		if t, err = trialattr.Find(trials, n); err != nil {
			return Trial{}, fmt.Errorf("report: %w", err)
		}
	}
	tr, ok := trialData(t)
	if !ok {
		return Trial{}, fmt.Errorf("report: trial %d has no parameters", t.Number)
	}
	// The configuration as simulated and exported: sizes in whole MiB, the ratio to 4 digits.
	tr.Point = tr.Point.Rounded()
	return tr, nil
}

// trialData converts one trial; false for a trial with no complete set of parameters (a
// waiting trial, or one that failed before suggesting).
func trialData(t goptuna.FrozenTrial) (Trial, bool) {
	pt, err := tunable.PointFromParams(t.Params)
	if err != nil {
		return Trial{}, false
	}
	tr := Trial{Number: t.Number, State: stateName(t.State), Value: t.Value, Point: pt,
		Feasible: t.State == goptuna.TrialStateComplete && !trialattr.Infeasible(t)}
	if m := trialattr.TrialMetrics(t); m.HasFootprint {
		tr.PeakFootprintBytes = m.PeakFootprintBytes
	}
	if t.State != goptuna.TrialStateComplete {
		tr.Value = math.NaN()
	}
	return tr, true
}

func stateName(s goptuna.TrialState) string {
	switch s {
	case goptuna.TrialStateComplete:
		return "complete"
	case goptuna.TrialStateFail:
		return "fail"
	case goptuna.TrialStatePruned:
		return "pruned"
	case goptuna.TrialStateRunning:
		return "running"
	case goptuna.TrialStateWaiting:
		return "waiting"
	}
	return "unknown"
}

// workloadData analyses one workload's lifetimes.
func workloadData(w objective.Workload, ao lifetimes.AnalysisOptions) (Workload, error) {
	sum, err := lifetimes.Summarize(w.Profile, ao)
	if err != nil {
		return Workload{}, fmt.Errorf("report: workload %s: %w", w.Name, err)
	}
	lin, err := lifetimes.LifetimeHistogram(w.Profile, lifetimes.HistogramOptions{Scale: lifetimes.LinearScale})
	if err != nil {
		return Workload{}, fmt.Errorf("report: workload %s: %w", w.Name, err)
	}
	lg, err := lifetimes.LifetimeHistogram(w.Profile, lifetimes.HistogramOptions{Scale: lifetimes.LogScale})
	if err != nil {
		return Workload{}, fmt.Errorf("report: workload %s: %w", w.Name, err)
	}
	return Workload{Name: w.Name, Summary: sum, Linear: lin, Log: lg}, nil
}
