package verify

import (
	"github.com/gctune/gctune/uncertainty"
)

// Comparison is how a configuration's measured speedup stands against the interval its
// prediction states for a further run (recommend.Robustness.SpeedupInterval).
type Comparison struct {
	// Predicted is the stated interval: a further run's speedup lies in it with probability
	// Predicted.Coverage.
	Predicted uncertainty.Interval `json:"predicted"`
	// Inside says whether the measured speedup (the estimate) lies in Predicted; Overlaps
	// whether the measured 95 % interval meets it (false without an interval).
	Inside   bool `json:"inside"`
	Overlaps bool `json:"overlaps"`
	// Side is "inside", "below" (measured slower than predicted) or "above".
	Side string `json:"side"`
}

// Compare states how the measured speedup sp stands against the predicted interval iv; nil
// when sp is nil.
func Compare(sp *Speedup, iv uncertainty.Interval) *Comparison {
	if sp == nil {
		return nil
	}
	c := &Comparison{Predicted: iv, Inside: iv.Contains(sp.Estimate), Side: "inside"}
	switch {
	case sp.Estimate < iv.Lo:
		c.Side = "below"
	case sp.Estimate > iv.Hi:
		c.Side = "above"
	}
	if sp.HasInterval() {
		c.Overlaps = sp.Low <= iv.Hi && sp.High >= iv.Lo
	}
	return c
}

// ComparePredicted sets, on each summary whose configuration has a predicted interval
// (Config.PredictedInterval), the comparison of its measured speedup with it.
func ComparePredicted(sums []ConfigSummary, configs []Config) {
	for i := range sums {
		for _, c := range configs {
			if c.Name == sums[i].Name && c.PredictedInterval != nil {
				iv := *c.PredictedInterval
				sums[i].PredictedInterval = &iv
				sums[i].Comparison = Compare(sums[i].Speedup, iv)
			}
		}
	}
}
