package recommend

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
)

// WriteText writes the recommendation for a terminal: the verdict (the configuration, or keep
// the defaults), its simulated figures (with several workloads, each one's seconds against its
// defaults, and which one the recommendation guards against), how it was chosen, what was put
// back and why, and what each kept change is worth. seconds says whether the objective is in
// seconds (one workload) or a slowdown. When the verdict is to keep the defaults, everything
// after it is said of the configuration that would be applied anyway, as a hypothetical.
func (r *Recommendation) WriteText(w io.Writer, seconds bool) error {
	var b strings.Builder
	val := valueFormat(seconds)
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	// ind is the indent of the lines on how the configuration was reached; would is how they
	// speak of it: as done, or, when the defaults are kept, as what would be done.
	ind, would := "  ", false
	if r.KeepDefaults {
		ind, would = "    ", true
		p("recommendation: keep the VM defaults. The fastest configuration found, trial %d, is %s as fast (%s against %s): less than %s faster, within the model's error\n",
			r.Best.Number, numfmt.Speedup(r.DefaultValue/r.Best.Value), val(r.Best.Value), val(r.DefaultValue), numfmt.PercentText(KeepDefaultsWithin))
		p("  it would be: %s (peak footprint %s)\n", DescribePoint(r.Best.Point), units.FormatBytes(r.Best.PeakFootprintBytes))
		p("  were a change wanted anyway (not recommended), the fewest changes within %s of it would be trial %d's (%s as fast, peak footprint %s): %s; how it was found:\n",
			numfmt.PercentText(r.Tolerance), r.Trial, numfmt.Speedup(r.Speedup), units.FormatBytes(r.PeakFootprintBytes), r.Describe())
	} else {
		p("recommended: trial %d, %s\n", r.Trial, r.Describe())
		for _, l := range r.ForecastLines(seconds) {
			p("  %s\n", l)
		}
	}
	// With replicas the trials were judged again on the decision replicas: the fastest there
	// need not be the search's.
	judged := ""
	if rb := r.Robust; rb != nil {
		judged = fmt.Sprintf(" judged on %d perturbed runs", rb.DecisionReplicas)
	}
	if r.Chosen.Number != r.Best.Number {
		p("%schosen as the smallest peak footprint among the %d trials within %s of the fastest%s, trial %d (%s, %s)\n",
			ind, r.Within, numfmt.PercentText(r.Tolerance), judged, r.Best.Number, bestText(r.Best.Value, seconds), units.FormatBytes(r.Best.PeakFootprintBytes))
	} else {
		p("%sthe fastest trial%s, and the smallest peak footprint among the %d within %s of it\n", ind, judged, r.Within, numfmt.PercentText(r.Tolerance))
	}
	putBack, kept := "put back to the VM default", "kept"
	if would {
		putBack, kept = "it would put back to the VM default", "it would keep"
	}
	for _, st := range r.PutBack {
		p("%s%s: %s %s → %s, which %s (less than %s)\n",
			ind, putBack, st.Label, tunable.FormatNamed(st.Param, st.Value), tunable.FormatNamed(st.Param, st.Default), CostText(st.Cost), numfmt.PercentText(r.Tolerance))
	}
	for _, st := range r.Kept {
		p("%s%s: %s %s; put back alone it %s (%s)\n", ind, kept, st.Label, tunable.FormatNamed(st.Param, st.Value), keptCost(st), st.Why)
	}
	if rb := r.Robust; rb != nil && !r.KeepDefaults {
		if rb.Instead != "" {
			p("  recommended instead: %s\n", rb.Instead)
		}
		for _, m := range rb.Moves {
			p("  %s: %s %s → %s (%s)\n", m.Verb(), m.Label, tunable.FormatNamed(m.Param, m.From), tunable.FormatNamed(m.Param, m.To), m.Why)
		}
		for _, m := range rb.Margins {
			p("  margin: %s %s may be %s before the run time rises by %s\n", m.Label, tunable.FormatNamed(m.Param, m.Value), MarginText(m), numfmt.PercentText(r.Tolerance))
		}
		if !rb.Flat {
			p("  warning: no flat region found within reach for every kept parameter: a run may lose more than %s when it moves by %s\n", numfmt.PercentText(r.Tolerance), numfmt.PercentText(rb.Neighbourhood))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ForecastLines are the forecast's lines as WriteText writes them, without their indent: the
// headline with its intervals, each workload's or reading's seconds, the export's evidence,
// the forecast for inputs like this one, and the profiled run exactly as recorded. Without an
// uncertainty model, the headline (one simulation) and the profiled run's figures.
func (r *Recommendation) ForecastLines(seconds bool) []string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	f := r.Figures(seconds)
	if r.Robust != nil {
		r.writeForecast(p, f)
	} else {
		p("  %s\n", f.Headline())
		r.writeWorkloads(p, "predicted")
	}
	p("  %s\n", f.NominalLine())
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	return lines
}

// writeForecast writes the headline forecast (the recommendation's Value, DefaultValue and
// Speedup, on the headline runs, with its intervals at one coverage), each workload's or
// reading's seconds, the evidence a sampled export's counts gave, and the forecast for inputs
// like this one on its own line: the Figures' strings, as every output writes them.
func (r *Recommendation) writeForecast(p func(string, ...any), f Figures) {
	rb := r.Robust
	line := f.Headline()
	if !f.Seconds {
		if rb.Readings > 0 {
			line += fmt.Sprintf(", weighed over the %d readings of the run", rb.Readings)
		} else {
			line += ", " + r.aggregateWords()
		}
	}
	if iv := f.Intervals(); iv != "" {
		line += " (" + iv + ")"
	}
	p("  %s\n", line)
	r.writeWorkloads(p, "expected")
	if rb.Evidence != nil {
		p("  the export's evidence: %s\n", rb.Evidence.Words)
	}
	if l := f.LikeLine(); l != "" {
		p("  %s\n", l)
	}
}

// runsWords names the runs the headline is stated over: "runs of this input again", or, for a
// recommendation made before the two scenarios, "perturbed runs".
func runsWords(rb *Robustness) string {
	if rb.Scenario == "" {
		return "perturbed runs"
	}
	return rb.Scenario.Words()
}

// writeWorkloads writes one line per workload of several: its seconds under the
// recommendation against its defaults, and the speedup; the one the recommendation guards
// against (the largest slowdown, which the study minimises) says so. how is "expected" or
// "predicted".
func (r *Recommendation) writeWorkloads(p func(string, ...any), how string) {
	for _, f := range r.Workloads {
		guard := ""
		if f.Worst {
			guard = fmt.Sprintf("; the recommendation guards against this one: its slowdown, %s, is the larger", numfmt.Ratio(f.Slowdown))
			if r.Robust != nil {
				guard = fmt.Sprintf("; the recommendation guards against this one: its slowdown, %s on average over the runs (each against its own defaults), is the larger", numfmt.Ratio(f.Slowdown))
			}
		}
		p("  %s: %s %s against %s with the defaults, %s faster%s\n",
			f.Name, how, numfmt.SecondsText(f.Seconds), numfmt.SecondsText(f.DefaultSeconds), numfmt.Speedup(f.Speedup), guard)
	}
}

// aggregateWords says how the workloads' slowdowns were combined: the worst one when the
// figures mark one (aggregate max), else their mean.
func (r *Recommendation) aggregateWords() string {
	for _, f := range r.Workloads {
		if f.Worst {
			return "on the slower workload"
		}
	}
	if len(r.Workloads) > 0 {
		return "on average over the workloads"
	}
	return "at worst over the workloads"
}

// CostText says what a change costs for a sentence: "costs 13.9 %", "saves 0.25 %" (a negative
// cost: it makes the run faster), "costs nothing" (below 0.005 %, under any simulation's
// resolution).
func CostText(f float64) string {
	switch {
	case math.Abs(f) < 0.00005:
		return "costs nothing"
	case f < 0:
		return "saves " + numfmt.PercentText(-f)
	}
	return "costs " + numfmt.PercentText(f)
}

// MarginText says how far a kept parameter may move: "18 % lower or 40 % higher (or more)".
func MarginText(m Margin) string {
	side := func(f float64, open bool, word string) string {
		s := numfmt.PercentText(f) + " " + word
		if open {
			s += " or more"
		}
		return s
	}
	return side(m.Down, m.DownOpen, "lower") + ", " + side(m.Up, m.UpOpen, "higher")
}

// keptCost says what putting a kept change back costs.
func keptCost(st Step) string {
	if !st.Feasible {
		return "costs feasibility (the configuration is then infeasible)"
	}
	return CostText(st.Cost)
}

// Describe writes the configuration's changes in user terms, and which parameters stay at the
// VM default.
func (r *Recommendation) Describe() string {
	var set, def []string
	for _, t := range tunable.All() {
		if r.Changed(t.Name) {
			set = append(set, t.Label+" "+tunable.FormatNamed(t.Name, t.Get(r.Point)))
		} else {
			def = append(def, t.Label)
		}
	}
	s := strings.Join(set, ", ")
	switch {
	case len(set) == 0:
		return "the VM defaults"
	case len(def) > 0:
		s += "; the VM default for " + strings.Join(def, ", ")
	}
	return s
}

// DescribePoint writes all five dimensions of a point in user terms.
func DescribePoint(pt tunable.Point) string {
	var parts []string
	for _, t := range tunable.All() {
		parts = append(parts, t.Label+" "+tunable.FormatNamed(t.Name, t.Get(pt)))
	}
	return strings.Join(parts, ", ")
}

// IntervalText writes an interval with the share of runs it holds, each end written by unit:
// "498-698 s, 95 % of runs" with numfmt.SecondsText.
func IntervalText(iv uncertainty.Interval, unit func(float64) string) string {
	return fmt.Sprintf("%s, %s of runs", IntervalRange(iv, unit), numfmt.PercentText(iv.Coverage))
}

// IntervalRange writes an interval's ends only ("8.08-9.47×"), where the sentence has already
// said what share of runs it holds.
func IntervalRange(iv uncertainty.Interval, unit func(float64) string) string {
	return numfmt.Range(iv.Lo, iv.Hi, unit)
}

// bestText writes the fastest trial's value as the selection judged it: its seconds, or, with
// several workloads, its speedup ("1.07× faster"), never a bare ratio.
func bestText(v float64, seconds bool) string {
	if seconds {
		return numfmt.SecondsText(v)
	}
	return numfmt.Speedup(1/v) + " faster"
}
