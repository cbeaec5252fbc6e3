package uncertainty

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// Statistic reduces a configuration's K replica values to the one the search minimises and the
// recommendation compares: the mean (Quantile 0, the default: what a user gets on average), or
// a quantile for a user who would rather be sure (Quantile 0.9: nine runs in ten do at least
// this well).
type Statistic struct {
	// Quantile in (0, 1]; 0 = the mean.
	Quantile float64 `json:"quantile,omitempty"`
}

// ParseStatistic reads "mean", "max", or a quantile written "p90" or "0.9".
func ParseStatistic(s string) (Statistic, error) {
	t := strings.TrimSpace(s)
	switch t {
	case "mean":
		return Statistic{}, nil
	case "max":
		return Statistic{Quantile: 1}, nil
	}
	var q float64
	var err error
	if rest, ok := strings.CutPrefix(t, "p"); ok {
		q, err = strconv.ParseFloat(rest, 64)
		q /= 100
	} else {
		q, err = strconv.ParseFloat(t, 64)
	}
	if err != nil || math.IsNaN(q) || q <= 0 || q > 1 {
		return Statistic{}, fmt.Errorf("uncertainty: statistic %q: want mean, max, a percentile p1-p100 or a quantile in (0, 1]", s)
	}
	return Statistic{Quantile: q}, nil
}

// String is the statistic as ParseStatistic reads it.
func (s Statistic) String() string {
	switch {
	case s.Quantile == 0:
		return "mean"
	case s.Quantile == 1:
		return "max"
	}
	return "p" + strconv.FormatFloat(100*s.Quantile, 'g', 4, 64)
}

// Reduce returns the statistic of values (lower is better: seconds or slowdowns). The quantile
// is the order statistic at ceil(q·n) (no interpolation: a value some replica really took).
// NaN for no values.
func (s Statistic) Reduce(values []float64) float64 {
	if len(values) == 0 {
		return math.NaN()
	}
	if s.Quantile == 0 {
		var sum float64
		for _, v := range values {
			sum += v
		}
		return sum / float64(len(values))
	}
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	k := int(math.Ceil(s.Quantile*float64(len(sorted)))) - 1
	return sorted[min(max(k, 0), len(sorted)-1)]
}

// DefaultCoverage is the share of a user's runs every stated interval is meant to hold: 95 %.
// One coverage for every interval gctune states (the recommendation's run time, the defaults',
// the speedup), so that one label is true of each. Not 99.9 % any more: that label asked the
// interval to hold nearly every run, and with it the forecast of a full profile spanned 1.5x
// where repeated runs of one input agree within 7 %; at 95 % a user's runs fall outside one time
// in twenty, which bench_robust's calibration table checks (docs/search.md, "Two questions").
const DefaultCoverage = 0.95

// Interval is the range a user's runs are expected to fall in.
type Interval struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
	// Coverage is the share of runs it is meant to hold; N the replicas it was computed from.
	Coverage float64 `json:"coverage"`
	N        int     `json:"n"`
}

// PredictionInterval returns the range that holds a further run with probability coverage,
// from n replica values taken as log-normal (values are positive: seconds, slowdowns,
// speedups): exp(m ± t·s·√(1 + 1/n)) with m, s the mean and standard deviation of the logs and
// t Student's quantile with n − 1 degrees of freedom, widened to hold every replica value. With
// one value it is that value. Non-positive values give the empty interval {NaN, NaN}.
func PredictionInterval(values []float64, coverage float64) Interval {
	iv := Interval{Lo: math.NaN(), Hi: math.NaN(), Coverage: coverage, N: len(values)}
	if len(values) == 0 || !(coverage > 0 && coverage < 1) {
		return iv
	}
	logs := make([]float64, len(values))
	var sum float64
	for i, v := range values {
		if !(v > 0) || math.IsInf(v, 0) {
			return iv
		}
		logs[i] = math.Log(v)
		sum += logs[i]
	}
	n := float64(len(logs))
	mean := sum / n
	lo, hi := slices.Min(values), slices.Max(values)
	if len(logs) > 1 {
		var ss float64
		for _, l := range logs {
			ss += (l - mean) * (l - mean)
		}
		sd := math.Sqrt(ss / (n - 1))
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile((1 + coverage) / 2)
		half := t * sd * math.Sqrt(1+1/n)
		lo, hi = min(lo, math.Exp(mean-half)), max(hi, math.Exp(mean+half))
	}
	iv.Lo, iv.Hi = lo, hi
	return iv
}

// RangeInterval is the range of the values, stated for what it holds: a further run falls
// within the range of n exchangeable runs with probability (n − 1)/(n + 1), whatever their
// distribution. For values that need not be log-normal: the defaults' run time and the paired
// speedups, where the defaults sit on a cliff (on dataframe-3.1gb a run that allocates 2 %
// more takes a third of the time at the defaults), and a parametric interval would claim what
// it cannot. Non-finite or no values give the empty interval {NaN, NaN}.
func RangeInterval(values []float64) Interval {
	iv := Interval{Lo: math.NaN(), Hi: math.NaN(), N: len(values)}
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return iv
		}
	}
	if len(values) == 0 {
		return iv
	}
	n := float64(len(values))
	iv.Lo, iv.Hi, iv.Coverage = slices.Min(values), slices.Max(values), (n-1)/(n+1)
	return iv
}

// Contains reports whether v lies in the interval.
func (iv Interval) Contains(v float64) bool { return v >= iv.Lo && v <= iv.Hi }

// Invert returns the interval of 1/x: a run-time interval as a speedup interval (against a
// fixed reference, scale it after).
func (iv Interval) Invert() Interval {
	return Interval{Lo: 1 / iv.Hi, Hi: 1 / iv.Lo, Coverage: iv.Coverage, N: iv.N}
}

// Known reports whether both ends are finite numbers (JSON has no NaN; an interval the runs
// could not give has NaN ends).
func (iv Interval) Known() bool {
	return !math.IsNaN(iv.Lo) && !math.IsNaN(iv.Hi) && !math.IsInf(iv.Lo, 0) && !math.IsInf(iv.Hi, 0)
}
