package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/verify"
)

// htmlIDHolds is the id of the section "How far the answer holds".
const htmlIDHolds = "holds"

// htmlHolds is the section "How far the answer holds", every number formatted.
type htmlHolds struct {
	Lead    []string
	Margins []htmlMarginRow
	Notes   []string
	Figures []htmlFigure
}

type htmlMarginRow struct {
	Label, Value, Down, Up, Cliffs string
}

// htmlHoldsSection fills p.Holds (nil without a recommendation) with figs, and lists it in
// the table of contents after the sensitivity.
func htmlHoldsSection(p *htmlPage, r *Report, figs []htmlFigure, seconds bool, use func(id, what string) string) {
	rec := r.Recommendation
	if rec == nil {
		return
	}
	use(htmlIDHolds, "a section")
	entry := htmlTOCEntry{htmlIDHolds, "How far the answer holds"}
	if i := slices.IndexFunc(p.TOC, func(e htmlTOCEntry) bool { return e.ID == htmlIDSensitivity }); i >= 0 {
		p.TOC = slices.Insert(p.TOC, i+1, entry)
	} else {
		p.TOC = append(p.TOC, entry)
	}
	h := &htmlHolds{Figures: figs}
	if rb := rec.Robust; rb != nil {
		// The header states the headline forecast too, with its interval: the Figures'
		// strings, as every output writes them.
		f := rec.Figures(seconds)
		p.Speedup, p.DefaultValue, p.BestValue = f.Speedup, htmlValue(rec.DefaultValue, seconds), htmlValue(rec.Value, seconds)
		p.SpeedupNote = "expected over the VM defaults, over " + f.Runs
		if iv := f.Intervals(); iv != "" {
			p.SpeedupNote += "; " + iv
		}
		h.Lead = append(h.Lead, "Expected with the recommendation: "+f.Headline()+" (the "+rb.Statistic+" of the study's uncertainty model: what a user's next runs of this work are expected to give).")
		if iv := f.Intervals(); iv != "" {
			h.Lead = append(h.Lead, "In "+iv+".")
		}
		for _, rd := range f.Readings {
			h.Lead = append(h.Lead, fmt.Sprintf("%s: %s against %s with the defaults, %s faster.", rd.Name, rd.Value, rd.DefaultValue, rd.Speedup))
		}
		h.Lead = append(h.Lead, upperFirst(f.NominalLine())+" (the figures of the diagnosis and of the runs below).")
		if rb.Evidence != nil {
			h.Lead = append(h.Lead, "The export's evidence: "+rb.Evidence.Words+".")
		}
		if l := f.LikeLine(); l != "" {
			h.Lead = append(h.Lead, upperFirst(l)+". A wider question than the one above: another input of the same job, not this one again.")
		}
		for _, m := range rb.Moves {
			h.Notes = append(h.Notes, fmt.Sprintf("%s: %s %s → %s (%s).", upperFirst(m.Verb()), m.Label,
				numfmt.Plain(htmlParam(m.Param, false, m.From)), numfmt.Plain(htmlParam(m.Param, false, m.To)), m.Why))
		}
		if !rb.Flat {
			h.Notes = append(h.Notes, fmt.Sprintf("Warning: no flat region was found within reach for every kept parameter: a run may lose more than %s when one moves by %s.",
				numfmt.PercentText(rec.Tolerance), numfmt.PercentText(rb.Neighbourhood)))
		}
	} else {
		h.Lead = append(h.Lead, "This study judges every configuration on the single simulation of the profile (its uncertainty model is off): the figures are the profiled run's, with no interval. The landscape below is that simulation.")
	}
	if hd := r.Holds; hd != nil {
		for _, ls := range hd.Landscapes {
			row := htmlMarginRow{Label: ls.Label, Value: numfmt.Plain(htmlParam(ls.Param, ls.Bytes, ls.Value)), Down: numfmt.Dash, Up: numfmt.Dash}
			if ls.HasMargin {
				row.Down, row.Up = htmlMarginSide(ls.Down, ls.DownOpen), htmlMarginSide(ls.Up, ls.UpOpen)
			}
			var cliffs []string
			for _, pt := range ls.Points {
				if !pt.Cliff {
					continue
				}
				cost := "infeasible"
				if pt.Feasible {
					cost = numfmt.Plain(htmlSignedPercent(pt.Cost))
				}
				cliffs = append(cliffs, fmt.Sprintf("%s (%s): %s", strings.Replace(numfmt.Plain(htmlSignedPercent(pt.Factor)), ".0 %", " %", 1), numfmt.Plain(htmlParam(ls.Param, ls.Bytes, pt.Value)), cost))
			}
			row.Cliffs = strings.Join(cliffs, "; ")
			if row.Cliffs == "" {
				row.Cliffs = "none within the moves judged"
			}
			h.Margins = append(h.Margins, row)
		}
		var differ []string
		for _, ls := range hd.Landscapes {
			st := ls.Stated
			if st == nil {
				continue
			}
			var sides []string
			for _, side := range []struct {
				word            string
				got, stated     float64
				gotOpen, stOpen bool
			}{{"lower", ls.Down, st.Down, ls.DownOpen, st.DownOpen}, {"higher", ls.Up, st.Up, ls.UpOpen, st.UpOpen}} {
				text := func(f float64, open bool) string {
					s := numfmt.PercentText(f) + " " + side.word
					if open {
						s += " or more"
					}
					return s
				}
				if g, w := text(side.got, side.gotOpen), text(side.stated, side.stOpen); g != w {
					sides = append(sides, fmt.Sprintf("%s, not %s", g, w))
				}
			}
			if len(sides) > 0 {
				differ = append(differ, ls.Label+" "+strings.Join(sides, " and "))
			}
		}
		if len(differ) > 0 {
			h.Notes = append(h.Notes, fmt.Sprintf("The margins above are measured over every move judged here: the recommendation's steps (%s) and the report's finer moves between them. "+
				"Where a finer move finds a cliff the steps passed over, or places the crossing more closely, the finer measurement decides, and the margin differs from the one the recommendation states (in optimize's summary, explain and the startup script): %s.",
				htmlLadderText(recommend.MarginLadder()), strings.Join(differ, "; ")))
		}
		if len(hd.Landscapes) == 0 {
			h.Notes = append(h.Notes, "The recommendation keeps no parameter changed: nothing to move.")
		} else {
			judged := "the single simulation of the profile"
			if hd.Replicas > 0 {
				judged = fmt.Sprintf("the %s over the first %d perturbed runs", hd.Statistic, hd.Replicas)
			}
			h.Notes = append(h.Notes, fmt.Sprintf("A margin is how far the parameter may move, the others as recommended, before the value judged on %s rises by the tolerance, %s (estimated between the last move within it and the first beyond; \"or more\": no move judged went beyond). A cliff is a move that costs the tolerance or more.",
				judged, numfmt.PercentText(rec.Tolerance)))
		}
	}
	p.Holds = h
}

// htmlLadderText writes a ladder of moves: "±5, 10, 20, 40 %".
func htmlLadderText(ladder []float64) string {
	var parts []string
	for _, f := range ladder {
		parts = append(parts, strings.TrimSuffix(numfmt.PercentText(f), " %"))
	}
	return "±" + strings.Join(parts, ", ") + " %"
}

// htmlMarginSide writes one side of a margin: "18 %", "40 % or more".
func htmlMarginSide(f float64, open bool) string {
	s := numfmt.PercentText(f)
	if open {
		s += " or more"
	}
	return s
}

// htmlComparisonNote says where a configuration's measured speedup lies against the interval
// its prediction states; "" without one.
func htmlComparisonNote(c verify.ConfigSummary) string {
	v := c.Verdict()
	if v == "" {
		return ""
	}
	return fmt.Sprintf("%s: %s.", c.Name, upperFirst(v))
}
