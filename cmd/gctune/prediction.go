package main

import (
	"fmt"
	"math"

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
	d.ValueInterval, d.DefaultInterval, d.SpeedupInterval = knownInterval(rb.ValueInterval), knownInterval(rb.DefaultInterval()), knownInterval(rb.SpeedupInterval)
	return d
}

// knownInterval is &iv, nil when its ends are not numbers (JSON has no NaN).
func knownInterval(iv uncertainty.Interval) *uncertainty.Interval {
	if math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) || math.IsInf(iv.Lo, 0) || math.IsInf(iv.Hi, 0) {
		return nil
	}
	return &iv
}

// speedupText states a speedup interval: "0.99-1.36x in 99 % of runs".
func speedupText(iv uncertainty.Interval) string {
	return fmt.Sprintf("%.2f-%.2fx in %s of runs", iv.Lo, iv.Hi, recommend.Percent(iv.Coverage))
}

// expectedSpeedupText states rec's expected speedup with its interval and the single
// simulation beside it: "7.02x expected, 6.70-7.20x in 99 % of runs, over 16 perturbed runs;
// the profiled run exactly as recorded: 7.24x". Without an uncertainty model: "7.24x
// (simulated, one run: no interval)".
func expectedSpeedupText(rec *recommend.Recommendation) string {
	rb := rec.Robust
	if rb == nil {
		return fmt.Sprintf("%.2fx (simulated on the profile, one run: no interval; the study has no uncertainty model)", rec.Speedup)
	}
	s := fmt.Sprintf("%.2fx expected (%s), ", rec.Speedup, rb.Statistic)
	if knownInterval(rb.SpeedupInterval) != nil {
		s += speedupText(rb.SpeedupInterval) + ", "
	}
	runs := "perturbed runs"
	if rb.Scenario != "" {
		runs = rb.Scenario.Words()
	}
	s += fmt.Sprintf("over %d %s", rb.Replicas, runs)
	if l := rb.Like; l != nil {
		s += fmt.Sprintf(" (on %d %s: %.2fx, %s)", l.Replicas, l.Scenario.Words(), l.Speedup, speedupText(l.SpeedupInterval))
	}
	return s + fmt.Sprintf("; the profiled run exactly as recorded: %.2fx", rb.NominalSpeedup)
}
