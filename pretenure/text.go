package pretenure

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/objective"
)

// WriteText writes the advice as gctune pretenure prints it: the parameters it is on top of
// and what it was judged on, the table of the sites tried (and their combination), then what is
// advised, or that the code should stay as it is.
func (a *Advice) WriteText(w io.Writer) error {
	ew := errwriter.New(w)
	judged := fmt.Sprintf("%d perturbed replicas", a.Replicas)
	if a.Replicas == 0 {
		judged = "the profiled run (uncertainty model off)"
	}
	ew.Printf("pretenuring on top of eden %s, headroom %s, ratio %g; judged on %s\n",
		units.FormatBytes(a.Params.NewSpaceBytes), units.FormatBytes(a.Params.GrowthHeadroomBytes), a.Params.FullGCRatio, judged)
	ew.Printf("(%s)\n\n", Note)
	if ew.Err() != nil {
		return ew.Err()
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	tew := errwriter.New(tw)
	tew.Printf("  SITES\tCOPIED THEN TENURED\tLONG-LIVED\tGAIN\tRANGE\tFULL GCS\tADVISED\n")
	row := func(c Candidate) {
		names := make([]string, len(c.Sites))
		for i, s := range c.Sites {
			names[i] = termtext.Quote(s)
		}
		adv := "no"
		if c.Advised {
			adv = "yes"
		}
		tew.Printf("  %s\t%s\t%s\t%.3f×\t%.3f×-%.3f×\t%d → %d\t%s\n", strings.Join(names, " + "), units.FormatBytes(c.TenuredBytes),
			numfmt.PercentText(c.LongLivedShare), c.Gain, c.Interval.Lo, c.Interval.Hi, c.FullGCs, c.FullGCsPretenured, adv)
	}
	for _, c := range a.Candidates {
		row(c)
	}
	if a.Combined != nil {
		row(*a.Combined)
	}
	if tew.Err() != nil {
		return tew.Err()
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	advised := a.Advised()
	if len(advised) == 0 {
		ew.Printf("\nno site gains more than %s: leave the code as it is\n", numfmt.PercentText(a.Tolerance))
		return ew.Err()
	}
	best := advised[0]
	ew.Printf("\nadvised: %.3f× faster (%.3f× to %.3f× over the replicas) with this change to the Pharo code:\n  %s\n",
		best.Gain, best.Interval.Lo, best.Interval.Hi, best.Change)
	return ew.Err()
}

// ForExplain is what gctune explain adds for a study whose workloads name sites: the
// attribution at the defaults (Attribute) and, with tuned parameters (nil: none, a trial
// explained as it is), the advice on top of them (Advise, judged on the study's own replicas).
// Both nil when no workload names sites.
func ForExplain(prob *objective.Problem, tuned *heapsim.Params) ([]WorkloadSites, *Advice, error) {
	docs, err := Attribute(prob)
	if err != nil || len(docs) == 0 {
		return nil, nil, err
	}
	if tuned == nil {
		return docs, nil, nil
	}
	adv, err := Advise(prob, *tuned, Options{})
	if err != nil {
		return nil, nil, err
	}
	return docs, adv, nil
}

// WriteExplainText writes the attribution by site and the advice (nil: none) as gctune explain
// states them after the diagnosis; nothing when docs is empty.
func WriteExplainText(w io.Writer, docs []WorkloadSites, adv *Advice) error {
	if len(docs) == 0 {
		return nil
	}
	ew := errwriter.New(w)
	for _, d := range docs {
		ew.Printf("\nWhere the GC cost comes from at the defaults, by allocation site (%s):\n", termtext.Quote(d.Workload))
		for _, e := range d.Sites {
			ew.Printf("  %s:", termtext.Quote(e.Site))
			if e.LargeAllocFullGCs > 0 {
				ew.Printf(" forces %d full GCs (its objects go straight to old space and find no free chunk);", e.LargeAllocFullGCs)
			}
			if e.TenuredBytes > 0 {
				ew.Printf(" %s copied by the scavenger then tenured;", units.FormatBytes(e.TenuredBytes))
			}
			if e.DirectOldBytes > 0 {
				ew.Printf(" %s straight into old space;", units.FormatBytes(e.DirectOldBytes))
			}
			ew.Printf(" %s of what enters old space, which the full-GC ratio counts", numfmt.PercentText(e.OldShare))
			if e.ContainerSlots > 0 {
				ew.Printf("; its containers (%s slots) stay in the remembered set while they hold young objects (remembered-set scans %.3g s in all)",
					units.FormatCount(e.ContainerSlots), d.RSScanSeconds)
			}
			ew.Printf("\n")
		}
	}
	if adv == nil || ew.Err() != nil {
		return ew.Err()
	}
	ew.Printf("\nPretenuring on top of the recommendation (%s):\n", Note)
	advised := adv.Advised()
	if len(advised) == 0 {
		for _, c := range adv.Candidates {
			ew.Printf("  %s: %.3f× (%.3f× to %.3f×), not above the %s tolerance\n", termtext.Quote(c.Sites[0]), c.Gain, c.Interval.Lo, c.Interval.Hi, numfmt.PercentText(adv.Tolerance))
		}
		ew.Printf("  no change advised\n")
		return ew.Err()
	}
	for _, c := range advised {
		ew.Printf("  %.3f× faster (%.3f× to %.3f× over %d replicas; full GCs %d → %d): %s\n", c.Gain, c.Interval.Lo, c.Interval.Hi,
			len(c.Gains), c.FullGCs, c.FullGCsPretenured, c.Change)
	}
	return ew.Err()
}
