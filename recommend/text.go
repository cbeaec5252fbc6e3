package recommend

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

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
	val := func(v float64) string {
		if seconds {
			return Seconds(v)
		}
		return Slowdown(v)
	}
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	// ind is the indent of the lines on how the configuration was reached; would is how they
	// speak of it: as done, or, when the defaults are kept, as what would be done.
	ind, would := "  ", false
	if r.KeepDefaults {
		ind, would = "    ", true
		p("recommendation: keep the VM defaults. The fastest configuration found, trial %d, is %.2fx as fast (%s against %s): less than %s faster, within the model's error\n",
			r.Best.Number, r.DefaultValue/r.Best.Value, val(r.Best.Value), val(r.DefaultValue), Percent(KeepDefaultsWithin))
		p("  it would be: %s (peak footprint %s)\n", DescribePoint(r.Best.Point), units.FormatBytes(r.Best.PeakFootprintBytes))
		p("  were a change wanted anyway (not recommended), the fewest changes within %s of it would be trial %d's (%.2fx as fast, peak footprint %s): %s; how it was found:\n",
			Percent(r.Tolerance), r.Trial, r.Speedup, units.FormatBytes(r.PeakFootprintBytes), r.Describe())
	} else {
		p("recommended: trial %d, %s\n", r.Trial, r.Describe())
		if rb := r.Robust; rb != nil {
			r.writeForecast(p, val, seconds)
		}
		if rb := r.Robust; rb != nil {
			r.writeWorkloads(p, "expected")
			p("  the profiled run exactly as recorded: %s, %.2fx; peak footprint %s, GC share %s\n",
				val(rb.NominalValue), rb.NominalSpeedup, units.FormatBytes(r.PeakFootprintBytes), Percent(r.GCShare))
		} else if seconds {
			p("  predicted (simulated) %s against %s with the defaults: %.2fx faster; peak footprint %s, GC share %s\n",
				val(r.Value), val(r.DefaultValue), r.Speedup, units.FormatBytes(r.PeakFootprintBytes), Percent(r.GCShare))
		} else {
			p("  predicted (simulated) %s the defaults' run time %s: %.2fx faster; peak footprint %s, GC share %s\n",
				val(r.Value), r.aggregateWords(), r.Speedup, units.FormatBytes(r.PeakFootprintBytes), Percent(r.GCShare))
			r.writeWorkloads(p, "predicted")
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
			ind, r.Within, Percent(r.Tolerance), judged, r.Best.Number, val(r.Best.Value), units.FormatBytes(r.Best.PeakFootprintBytes))
	} else {
		p("%sthe fastest trial%s, and the smallest peak footprint among the %d within %s of it\n", ind, judged, r.Within, Percent(r.Tolerance))
	}
	putBack, kept := "put back to the VM default", "kept"
	if would {
		putBack, kept = "it would put back to the VM default", "it would keep"
	}
	for _, st := range r.PutBack {
		p("%s%s: %s %s → %s, which %s (less than %s)\n",
			ind, putBack, st.Label, Value(st.Param, st.Value), Value(st.Param, st.Default), CostText(st.Cost), Percent(r.Tolerance))
	}
	for _, st := range r.Kept {
		p("%s%s: %s %s; put back alone it %s (%s)\n", ind, kept, st.Label, Value(st.Param, st.Value), keptCost(st), st.Why)
	}
	if rb := r.Robust; rb != nil && !r.KeepDefaults {
		if rb.Instead != "" {
			p("  recommended instead: %s\n", rb.Instead)
		}
		for _, m := range rb.Moves {
			p("  %s: %s %s → %s (%s)\n", m.Verb(), m.Label, Value(m.Param, m.From), Value(m.Param, m.To), m.Why)
		}
		for _, m := range rb.Margins {
			p("  margin: %s %s may be %s before the run time rises by %s\n", m.Label, Value(m.Param, m.Value), MarginText(m), Percent(r.Tolerance))
		}
		if !rb.Flat {
			p("  warning: no flat region found within reach for every kept parameter: a run may lose more than %s when it moves by %s\n", Percent(r.Tolerance), Percent(rb.Neighbourhood))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeForecast writes the headline forecast (the recommendation's Value, DefaultValue and
// Speedup, on the headline runs, with its intervals at one coverage), the evidence a sampled
// export's counts gave, and the forecast for inputs like this one on its own line.
func (r *Recommendation) writeForecast(p func(string, ...any), val func(float64) string, seconds bool) {
	rb := r.Robust
	runs := fmt.Sprintf("%d %s", rb.Replicas, rb.Scenario.Words())
	if rb.Scenario == "" {
		runs = fmt.Sprintf("%d perturbed runs", rb.Replicas)
	}
	switch {
	case seconds:
		p("  expected %s against %s with the defaults: %s faster, over %d %s (%s; the defaults %s; the speedup %s)\n",
			val(r.Value), val(r.DefaultValue), SpeedupText(r.Speedup), rb.Replicas, runsWords(rb), IntervalText(rb.ValueInterval, val),
			IntervalRange(rb.DefaultInterval(), val), IntervalRange(rb.SpeedupInterval, SpeedupText))
	case rb.Readings > 0:
		p("  expected %s faster (%s the defaults' run time, weighed over the %d readings of the run), over %s (the speedup %s)\n",
			SpeedupText(r.Speedup), val(r.Value), rb.Readings, runs, IntervalText(rb.SpeedupInterval, SpeedupText))
		if rb.Evidence != nil {
			p("  the export's evidence: %s\n", rb.Evidence.Words)
		}
	default:
		p("  expected %s the defaults' run time %s of each run: %s faster, over %s (%s; the speedup %s)\n",
			val(r.Value), r.aggregateWords(), SpeedupText(r.Speedup), runs, IntervalText(rb.ValueInterval, val), IntervalRange(rb.SpeedupInterval, SpeedupText))
	}
	if l := rb.Like; l != nil {
		p("  on %d %s (%s): %s faster, the speedup %s\n", l.Replicas, l.Scenario.Words(), l.Assumes, SpeedupText(l.Speedup), IntervalText(l.SpeedupInterval, SpeedupText))
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

// SpeedupText writes a speedup: "9.14x".
func SpeedupText(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "x" }

// IntervalRange writes an interval's ends only ("8.14-9.85x"), where the sentence has already
// said what share of runs it holds.
func IntervalRange(iv uncertainty.Interval, unit func(float64) string) string {
	lo, hi := unit(iv.Lo), unit(iv.Hi)
	if i := strings.LastIndexByte(hi, ' '); i > 0 && strings.HasSuffix(lo, hi[i:]) {
		lo = strings.TrimSuffix(lo, hi[i:])
	} else if strings.HasSuffix(lo, "x") && strings.HasSuffix(hi, "x") {
		lo = strings.TrimSuffix(lo, "x")
	}
	return lo + "-" + hi
}

// writeWorkloads writes one line per workload of several: its seconds under the
// recommendation against its defaults, and the speedup; the one the recommendation guards
// against (the largest slowdown, which the study minimises) says so. how is "expected" or
// "predicted".
func (r *Recommendation) writeWorkloads(p func(string, ...any), how string) {
	for _, f := range r.Workloads {
		guard := ""
		if f.Worst {
			guard = fmt.Sprintf("; the recommendation guards against this one: its slowdown, %s, is the larger", Slowdown(f.Slowdown))
			if r.Robust != nil {
				guard = fmt.Sprintf("; the recommendation guards against this one: its slowdown, %s on average over the runs (each against its own defaults), is the larger", Slowdown(f.Slowdown))
			}
		}
		p("  %s: %s %s against %s with the defaults, %.2fx faster%s\n",
			f.Name, how, Seconds(f.Seconds), Seconds(f.DefaultSeconds), f.Speedup, guard)
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

// Slowdown writes a value of several workloads' objective, a run time over the defaults'
// ("0.335×"): the defaults are 1×.
func Slowdown(v float64) string {
	return strconv.FormatFloat(v, 'g', 3, 64) + "×"
}

// CostText says what a change costs for a sentence: "costs 13.9 %", "saves 0.25 %" (a negative
// cost: it makes the run faster), "costs nothing" (below 0.005 %).
func CostText(f float64) string {
	s := Percent(math.Abs(f))
	switch {
	case s == "0 %":
		return "costs nothing"
	case f < 0:
		return "saves " + s
	}
	return "costs " + s
}

// MarginText says how far a kept parameter may move: "18 % lower or 40 % higher (or more)".
func MarginText(m Margin) string {
	side := func(f float64, open bool, word string) string {
		s := Percent(f) + " " + word
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
			set = append(set, t.Label+" "+Value(t.Name, t.Get(r.Point)))
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
		parts = append(parts, t.Label+" "+Value(t.Name, t.Get(pt)))
	}
	return strings.Join(parts, ", ")
}

// Value writes a dimension's value for people: sizes in binary units, p for the survivors.
func Value(param string, v float64) string {
	t, _ := tunable.Named(param)
	switch t.Unit {
	case tunable.UnitBytes:
		return units.FormatBytes(uint64(v))
	case tunable.UnitProportion:
		if v >= 1 {
			return fmt.Sprintf("p = %.3g: all", v)
		}
		return fmt.Sprintf("p = %.3g", v)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// Seconds writes a time: whole seconds with digit groups from 100 s.
func Seconds(s float64) string {
	switch {
	case s >= 100:
		return units.FormatCount(uint64(s+0.5)) + " s"
	case s >= 1:
		return strconv.FormatFloat(s, 'f', 1, 64) + " s"
	}
	return strconv.FormatFloat(s, 'f', 3, 64) + " s"
}

// Percent writes a fraction as a percentage, trailing zeros trimmed: no decimal from 100 %,
// one from 1 %, else two ("697 %", "11.5 %", "1 %", "0.27 %", "0 %"); just under 100 % keeps
// two, so that it never reads as 100 % ("99.9 %", "99.99 %").
func Percent(f float64) string {
	v, d := 100*f, 2
	switch a := math.Abs(v); {
	case a >= 100:
		d = 0
	case a >= 99.5:
		d = 2
	case a >= 0.995:
		d = 1
	}
	s := strconv.FormatFloat(v, 'f', d, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s + " %"
}

// SignedPercent is Percent with a sign ("+0.3 %", "-0.02 %", "0 %").
func SignedPercent(f float64) string {
	s := Percent(f)
	if s != "0 %" && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// IntervalText writes an interval with the share of runs it holds, each end written by unit:
// "498-698 s, 99 % of runs" with Seconds.
func IntervalText(iv uncertainty.Interval, unit func(float64) string) string {
	lo, hi := unit(iv.Lo), unit(iv.Hi)
	// One unit for both ends: "498-698 s", not "498 s-698 s".
	if i := strings.LastIndexByte(hi, ' '); i > 0 && strings.HasSuffix(lo, hi[i:]) {
		lo = strings.TrimSuffix(lo, hi[i:])
	}
	if strings.HasSuffix(lo, "x") && strings.HasSuffix(hi, "x") {
		lo = strings.TrimSuffix(lo, "x")
	}
	return fmt.Sprintf("%s-%s, %s of runs", lo, hi, Percent(iv.Coverage))
}
