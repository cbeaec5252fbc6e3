package main

import (
	"io"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/pretenure"
	"github.com/gctune/gctune/recommend"
)

// writeSiteCosts writes the attribution and the pretenuring advice (nil: none) as text.
func writeSiteCosts(w io.Writer, docs []pretenure.WorkloadSites, adv *pretenure.Advice) error {
	if len(docs) == 0 {
		return nil
	}
	ew := errwriter.New(w)
	for _, d := range docs {
		ew.Printf("\nWhere the GC cost comes from at the defaults, by allocation site (%s):\n", quoteName(d.Workload))
		for _, e := range d.Sites {
			ew.Printf("  %s:", quoteName(e.Site))
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
					formatCount(e.ContainerSlots), d.RSScanSeconds)
			}
			ew.Printf("\n")
		}
	}
	if adv == nil || ew.Err() != nil {
		return ew.Err()
	}
	ew.Printf("\nPretenuring on top of the recommendation (%s):\n", pretenure.Note)
	advised := adv.Advised()
	if len(advised) == 0 {
		for _, c := range adv.Candidates {
			ew.Printf("  %s: %.3f× (%.3f× to %.3f×), not above the %s tolerance\n", quoteName(c.Sites[0]), c.Gain, c.Interval.Lo, c.Interval.Hi, numfmt.PercentText(adv.Tolerance))
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

// explainSites is what explain adds for a study whose workloads name sites: the attribution at
// the defaults and, with a recommendation, the pretenuring advice on top of it (judged on the
// study's own replicas). Both nil when no workload names sites.
func explainSites(prob *objective.Problem, rec *recommend.Recommendation) ([]pretenure.WorkloadSites, *pretenure.Advice, error) {
	docs, err := pretenure.Attribute(prob)
	if err != nil || len(docs) == 0 {
		return nil, nil, err
	}
	if rec == nil {
		return docs, nil, nil
	}
	adv, err := pretenure.Advise(prob, rec.Point.Params(prob.Base()), pretenure.Options{})
	if err != nil {
		return nil, nil, err
	}
	return docs, adv, nil
}
