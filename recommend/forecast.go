package recommend

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/uncertainty"
)

// Forecast is what the recommendation promises for the runs of one scenario
// (uncertainty.Scenario): the expected figures and the intervals that hold a further run with
// probability uncertainty.DefaultCoverage, each computed once here and rendered as they are by
// every output.
type Forecast struct {
	// Scenario is the question the runs answer: "again" (this input again) or "like" (inputs
	// like this one); Replicas how many runs it is stated over.
	Scenario uncertainty.Scenario `json:"scenario"`
	Replicas int                  `json:"replicas"`
	// Assumes says, in words, what the scenario's runs vary beyond the profiled one.
	Assumes string `json:"assumes"`
	// Value, DefaultValue and Speedup are the expected figures: the statistic of the
	// recommendation's values and of the defaults' over the runs, and their ratio. Over the
	// readings of a sampled export, the value is the weighted mean slowdown (Readings), the
	// default 1.
	Value        float64 `json:"value"`
	DefaultValue float64 `json:"defaultValue"`
	Speedup      float64 `json:"speedup"`
	// Values, DefaultValues and Speedups are each run's (paired: the same run under both).
	Values        []float64 `json:"values"`
	DefaultValues []float64 `json:"defaultValues"`
	Speedups      []float64 `json:"speedups"`
	// The intervals, each a log-normal prediction interval widened to hold every run
	// (uncertainty.PredictionInterval), at one coverage.
	ValueInterval   uncertainty.Interval `json:"valueInterval"`
	DefaultInterval uncertainty.Interval `json:"defaultInterval"`
	SpeedupInterval uncertainty.Interval `json:"speedupInterval"`
}

// Reading is one reading of a sampled export (a hypothesis on what the export cannot record,
// objective.Workload.Run) as the forecast weighed it against the export's own counts.
type Reading struct {
	Name string `json:"name"`
	// Seconds and DefaultSeconds are the reading's mean run time under the recommendation and
	// under the defaults over the headline runs; Speedup their ratio.
	Seconds        float64 `json:"seconds"`
	DefaultSeconds float64 `json:"defaultSeconds"`
	Speedup        float64 `json:"speedup"`
	// Scavenges and FullGCs are the reading's mean counts at the defaults, compared with the
	// export's (Evidence).
	Scavenges float64 `json:"scavenges"`
	FullGCs   float64 `json:"fullGCs"`
	// Weight is the reading's share of the evidence, in [0, 1] (the weights sum to 1); Kept
	// whether the forecast stands on it (a share of at least MinReadingWeight).
	Weight float64 `json:"weight"`
	Kept   bool    `json:"kept"`
	// Bound marks a reading at the pessimistic end of what the export allows (the rebuild's
	// stored hypothesis, profile.Meta.Pessimistic): kept, it widens the interval, but the
	// expectation stands on the estimates beside it (unless every kept reading is a bound).
	Bound bool `json:"bound,omitempty"`
}

// Evidence is what the export said of its own run, and what the forecast made of it.
type Evidence struct {
	// Scavenges and FullGCs are the export's totalScavenges and totalFullGCs (0 and HasCounts
	// false when it gave none); ProfilerShare the profiler's own bytes over the application's,
	// which the profiled run allocated besides (docs/sampling.md).
	HasCounts     bool    `json:"hasCounts"`
	Scavenges     int     `json:"scavenges,omitempty"`
	FullGCs       int     `json:"fullGCs,omitempty"`
	ProfilerShare float64 `json:"profilerShare,omitempty"`
	// Agrees is false when no reading reproduces the counts: the forecast then stands on
	// every reading, equally weighted, and says so.
	Agrees bool `json:"agrees"`
	// Words say which readings survived and why, in one sentence.
	Words string `json:"words"`
}

// MinReadingWeight is the share of the evidence below which a reading is left out of the
// forecast: a reading whose default run reproduces the export's counts so much worse than
// another's that it is not a reading of this run.
const MinReadingWeight = 0.05

// errNoReplicas is returned when a forecast is asked of a problem without replicas.
var errNoReplicas = errors.New("recommend: a forecast needs replicas")

// runAll simulates params on every replica of prob (in parallel) and returns each replica's
// Result and its runs at the defaults.
func runAll(prob *objective.Problem, params heapsim.Params) ([]objective.Result, [][]heapsim.Stats, error) {
	k := prob.ReplicaCount()
	if k == 0 {
		return nil, nil, errNoReplicas
	}
	results := make([]objective.Result, k)
	defaults := make([][]heapsim.Stats, k)
	errs := make([]error, k)
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, parallelism()))
	for i := range k {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if results[i], errs[i] = prob.EvaluateReplica(params, i); errs[i] == nil {
				defaults[i], errs[i] = prob.ReplicaDefaults(i)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, nil, fmt.Errorf("recommend: %w", err)
	}
	return results, defaults, nil
}

// newForecast states results (each replica's run under the recommendation) against defaults
// (each replica's runs at the defaults), reduced by stat. weights, when not nil, are each
// workload's weight in the expectation as a reading of one run (readings): the values are then
// the weighted mean slowdown per run, and the intervals cover the runs of each reading kept.
func newForecast(scenario uncertainty.Scenario, results []objective.Result, defaults [][]heapsim.Stats, stat uncertainty.Statistic, weights []float64, kept []bool) Forecast {
	n := len(results)
	f := Forecast{Scenario: scenario, Replicas: n, Values: make([]float64, n), DefaultValues: make([]float64, n), Speedups: make([]float64, n)}
	for k, r := range results {
		switch {
		case weights != nil:
			var sum, wsum float64
			for i, s := range r.Slowdowns {
				sum += weights[i] * s
				wsum += weights[i]
			}
			f.Values[k], f.DefaultValues[k] = sum/wsum, 1
		case len(defaults[k]) == 1:
			f.Values[k], f.DefaultValues[k] = r.Stats[0].TotalSeconds, defaults[k][0].TotalSeconds
		default:
			// Several runs: the value is the aggregated slowdown, against 1.
			f.Values[k], f.DefaultValues[k] = r.Value, 1
		}
		f.Speedups[k] = f.DefaultValues[k] / f.Values[k]
	}
	f.Value, f.DefaultValue = stat.Reduce(f.Values), stat.Reduce(f.DefaultValues)
	f.Speedup = f.DefaultValue / f.Value
	cov := uncertainty.DefaultCoverage
	f.ValueInterval = uncertainty.PredictionInterval(f.Values, cov)
	f.DefaultInterval = uncertainty.PredictionInterval(f.DefaultValues, cov)
	f.SpeedupInterval = uncertainty.PredictionInterval(f.Speedups, cov)
	if weights != nil {
		// The run is one of the kept readings, not their mean: the interval covers each kept
		// reading's own runs (a reading's interval over its replicas), and their union is
		// stated.
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := range weights {
			if !kept[i] {
				continue
			}
			slow := make([]float64, n)
			for k, r := range results {
				slow[k] = r.Slowdowns[i]
			}
			iv := uncertainty.PredictionInterval(slow, cov)
			lo, hi = math.Min(lo, iv.Lo), math.Max(hi, iv.Hi)
		}
		lo, hi = math.Min(lo, f.ValueInterval.Lo), math.Max(hi, f.ValueInterval.Hi)
		f.ValueInterval.Lo, f.ValueInterval.Hi = lo, hi
		f.SpeedupInterval = uncertainty.Interval{Lo: 1 / hi, Hi: 1 / lo, Coverage: cov, N: n}
		f.DefaultInterval = uncertainty.Interval{Lo: 1, Hi: 1, Coverage: cov, N: n}
	}
	return f
}

// weighReadings weighs the readings of one run (every workload of prob, when they are
// readings of a sampled export) by how well each one's default runs on the replicas reproduce
// the export's own counts (uncertainty.CountWeight); nil weights when the workloads are not
// readings. The evidence says what survived.
func weighReadings(prob *objective.Problem, defaults [][]heapsim.Stats) ([]float64, []bool, []Reading, *Evidence) {
	ws := prob.Workloads()
	if len(ws) < 2 || prob.Runs() != 1 {
		return nil, nil, nil, nil
	}
	meta := ws[0].Profile.Meta
	// Every run scavenges: no scavenge count means the export gave no counts.
	ev := &Evidence{HasCounts: meta.ReportedScavenges > 0,
		Scavenges: meta.ReportedScavenges, FullGCs: meta.ReportedFullGCs, ProfilerShare: meta.ProfilerShare()}
	readings := make([]Reading, len(ws))
	raw := make([]float64, len(ws))
	for i, w := range ws {
		// The readings share the run's name: each is named by what it assumes.
		readings[i].Name = strings.TrimPrefix(w.Name, w.Run+", ")
		for _, d := range defaults {
			st := d[i]
			readings[i].Scavenges += float64(st.Scavenges) / float64(len(defaults))
			readings[i].FullGCs += float64(st.FullGCs) / float64(len(defaults))
			if ev.HasCounts {
				raw[i] += uncertainty.CountWeight(st.Scavenges, st.FullGCs, ev.Scavenges, ev.FullGCs, ev.ProfilerShare, ws[i].Profile.Meta.FullGCsFloor) / float64(len(defaults))
			}
		}
	}
	weights := make([]float64, len(ws))
	kept := make([]bool, len(ws))
	total := 0.0
	for _, v := range raw {
		total += v
	}
	ev.Agrees = ev.HasCounts && total > uncertainty.MinCountWeight
	estimates := 0.0
	for i, w := range ws {
		share := 1 / float64(len(ws))
		if ev.Agrees {
			share = raw[i] / total
		}
		readings[i].Weight, readings[i].Bound = share, w.Profile.Meta.Pessimistic
		readings[i].Kept = share >= MinReadingWeight
		kept[i] = readings[i].Kept
		if kept[i] && !readings[i].Bound {
			estimates += share
		}
	}
	// The expectation stands on the kept estimates; a kept bound only widens the interval.
	for i := range weights {
		switch {
		case !kept[i]:
		case estimates == 0:
			weights[i] = readings[i].Weight
		case !readings[i].Bound:
			weights[i] = readings[i].Weight / estimates
		}
	}
	ev.Words = evidenceWords(ev, readings)
	return weights, kept, readings, ev
}

// evidenceWords says which readings the forecast stands on and why.
func evidenceWords(ev *Evidence, rs []Reading) string {
	counts := func() string {
		var parts []string
		for _, r := range rs {
			parts = append(parts, fmt.Sprintf("%s %.0f and %.0f", r.Name, r.Scavenges, r.FullGCs))
		}
		return joinWords(parts)
	}
	switch {
	case !ev.HasCounts:
		return "the export gives no totalScavenges and totalFullGCs, so no reading can be told from another: the interval covers every reading and is wider for it (add the profiled run's counts to the export's JSON, pass --meta, or calibrate with a measured run: gctune calibrate)"
	case !ev.Agrees:
		return fmt.Sprintf("no reading reproduces the export's %d scavenges and %d full GCs (at the defaults: %s), so the interval covers every reading and is wider for it", ev.Scavenges, ev.FullGCs, counts())
	}
	var kept, dropped []string
	for _, r := range rs {
		if r.Kept {
			bound := ""
			if r.Bound {
				bound = "; a bound: it widens the interval, the expectation stands on the estimates"
			}
			kept = append(kept, fmt.Sprintf("%s (%.0f scavenges, %.0f full GCs at the defaults; weight %.0f %%%s)", r.Name, r.Scavenges, r.FullGCs, 100*r.Weight, bound))
		} else {
			dropped = append(dropped, fmt.Sprintf("%s (%.0f scavenges, %.0f full GCs)", r.Name, r.Scavenges, r.FullGCs))
		}
	}
	s := fmt.Sprintf("weighed against the export's %d scavenges and %d full GCs: it stands on %s", ev.Scavenges, ev.FullGCs, joinWords(kept))
	if len(dropped) > 0 {
		s += fmt.Sprintf("; left out, as contradicting them: %s", joinWords(dropped))
	}
	return s
}

// joinWords joins a list as prose: "a", "a and b", "a, b and c".
func joinWords(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// readingFigures fills each reading's seconds under the recommendation and the defaults from
// the headline runs.
func readingFigures(readings []Reading, results []objective.Result, defaults [][]heapsim.Stats) {
	for i := range readings {
		var secs, defs float64
		for k, r := range results {
			secs += r.Stats[i].TotalSeconds
			defs += defaults[k][i].TotalSeconds
		}
		readings[i].Seconds, readings[i].DefaultSeconds = secs/float64(len(results)), defs/float64(len(results))
		if readings[i].Seconds > 0 {
			readings[i].Speedup = readings[i].DefaultSeconds / readings[i].Seconds
		}
	}
}
