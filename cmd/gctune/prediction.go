package main

import (
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/uncertainty"
)

// predictionDoc is a robust recommendation's prediction as explain, studies show and verify
// state it (--json): the expected figures over the perturbed runs with their intervals, and the
// single simulation of the profile beside them.
type predictionDoc struct {
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
	// none).
	ValueInterval   *uncertainty.Interval `json:"valueInterval,omitempty"`
	DefaultInterval *uncertainty.Interval `json:"defaultInterval,omitempty"`
	SpeedupInterval *uncertainty.Interval `json:"speedupInterval,omitempty"`
	// NominalValue and NominalSpeedup are the profiled run exactly as recorded (one simulation).
	NominalValue   float64 `json:"nominalValue"`
	NominalSpeedup float64 `json:"nominalSpeedup"`
	// Flat says every kept parameter survives a move of ±5 %; Margins say how far each may move
	// and Moves which were moved off a cliff or to a faster neighbour.
	Flat    bool               `json:"flat"`
	Margins []recommend.Margin `json:"margins,omitempty"`
	Moves   []recommend.Move   `json:"moves,omitempty"`
}

// newPredictionDoc is rec's prediction; nil when rec is nil or was judged on the single
// simulation (its study has no uncertainty model).
func newPredictionDoc(rec *recommend.Recommendation, seconds bool) *predictionDoc {
	if rec == nil || rec.Robust == nil {
		return nil
	}
	rb := rec.Robust
	d := &predictionDoc{Replicas: rb.Replicas, Statistic: rb.Statistic, ValueUnit: "×", Value: rec.Value,
		DefaultValue: rec.DefaultValue, Speedup: rec.Speedup, NominalValue: rb.NominalValue, NominalSpeedup: rb.NominalSpeedup,
		Flat: rb.Flat, Margins: rb.Margins, Moves: rb.Moves}
	if seconds {
		d.ValueUnit = "s"
	}
	d.ValueInterval, d.DefaultInterval, d.SpeedupInterval = rec.KnownIntervals()
	return d
}
