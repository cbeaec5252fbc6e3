package recommend

import "github.com/gctune/gctune/uncertainty"

// Prediction is a robust recommendation's prediction as the JSON outputs state it (explain,
// studies show, verify and the report's data, --json): the expected figures over the
// perturbed runs with their intervals, and the single simulation of the profile beside them.
type Prediction struct {
	// Replicas is K, the perturbed runs the figures are stated over, reduced by Statistic.
	Replicas  int    `json:"replicas"`
	Statistic string `json:"statistic"`
	// ValueUnit is "s" (one workload: seconds) or "×" (a slowdown over the defaults).
	ValueUnit string `json:"valueUnit"`
	// Value, DefaultValue and Speedup are the expected figures (the statistic over the runs).
	Value        float64 `json:"value"`
	DefaultValue float64 `json:"defaultValue"`
	Speedup      float64 `json:"speedup"`
	// The intervals hold a further run with probability Coverage (absent when the runs give
	// none: KnownIntervals).
	ValueInterval   *uncertainty.Interval `json:"valueInterval,omitempty"`
	DefaultInterval *uncertainty.Interval `json:"defaultInterval,omitempty"`
	SpeedupInterval *uncertainty.Interval `json:"speedupInterval,omitempty"`
	// NominalValue and NominalSpeedup are the profiled run exactly as recorded (one simulation).
	NominalValue   float64 `json:"nominalValue"`
	NominalSpeedup float64 `json:"nominalSpeedup"`
	// Flat says every kept parameter survives a move of ±5 %; Margins say how far each may move
	// and Moves which were moved off a cliff or to a faster neighbour.
	Flat    bool     `json:"flat"`
	Margins []Margin `json:"margins,omitempty"`
	Moves   []Move   `json:"moves,omitempty"`
}

// Prediction is the recommendation's prediction, seconds saying whether its values are
// seconds (one workload) or slowdowns; nil when r is nil or was judged on the single
// simulation (its study has no uncertainty model).
func (r *Recommendation) Prediction(seconds bool) *Prediction {
	if r == nil || r.Robust == nil {
		return nil
	}
	rb := r.Robust
	d := &Prediction{Replicas: rb.Replicas, Statistic: rb.Statistic, ValueUnit: "×", Value: r.Value,
		DefaultValue: r.DefaultValue, Speedup: r.Speedup, NominalValue: rb.NominalValue, NominalSpeedup: rb.NominalSpeedup,
		Flat: rb.Flat, Margins: rb.Margins, Moves: rb.Moves}
	if seconds {
		d.ValueUnit = "s"
	}
	d.ValueInterval, d.DefaultInterval, d.SpeedupInterval = r.KnownIntervals()
	return d
}
