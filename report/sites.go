package report

import (
	"fmt"
	"strings"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/pretenure"
	"github.com/gctune/gctune/recommend"
)

// buildSites fills the report's "where the cost comes from, by allocation site" section when
// a workload names sites (docs/sites.md): the attribution at the defaults and, with a
// recommendation, the pretenuring advice on top of it, judged on the study's replicas.
func buildSites(r *Report, prob *objective.Problem, rec *recommend.Recommendation) error {
	sites, err := pretenure.Attribute(prob)
	if err != nil || len(sites) == 0 {
		return err
	}
	r.Sites = sites
	if rec == nil {
		return nil
	}
	if r.Pretenure, err = pretenure.Advise(prob, rec.Point.Params(prob.Base()), pretenure.Options{}); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// htmlSites is the page's sites section.
type htmlSites struct {
	Workloads []htmlSitesWorkload
	// Advice rows, the note, and the line that sums it up.
	Advice     []htmlAdviceRow
	AdviceLead string
	Note       string
}

type htmlSitesWorkload struct {
	Name string
	Rows []htmlSiteRow
}

type htmlSiteRow struct {
	Site, FullGCs, Tenured, DirectOld, OldShare, Containers string
}

type htmlAdviceRow struct {
	Sites, Gain, Range, FullGCs, Advised, Change string
}

// htmlSitesSection words r.Sites and r.Pretenure for the page; nil when there are none.
func htmlSitesSection(r *Report) *htmlSites {
	if len(r.Sites) == 0 {
		return nil
	}
	v := &htmlSites{Note: pretenure.Note}
	for _, w := range r.Sites {
		hw := htmlSitesWorkload{Name: w.Workload}
		for _, s := range w.Sites {
			row := htmlSiteRow{Site: s.Site, FullGCs: fmt.Sprint(s.LargeAllocFullGCs), Tenured: units.FormatBytes(s.TenuredBytes),
				DirectOld: units.FormatBytes(s.DirectOldBytes), OldShare: numfmt.Percent(s.OldShare)}
			if s.ContainerSlots > 0 {
				row.Containers = fmt.Sprintf("%d slots in the remembered set while they hold young objects", s.ContainerSlots)
			}
			hw.Rows = append(hw.Rows, row)
		}
		v.Workloads = append(v.Workloads, hw)
	}
	a := r.Pretenure
	if a == nil {
		return v
	}
	add := func(c pretenure.Candidate) {
		adv := "no"
		if c.Advised {
			adv = "yes"
		}
		v.Advice = append(v.Advice, htmlAdviceRow{Sites: strings.Join(c.Sites, " + "), Gain: fmt.Sprintf("%.3f×", c.Gain),
			Range: fmt.Sprintf("%.3f× to %.3f×", c.Interval.Lo, c.Interval.Hi), FullGCs: fmt.Sprintf("%d → %d", c.FullGCs, c.FullGCsPretenured),
			Advised: adv, Change: c.Change})
	}
	for _, c := range a.Candidates {
		add(c)
	}
	if a.Combined != nil {
		add(*a.Combined)
	}
	if best := a.Advised(); len(best) > 0 {
		v.AdviceLead = fmt.Sprintf("Pretenuring %s on top of the recommendation is %.3f× faster (%.3f× to %.3f× over %d replicas).",
			strings.Join(best[0].Sites, " + "), best[0].Gain, best[0].Interval.Lo, best[0].Interval.Hi, len(best[0].Gains))
	} else {
		v.AdviceLead = fmt.Sprintf("No site gains more than %s on top of the recommendation: leave the code as it is.", numfmt.Percent(a.Tolerance))
	}
	return v
}
