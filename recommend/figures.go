package recommend

import (
	"fmt"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
)

// Figures are a recommendation's figures as every output writes them, formatted once here
// with numfmt: optimize's and resume's summary, explain, studies show, every export format and
// the report render these strings, so that they say the same thing (the consistency test in
// cmd/gctune holds them to it). A figure the recommendation does not have is "".
type Figures struct {
	// Seconds says the values are seconds (one workload); else they are run times over the
	// defaults' ("0.963×"), the defaults being 1×.
	Seconds bool
	// Speedup is the headline speedup ("8.75×"), Value and DefaultValue the headline run
	// times ("504 s", "4,406 s").
	Speedup, Value, DefaultValue string
	// Runs names the runs the headline is stated over ("16 runs of this input again"); empty
	// when the study has no uncertainty model (the figures are then one simulation's).
	Runs string
	// Coverage is the share of runs every interval holds ("95 %"); the ranges are the
	// intervals' ends ("469-540 s", "4,074-4,761 s", "8.08-9.47×"), empty when unknown.
	Coverage                               string
	ValueRange, DefaultRange, SpeedupRange string
	// Like is the forecast for inputs like this one, nil when there is none.
	Like *LikeFigures
	// NominalValue and NominalSpeedup are the profiled run exactly as recorded, one
	// simulation ("507 s", "8.69×").
	NominalValue, NominalSpeedup string
	// Footprint and GCShare are the peak footprint and the GC share of the profiled run.
	Footprint, GCShare string
	// Readings are the figures of each workload (a sampled export's readings, named by
	// hypothesis, or the workloads of a multi-workload study).
	Readings []ReadingFigures
	// PutBack and Kept are the selection's steps: each change put back alone and its cost.
	PutBack, Kept []StepFigures
	// Margins say how far each kept parameter may move.
	Margins []MarginFigures
}

// LikeFigures are the forecast for inputs like this one.
type LikeFigures struct {
	Runs, Assumes, Speedup, SpeedupRange, Coverage string
}

// ReadingFigures are one workload's (or reading's) figures.
type ReadingFigures struct {
	Name, Value, DefaultValue, Speedup string
}

// StepFigures are a change and what putting it back alone costs ("costs 645 %").
type StepFigures struct {
	Label, Value, Default, Cost string
}

// MarginFigures are how far a kept parameter may move ("38.9 % lower, 40 % higher or more").
type MarginFigures struct {
	Label, Value, Text string
}

// Figures formats r's figures; seconds says whether its values are seconds (one workload).
func (r *Recommendation) Figures(seconds bool) Figures {
	val := valueFormat(seconds)
	f := Figures{Seconds: seconds, Speedup: numfmt.Speedup(r.Speedup), Value: val(r.Value), DefaultValue: val(r.DefaultValue),
		Footprint: units.FormatBytes(r.PeakFootprintBytes), GCShare: numfmt.PercentText(r.GCShare)}
	if rb := r.Robust; rb != nil {
		f.Runs = fmt.Sprintf("%d %s", rb.Replicas, runsWords(rb))
		f.Coverage = numfmt.PercentText(rb.SpeedupInterval.Coverage)
		f.ValueRange = knownRange(rb.ValueInterval, val)
		f.DefaultRange = knownRange(rb.DefaultInterval(), val)
		f.SpeedupRange = knownRange(rb.SpeedupInterval, numfmt.Speedup)
		f.NominalValue, f.NominalSpeedup = val(rb.NominalValue), numfmt.Speedup(rb.NominalSpeedup)
		if l := rb.Like; l != nil {
			f.Like = &LikeFigures{Runs: fmt.Sprintf("%d %s", l.Replicas, l.Scenario.Words()), Assumes: l.Assumes,
				Speedup: numfmt.Speedup(l.Speedup), SpeedupRange: knownRange(l.SpeedupInterval, numfmt.Speedup),
				Coverage: numfmt.PercentText(l.SpeedupInterval.Coverage)}
		}
		for _, m := range rb.Margins {
			f.Margins = append(f.Margins, MarginFigures{Label: m.Label, Value: tunable.FormatNamed(m.Param, m.Value), Text: MarginText(m)})
		}
	}
	for _, w := range r.Workloads {
		f.Readings = append(f.Readings, ReadingFigures{Name: w.Name, Value: numfmt.SecondsText(w.Seconds),
			DefaultValue: numfmt.SecondsText(w.DefaultSeconds), Speedup: numfmt.Speedup(w.Speedup)})
	}
	step := func(st Step) StepFigures {
		return StepFigures{Label: st.Label, Value: tunable.FormatNamed(st.Param, st.Value), Default: tunable.FormatNamed(st.Param, st.Default), Cost: keptCost(st)}
	}
	for _, st := range r.PutBack {
		f.PutBack = append(f.PutBack, step(st))
	}
	for _, st := range r.Kept {
		f.Kept = append(f.Kept, step(st))
	}
	return f
}

// valueFormat writes a value of the objective: seconds, or a run time over the defaults'.
func valueFormat(seconds bool) func(float64) string {
	if seconds {
		return numfmt.SecondsText
	}
	return numfmt.Ratio
}

// knownRange is the interval's ends, "" when they are not numbers.
func knownRange(iv uncertainty.Interval, unit func(float64) string) string {
	if !iv.Known() {
		return ""
	}
	return IntervalRange(iv, unit)
}

// Headline is the figures' one-line statement: "8.75× faster: 504 s against 4,406 s with the
// defaults, expected over 16 runs of this input again". With several workloads or readings it
// states the speedup only (each one's seconds are on their own lines, Readings), never a bare
// ratio. Without an uncertainty model it says the figures are one simulation's.
func (f Figures) Headline() string {
	s := f.Speedup + " faster than the defaults"
	if f.Seconds {
		s = fmt.Sprintf("%s faster: %s against %s with the defaults", f.Speedup, f.Value, f.DefaultValue)
	}
	if f.Runs == "" {
		return s + ", simulated on the profile (one run: no interval; the study has no uncertainty model)"
	}
	return s + ", expected over " + f.Runs
}

// Intervals states the headline's intervals with their coverage: "95 % of runs: 469-540 s;
// the defaults 4,074-4,761 s; the speedup 8.08-9.47×". Empty without intervals.
func (f Figures) Intervals() string {
	if f.SpeedupRange == "" {
		return ""
	}
	s := f.Coverage + " of runs:"
	if f.ValueRange != "" && f.Seconds {
		s += " " + f.ValueRange + "; the defaults " + f.DefaultRange + ";"
	}
	return s + " the speedup " + f.SpeedupRange
}

// LikeLine states the forecast for inputs like this one: "on 16 runs of inputs like this one
// (every object's size ...): 7.31× faster, 95 % of runs: the speedup 2.97-16.1×".
func (f Figures) LikeLine() string {
	l := f.Like
	if l == nil {
		return ""
	}
	s := fmt.Sprintf("on %s (%s): %s faster", l.Runs, l.Assumes, l.Speedup)
	if l.SpeedupRange != "" {
		s += fmt.Sprintf(", %s of runs: the speedup %s", l.Coverage, l.SpeedupRange)
	}
	return s
}

// NominalLine states the profiled run exactly as recorded: "the profiled run exactly as
// recorded (one simulation): 507 s, 8.69×; peak footprint 13.5 GiB, GC share 2.9 %".
func (f Figures) NominalLine() string {
	switch {
	case f.NominalSpeedup == "":
		return fmt.Sprintf("peak footprint %s, GC share %s", f.Footprint, f.GCShare)
	case !f.Seconds:
		return fmt.Sprintf("the profiled run exactly as recorded (one simulation): %s faster; peak footprint %s, GC share %s",
			f.NominalSpeedup, f.Footprint, f.GCShare)
	}
	return fmt.Sprintf("the profiled run exactly as recorded (one simulation): %s, %s faster; peak footprint %s, GC share %s",
		f.NominalValue, f.NominalSpeedup, f.Footprint, f.GCShare)
}

// KnownIntervals are the headline's intervals (the run time, the defaults', the speedup), each
// nil when its ends are not numbers (JSON has no NaN) or the recommendation has no uncertainty
// model: the one projection the JSON outputs (explain, studies show, verify, export) carry.
func (r *Recommendation) KnownIntervals() (value, defaults, speedup *uncertainty.Interval) {
	rb := r.Robust
	if rb == nil {
		return nil, nil, nil
	}
	known := func(iv uncertainty.Interval) *uncertainty.Interval {
		if !iv.Known() {
			return nil
		}
		return &iv
	}
	return known(rb.ValueInterval), known(rb.DefaultInterval()), known(rb.SpeedupInterval)
}
