package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/verify"
)

// htmlIDMeasured is the id of the measured section.
const htmlIDMeasured = "measured"

// Measured is what `gctune verify` measured on the real application: the study's latest verify
// session, each configuration's runs and its measured speedup beside the predicted one.
type Measured struct {
	// Session identifies the verify session.
	Session string `json:"session"`
	// Configs holds the defaults first, then each configuration run.
	Configs []MeasuredConfig `json:"configs"`
	// Failed counts the session's runs that failed (exit code, timeout).
	Failed int `json:"failed"`
}

// MeasuredConfig is one configuration's measured runs.
type MeasuredConfig struct {
	verify.ConfigSummary
	// WallSeconds are its successful measured runs' times, in the order they ran.
	WallSeconds []float64 `json:"wallSeconds"`
}

// MeasuredFrom sums up the latest verify session among runs; nil when there is none.
func MeasuredFrom(runs []verify.MeasuredRun) *Measured {
	if len(runs) == 0 {
		return nil
	}
	samples, session := verify.SamplesFromStored(runs, "")
	m := &Measured{Session: session}
	for _, cs := range verify.Summarize(samples) {
		mc := MeasuredConfig{ConfigSummary: cs}
		for _, s := range samples {
			if s.Config == cs.Name && s.OK && s.Round >= 0 {
				mc.WallSeconds = append(mc.WallSeconds, s.WallSeconds)
			}
		}
		m.Configs = append(m.Configs, mc)
	}
	for _, s := range samples {
		if !s.OK {
			m.Failed++
		}
	}
	return m
}

// measuredAgainstPrediction sets, on m's configuration that ran rec (named "best", with rec's
// trial), the interval rec states for a further run's speedup and where the measured speedup
// lies against it (verify.ComparePredicted). Nothing without a robust rec or measured runs.
func measuredAgainstPrediction(m *Measured, rec *recommend.Recommendation) {
	if m == nil || rec == nil || rec.Robust == nil {
		return
	}
	iv := rec.Robust.SpeedupInterval
	if math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) {
		return
	}
	for i := range m.Configs {
		c := &m.Configs[i]
		if c.Name == "best" && c.Trial == rec.Trial {
			sums := []verify.ConfigSummary{c.ConfigSummary}
			verify.ComparePredicted(sums, []verify.Config{{Name: c.Name, PredictedInterval: &iv}})
			c.ConfigSummary = sums[0]
		}
	}
}

// htmlMeasured is the measured section's view.
type htmlMeasured struct {
	Lead  string
	Rows  []htmlMeasuredRow
	Notes []string
}

type htmlMeasuredRow struct {
	Name, Runs, Mean, CV, GC, Predicted, Measured, Times string
	Wild                                                 bool
}

// htmlMeasuredSection fills the page's measured section and its entry in the table of
// contents (after the configuration), when the study has measured runs.
func htmlMeasuredSection(p *htmlPage, r *Report, use func(id, what string) string) {
	m := r.Measured
	if m == nil || len(m.Configs) == 0 {
		return
	}
	hm := &htmlMeasured{Lead: "Measured with gctune verify on the real application (session " + m.Session +
		"): each configuration run alternately with the defaults, after one warm-up run each. The measured speedup is the geometric mean over rounds of the default run's time over the configuration's, with a 95 % Student t interval on the paired log ratios."}
	for _, c := range m.Configs {
		if c.Runs == 0 {
			continue
		}
		row := htmlMeasuredRow{Name: c.Name, Runs: numfmt.Count(c.Runs), Mean: numfmt.Seconds(c.MeanSeconds), CV: "—", GC: "—", Wild: c.Wild}
		if c.Name == "best" && c.Trial >= 0 {
			row.Name = fmt.Sprintf("best (trial %d)", c.Trial)
		}
		if c.Runs > 1 {
			row.CV = numfmt.Percent(c.CV)
		}
		if c.Stats != nil {
			if gc, ok := c.Stats.GC(); ok {
				row.GC = numfmt.Seconds(gc)
			}
		}
		if c.Name != verify.DefaultName {
			row.Predicted = numfmt.Speedup(c.PredictedSpeedup)
			if iv := c.PredictedInterval; iv != nil {
				row.Predicted += " [" + numfmt.Speedup(iv.Lo) + ", " + numfmt.Speedup(iv.Hi) + "]"
			}
			row.Measured = "—"
			if sp := c.Speedup; sp != nil {
				row.Measured = numfmt.Speedup(sp.Estimate)
				if sp.HasInterval() {
					row.Measured += " [" + numfmt.Speedup(sp.Low) + ", " + numfmt.Speedup(sp.High) + "]"
				}
			}
		}
		var ts []string
		for _, w := range c.WallSeconds {
			ts = append(ts, numfmt.Sig(w, 3, true))
		}
		row.Times = strings.Join(ts, ", ")
		if note := htmlComparisonNote(c.ConfigSummary); note != "" {
			hm.Notes = append(hm.Notes, note)
		}
		if c.Wild {
			hm.Notes = append(hm.Notes, fmt.Sprintf("The runs under %s vary wildly (coefficient of variation %s): the speedup is uncertain.", c.Name, numfmt.Plain(numfmt.Percent(c.CV))))
		}
		hm.Rows = append(hm.Rows, row)
	}
	if len(hm.Rows) == 0 {
		hm.Notes = append(hm.Notes, "No run of the session succeeded.")
	}
	if m.Failed > 0 {
		hm.Notes = append(hm.Notes, fmt.Sprintf("%s of the session failed (exit code or timeout): not counted.", numfmt.Plural(m.Failed, "run", "runs")))
	}
	p.Measured = hm
	use(htmlIDMeasured, "a section")
	p.TOC = append(p.TOC[:1:1], append([]htmlTOCEntry{{htmlIDMeasured, "Predicted against measured"}}, p.TOC[1:]...)...)
}
