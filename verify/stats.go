package verify

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gctune/gctune/costfit"
	"github.com/gctune/gctune/uncertainty"
)

// WildCV is the coefficient of variation (standard deviation over mean) of a configuration's
// run times above which its runs are called out as varying wildly.
const WildCV = 0.20

// Confidence is the level of the speedup interval.
const Confidence = 0.95

// Sample is one measured run as the statistics see it.
type Sample struct {
	Config string
	Trial  int
	// Round is the measured round; warm-ups (-1) are ignored.
	Round       int
	WallSeconds float64
	OK          bool
	// Measured holds the run's gctune-stats figures, when it printed them.
	Measured *costfit.Measured
	// PredictedSpeedup is the configuration's simulated speedup.
	PredictedSpeedup float64
}

// Speedup is a configuration's measured speedup over the defaults.
type Speedup struct {
	// Estimate is the geometric mean over rounds of default time / configuration time.
	Estimate float64 `json:"estimate"`
	// Low and High bound the 95 % t interval on the paired log ratios; set when Pairs ≥ 2.
	Low  float64 `json:"low,omitempty"`
	High float64 `json:"high,omitempty"`
	// Pairs is the number of rounds with a successful run of both.
	Pairs int `json:"pairs"`
}

// HasInterval reports whether the interval is known (two pairs or more).
func (s Speedup) HasInterval() bool { return s.Pairs >= 2 }

// ConfigSummary sums up one configuration's measured runs.
type ConfigSummary struct {
	Name  string `json:"name"`
	Trial int    `json:"trial"`
	// Runs counts its successful measured runs (warm-ups not counted).
	Runs          int     `json:"runs"`
	MeanSeconds   float64 `json:"meanSeconds"`
	MedianSeconds float64 `json:"medianSeconds"`
	SDSeconds     float64 `json:"sdSeconds"`
	// CV is SDSeconds / MeanSeconds; Wild is CV > WildCV.
	CV   float64 `json:"cv"`
	Wild bool    `json:"wild,omitempty"`
	// PredictedSpeedup is the simulated speedup over the defaults (1 for them).
	PredictedSpeedup float64 `json:"predictedSpeedup"`
	// Speedup is the measured speedup over the defaults (nil for the defaults).
	Speedup *Speedup `json:"speedup,omitempty"`
	// PredictedInterval is the interval the prediction states for a further run's speedup
	// (nil: the single simulation, no interval), and Comparison how the measured speedup
	// stands against it (ComparePredicted).
	PredictedInterval *uncertainty.Interval `json:"predictedInterval,omitempty"`
	Comparison        *Comparison           `json:"comparison,omitempty"`
	// Stats is the mean of the runs' gctune-stats figures, when every run printed them.
	Stats *costfit.Measured `json:"stats,omitempty"`
}

// Summarize sums up samples per configuration, in the order configurations first appear; the
// defaults (DefaultName) are the reference of every speedup.
func Summarize(samples []Sample) []ConfigSummary {
	var order []string
	by := map[string][]Sample{}
	for _, s := range samples {
		if _, ok := by[s.Config]; !ok {
			order = append(order, s.Config)
		}
		by[s.Config] = append(by[s.Config], s)
	}
	// The defaults first.
	if i := slices.Index(order, DefaultName); i > 0 {
		order = append([]string{DefaultName}, slices.Delete(order, i, i+1)...)
	}
	defRounds := map[int]float64{}
	for _, s := range by[DefaultName] {
		if s.OK && s.Round >= 0 {
			defRounds[s.Round] = s.WallSeconds
		}
	}
	var out []ConfigSummary
	for _, name := range order {
		ss := by[name]
		cs := ConfigSummary{Name: name, Trial: ss[0].Trial, PredictedSpeedup: ss[0].PredictedSpeedup}
		var walls []float64
		var measured []costfit.Measured
		allStats := true
		var logs []float64
		for _, s := range ss {
			if !s.OK || s.Round < 0 {
				continue
			}
			walls = append(walls, s.WallSeconds)
			if s.Measured != nil {
				measured = append(measured, *s.Measured)
			} else {
				allStats = false
			}
			if d, ok := defRounds[s.Round]; ok && name != DefaultName && d > 0 && s.WallSeconds > 0 {
				logs = append(logs, math.Log(d/s.WallSeconds))
			}
		}
		cs.Runs = len(walls)
		if cs.Runs > 0 {
			cs.MeanSeconds = stat.Mean(walls, nil)
			sorted := slices.Clone(walls)
			sort.Float64s(sorted)
			cs.MedianSeconds = stat.Quantile(0.5, stat.Empirical, sorted, nil)
			if cs.Runs > 1 {
				cs.SDSeconds = stat.StdDev(walls, nil)
			}
			if cs.MeanSeconds > 0 {
				cs.CV = cs.SDSeconds / cs.MeanSeconds
			}
			cs.Wild = cs.CV > WildCV
		}
		if allStats && len(measured) > 0 {
			cs.Stats = meanMeasured(measured)
		}
		if name != DefaultName && len(logs) > 0 {
			cs.Speedup = pairedSpeedup(logs)
		}
		out = append(out, cs)
	}
	return out
}

// pairedSpeedup is exp of the mean log ratio, with the t interval when there are two or more.
func pairedSpeedup(logs []float64) *Speedup {
	n := len(logs)
	mean := stat.Mean(logs, nil)
	sp := &Speedup{Estimate: math.Exp(mean), Pairs: n}
	if n >= 2 {
		se := stat.StdDev(logs, nil) / math.Sqrt(float64(n))
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(1 - (1-Confidence)/2)
		sp.Low, sp.High = math.Exp(mean-t*se), math.Exp(mean+t*se)
	}
	return sp
}

// meanMeasured averages the figures every run reported (a figure some runs lack is left out).
func meanMeasured(ms []costfit.Measured) *costfit.Measured {
	n := float64(len(ms))
	out := &costfit.Measured{}
	for _, m := range ms {
		out.WallSeconds += m.WallSeconds / n
	}
	same := func(v float64) float64 { return v }
	out.GCSeconds = meanOf(ms, func(m costfit.Measured) *float64 { return m.GCSeconds }, same)
	out.ScavengeSeconds = meanOf(ms, func(m costfit.Measured) *float64 { return m.ScavengeSeconds }, same)
	out.FullGCSeconds = meanOf(ms, func(m costfit.Measured) *float64 { return m.FullGCSeconds }, same)
	round := func(v float64) int64 { return int64(math.Round(v)) }
	out.Scavenges = meanOf(ms, func(m costfit.Measured) *int64 { return m.Scavenges }, round)
	out.FullGCs = meanOf(ms, func(m costfit.Measured) *int64 { return m.FullGCs }, round)
	return out
}

// meanOf is the mean of the figure get reads from every run, made a T by conv; nil when a run
// lacks it.
func meanOf[T int64 | float64](ms []costfit.Measured, get func(costfit.Measured) *T, conv func(float64) T) *T {
	var sum T
	for _, m := range ms {
		v := get(m)
		if v == nil {
			return nil
		}
		sum += *v
	}
	r := conv(float64(sum) / float64(len(ms)))
	return &r
}

// SamplesFromStored turns a study's stored runs into samples; runs of other sessions than
// session are left out (session "" keeps the latest session's).
func SamplesFromStored(runs []MeasuredRun, session string) (samples []Sample, used string) {
	if session == "" {
		for _, r := range runs {
			used = max(used, r.Session)
		}
	} else {
		used = session
	}
	for _, r := range runs {
		if r.Session != used {
			continue
		}
		s := Sample{Config: r.Config, Trial: r.Trial, Round: r.Round, WallSeconds: r.WallSeconds, OK: r.OK(), PredictedSpeedup: r.PredictedSpeedup}
		if len(r.Stats) > 0 {
			if m, err := costfit.ParseMeasured(bytesReader(r.Stats), "stored stats"); err == nil {
				s.Measured = &m
			}
		}
		samples = append(samples, s)
	}
	return samples, used
}

// StoredStats returns a run's gctune-stats JSON for storage (nil when it printed none).
func StoredStats(o Outcome) json.RawMessage {
	if o.Measured == nil || o.Stats == "" || !json.Valid([]byte(o.Stats)) {
		return nil
	}
	return json.RawMessage(o.Stats)
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
