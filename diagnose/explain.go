package diagnose

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/tunable"
)

// WriteText writes the diagnosis as plain text for a terminal (gctune explain): the headline,
// then per workload where the GC time went, each finding with its evidence and remedy, and last
// the changes of the best configuration, each put back alone.
func (d *Diagnosis) WriteText(w io.Writer) error {
	ew := errwriter.New(w)
	if d.ValueLabel == secondsLabel {
		ew.Printf("The profiled run exactly as recorded, one simulation each: %s with the defaults, %s with this configuration (%s).\n",
			numfmt.SecondsText(d.DefaultObjective), numfmt.SecondsText(d.BestObjective), numfmt.Faster(d.DefaultObjective, d.BestObjective))
	} else {
		ew.Printf("Objective: the %s, a workload's run time over its run time at the defaults (1 at the defaults). Best: %s (%s).\n",
			strings.TrimSuffix(d.ValueLabel, " (×)"), objectiveText(d.ValueLabel, d.BestObjective), numfmt.Faster(d.DefaultObjective, d.BestObjective))
	}
	if !d.BestFeasible {
		ew.Printf("This configuration is infeasible: %s.\n", d.BestInfeasibility)
	}
	for _, wd := range d.Workloads {
		ew.Printf("\n== %s\n", wd.Workload)
		ew.Printf("Default run %s, of which GC %s (%s); best run %s, of which GC %s (%s).\n",
			numfmt.SecondsText(wd.DefaultSeconds), numfmt.SecondsText(wd.DefaultGCSeconds), numfmt.PercentText(wd.DefaultGCSeconds/wd.DefaultSeconds),
			numfmt.SecondsText(wd.BestSeconds), numfmt.SecondsText(wd.BestGCSeconds), numfmt.PercentText(wd.BestGCSeconds/wd.BestSeconds))
		ew.Printf("%s\n", wentTo(wd))
		ew.Printf("\nWhere the GC time went:\n")
		width := len("total GC")
		for _, it := range wd.Breakdown {
			width = max(width, len(it.Name))
		}
		row := func(name, a, b, c, e string) {
			ew.Printf("  %-*s  %10s %9s  %10s %9s\n", width, name, a, b, c, e)
		}
		row("", "default", "", "best", "")
		for _, it := range wd.Breakdown {
			if it.DefaultSeconds == 0 && it.BestSeconds == 0 {
				continue
			}
			row(it.Name, numfmt.SecondsText(it.DefaultSeconds), numfmt.PercentText(it.DefaultSeconds/wd.DefaultGCSeconds),
				numfmt.SecondsText(it.BestSeconds), numfmt.PercentText(it.BestSeconds/wd.BestGCSeconds))
		}
		row("total GC", numfmt.SecondsText(wd.DefaultGCSeconds), "", numfmt.SecondsText(wd.BestGCSeconds), "")
		if len(wd.Findings) == 0 {
			ew.Printf("\nThe default run shows none of the four pathologies gctune looks for (full-GC bursts from large allocations, ratio-triggered full GCs on live data, remembered-set-dominated scavenges, premature tenuring) at %s or more of its GC time.\n", numfmt.PercentText(minFindingShare))
		}
		for i, f := range wd.Findings {
			ew.Printf("\n%d. %s\n", i+1, f.Title)
			ew.Printf("   Cost: %s in the default run, %s in the best.\n", numfmt.SecondsText(f.CostSeconds), numfmt.SecondsText(f.BestCostSeconds))
			for _, e := range f.Evidence {
				ew.Printf("   - %s\n", e)
			}
			ew.Printf("   %s\n", f.Remedy)
		}
	}
	if len(d.Changes) > 0 {
		ew.Printf("\nEach change of the best configuration, put back alone (the other parameters as in the best):\n")
		tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
		for _, c := range d.Changes {
			pi := paramByName(c.Param)
			note := ""
			if !c.RevertedFeasible {
				note = " (infeasible: " + c.RevertedInfeasibility + ")"
			}
			fmt.Fprintf(tw, "  %s\t%s → %s\t%s%s, %s the best\n", c.Label, ParamValue(pi, c.DefaultValue), ParamValue(pi, c.BestValue),
				objectiveText(d.ValueLabel, c.RevertedObjective), note, relative(c.RevertedObjective, d.BestObjective))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return ew.Err()
}

// wentTo says in one sentence where most of the GC time went in the default and the best run:
// the largest parts, up to two, that make up most of it.
func wentTo(wd WorkloadDiagnosis) string {
	top := func(get func(TimeItem) float64, total float64) string {
		items := slices.Clone(wd.Breakdown)
		slices.SortStableFunc(items, func(a, b TimeItem) int { return cmp.Compare(get(b), get(a)) })
		if total <= 0 || len(items) == 0 {
			return "nothing"
		}
		s := fmt.Sprintf("%s (%s)", items[0].Name, numfmt.PercentText(get(items[0])/total))
		if get(items[0]) < 0.6*total && len(items) > 1 && get(items[1]) > 0 {
			s += fmt.Sprintf(" and %s (%s)", items[1].Name, numfmt.PercentText(get(items[1])/total))
		}
		return s
	}
	return fmt.Sprintf("Most of the default run's GC time went to %s; in the best run, to %s.",
		top(func(t TimeItem) float64 { return t.DefaultSeconds }, wd.DefaultGCSeconds),
		top(func(t TimeItem) float64 { return t.BestSeconds }, wd.BestGCSeconds))
}

// objectiveText formats an objective value: seconds, or a slowdown.
func objectiveText(label string, v float64) string {
	if label == secondsLabel {
		return numfmt.SecondsText(v)
	}
	return strconv.FormatFloat(v, 'g', 3, 64) + "×"
}

// relative says how v compares with ref: "2.14× slower than", "as fast as".
func relative(v, ref float64) string {
	if f := numfmt.Faster(ref, v); f != "as fast" {
		return f + " than"
	}
	return "as fast as"
}

// paramByName is the tunable named name; an unknown name is a plain number labelled by its
// name.
func paramByName(name string) tunable.Tunable {
	if t, ok := tunable.Named(name); ok {
		return t
	}
	return tunable.Tunable{Name: name, Label: name, Unit: tunable.UnitRatio}
}
