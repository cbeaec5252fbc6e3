package main

import (
	"fmt"
	"io"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialattr"
)

// finished describes a study that holds its target of trials with none running: what resume
// says instead of running nothing and reprinting the result as if it had run.
type finished struct {
	done, target int
	best         *goptuna.FrozenTrial // nil when no trial is feasible
	defaultValue float64
	seconds      bool // one workload: values are seconds
	// rec is the recommendation stored with the study, nil when none is current.
	rec *recommend.Recommendation
}

// finishedStudy reports whether the study's trials (all, as stored) reach sp's target with none
// running, and describes it.
func finishedStudy(all []goptuna.FrozenTrial, sp *study.Problem) (finished, bool) {
	counted, ok := sp.Finished(all)
	if !ok {
		return finished{}, false
	}
	f := finished{done: counted, target: sp.Trials, defaultValue: sp.DefaultValue, seconds: sp.Seconds()}
	if best, ok := trialattr.Best(all); ok {
		f.best = &best
	}
	return f, true
}

// hint says how to go on: --more N trials, or --trials for a new total.
func (f finished) hint(name string) string {
	more := max(f.target/2, 10)
	return fmt.Sprintf("study %s is finished (%d of %d trials): to run more, gctune resume %s --more %d (or --trials N for a new total)",
		quoteName(name), f.done, f.target, export.ShellQuote(name), more)
}

// print writes that the study is finished, its fastest trial in a line, and how to go on.
func (f finished) print(w io.Writer, name string) error {
	ew := errwriter.New(w)
	ew.Printf("%s\n", f.hint(name))
	if f.best != nil && f.best.Value > 0 {
		if f.rec != nil && !f.rec.KeepDefaults {
			ew.Printf("recommended: trial %d, %s\n", f.rec.Trial, f.rec.Describe())
			for _, l := range f.rec.ForecastLines(f.seconds) {
				ew.Printf("  %s\n", l)
			}
		}
		if f.seconds {
			ew.Printf("the search's fastest trial: trial %d, %s against %s with the defaults on the search's runs, %s faster\n",
				f.best.Number, numfmt.SecondsText(f.best.Value), numfmt.SecondsText(f.defaultValue), numfmt.Speedup(f.defaultValue/f.best.Value))
		} else {
			ew.Printf("the search's fastest trial: trial %d, %s faster than the defaults on the search's runs\n", f.best.Number, numfmt.Speedup(f.defaultValue/f.best.Value))
		}
	}
	q := export.ShellQuote(name)
	ew.Printf("the recommendation: gctune export %s (why: gctune explain %s)\n", q, q)
	return ew.Err()
}
