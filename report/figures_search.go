package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/plotkit"
	"github.com/gctune/gctune/recommend"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// ---- Search figures ----

// figCompleteTrials returns the complete trials with a finite value, by number.
func figCompleteTrials(s *Search) []Trial {
	var out []Trial
	for _, t := range s.Trials {
		if t.State == "complete" && plotkit.Finite(t.Value) {
			out = append(out, t)
		}
	}
	slices.SortStableFunc(out, func(a, b Trial) int { return a.Number - b.Number })
	return out
}

func figValueLabel(s *Search) string {
	if s.ValueLabel != "" {
		return s.ValueLabel
	}
	return "objective"
}

// figValueText writes an objective value with its unit, as the page does: "4,477 s", or a
// slowdown "0.1357×".
func figValueText(r *Report, v float64) string {
	if htmlObjectiveInSeconds(r) {
		return numfmt.SecondsText(v)
	}
	return numfmt.Sig(v, 4, true) + "×"
}

// figMarkedTrials are the trials the search figures single out, each drawn on its own dot
// (the values the search stored, the same measure as every other dot): the fastest feasible
// trial, and the reported one (the trial the recommendation starts from, or --trial N's).
type figMarkedTrials struct {
	fastest, reported Trial
	hasFastest        bool
	hasReported       bool
	// recommended says the reported trial is the recommendation's; changed that the
	// recommendation is not that trial exactly (changes put back, or moved).
	recommended, changed bool
}

func newFigMarkedTrials(r *Report, trials []Trial) figMarkedTrials {
	var m figMarkedTrials
	for _, t := range trials {
		if t.Feasible && (!m.hasFastest || t.Value < m.fastest.Value) {
			m.fastest, m.hasFastest = t, true
		}
	}
	s := &r.Search
	if s.Best.State != "complete" || !s.Best.Feasible {
		return m
	}
	for _, t := range trials {
		if t.Number == s.Best.Number {
			m.reported, m.hasReported = t, true
		}
	}
	if rec := r.Recommendation; rec != nil && m.hasReported {
		m.recommended = true
		m.changed = len(rec.PutBack) > 0 || rec.Point != m.reported.Point.Rounded()
	}
	return m
}

// same says the fastest trial is the reported one.
func (m figMarkedTrials) same() bool {
	return m.hasFastest && m.hasReported && m.fastest.Number == m.reported.Number
}

// reportedWord names the reported trial: "recommended", or "reported" for --trial N.
func (m figMarkedTrials) reportedWord() string {
	if m.recommended {
		return "recommended"
	}
	return "reported"
}

// add marks the trials on p at xy(trial) and names them in leg: the fastest with a wide
// purple ring, the reported one with a blue ring (inside it when they are one trial: then
// only the blue one is drawn, named for both).
func (m figMarkedTrials) add(r *Report, p *plot.Plot, leg *plot.Legend, xy func(Trial) (plotter.XY, bool)) {
	if m.hasFastest && !m.same() {
		if pt, ok := xy(m.fastest); ok {
			sc := plotkit.Scatter(plotter.XYs{pt}, figMarkFastest, figColFastest, 7)
			p.Add(sc)
			leg.Add(fmt.Sprintf("fastest: trial %d, %s", m.fastest.Number, figValueText(r, m.fastest.Value)), sc)
		}
	}
	if !m.hasReported {
		return
	}
	pt, ok := xy(m.reported)
	if !ok {
		return
	}
	sc := plotkit.Scatter(plotter.XYs{pt}, figMarkReported, figColBest, 5)
	p.Add(sc)
	label := fmt.Sprintf("%s: trial %d, %s", m.reportedWord(), m.reported.Number, figValueText(r, m.reported.Value))
	if m.same() {
		label = fmt.Sprintf("fastest and %s: trial %d, %s", m.reportedWord(), m.reported.Number, figValueText(r, m.reported.Value))
	}
	leg.Add(label, sc)
}

// caption says what the marks are.
func (m figMarkedTrials) caption(r *Report) string {
	var out string
	switch {
	case m.same():
		out = fmt.Sprintf(" The %s ring marks trial %d, the fastest trial and the %s one.", figColBest.Word, m.reported.Number, m.reportedWord())
	case m.hasReported && m.hasFastest:
		out = fmt.Sprintf(" The %s ring marks the %s trial, %d, and the wide %s ring the fastest, %d.",
			figColBest.Word, m.reportedWord(), m.reported.Number, figColFastest.Word, m.fastest.Number)
	case m.hasFastest:
		out = fmt.Sprintf(" The wide %s ring marks the fastest trial, %d.", figColFastest.Word, m.fastest.Number)
	}
	if m.recommended {
		rec := r.Recommendation
		out += fmt.Sprintf(" Each is drawn at the value the search stored for it; the recommendation's own forecast, %s, is the %s over the runs of How far the answer holds",
			figValueText(r, rec.Value), figRecommendationStatistic(rec))
		if m.changed {
			var how []string
			if n := len(rec.PutBack); n > 0 {
				how = append(how, numfmt.Plural(n, "change", "changes")+" put back")
			}
			if rec.Robust != nil && len(rec.Robust.Moves) > 0 {
				how = append(how, numfmt.Plural(len(rec.Robust.Moves), "parameter", "parameters")+" moved")
			}
			if len(how) == 0 {
				how = append(how, "its values as exported")
			}
			out += fmt.Sprintf(", for trial %d with %s (Apply it)", m.reported.Number, figJoinAnd(how))
		}
		out += "."
	}
	return out
}

// figRecommendationStatistic names how a recommendation's value is judged: "mean" over its
// runs, or "single simulation" without an uncertainty model.
func figRecommendationStatistic(rec *recommend.Recommendation) string {
	if rec.Robust == nil {
		return "single simulation"
	}
	return rec.Robust.Statistic
}

// Marks of the singled-out trials: rings of different sizes and colours, so that both show
// when they are one trial.
var (
	figMarkFastest  = plotkit.ThickRing{Width: 1.6}
	figMarkReported = plotkit.ThickRing{Width: 1.6}
)

func figProgress(r *Report) Figure {
	s := &r.Search
	trials := figCompleteTrials(s)
	var feasible, infeasible, bestSoFar plotter.XYs
	best := math.Inf(1)
	for _, t := range trials {
		pt := plotter.XY{X: float64(t.Number), Y: t.Value}
		if !t.Feasible {
			infeasible = append(infeasible, pt)
			continue
		}
		feasible = append(feasible, pt)
		if t.Value < best {
			best = t.Value
			bestSoFar = append(bestSoFar, plotter.XY{X: pt.X, Y: best})
		}
	}
	if len(bestSoFar) > 0 {
		if last := float64(trials[len(trials)-1].Number); last > bestSoFar[len(bestSoFar)-1].X {
			bestSoFar = append(bestSoFar, plotter.XY{X: last, Y: best})
		}
	}
	hasDefault := plotkit.Finite(s.DefaultValue)
	marks := newFigMarkedTrials(r, trials)
	axis := newFigValueAxis(figMainValues(s, figYs(feasible), hasDefault, false), figYs(infeasible))
	inRange, offScale := axis.split(infeasible)

	caption := fmt.Sprintf("Each complete trial's %s against its number (%d trials: %s rings feasible, %s crosses "+
		"infeasible), the best feasible value so far as a %s step line", lowerFirst(figValueLabel(s)), len(trials),
		figColTrial.Word, figColInfeasible.Word, figColBest.Word)
	if hasDefault {
		caption += fmt.Sprintf(", and the default configuration's value as a dashed %s line", figColDefault.Word)
	}
	caption += "."
	caption += marks.caption(r)
	caption += figOffScaleNote(offScale)
	if axis.log {
		caption += " The value axis is logarithmic."
	}

	return Figure{
		Name: "search-progress", Section: SectionSearch, Workload: -1,
		Title:   "Search progress",
		Caption: caption,
		render: figCanvas(figWideWidth, figWideHeight, func(dc draw.Canvas) error {
			p := plotkit.NewPlot("Search progress", "trial number", figValueLabel(s))
			leg := plotkit.NewLegend()
			if len(trials) == 0 {
				p.Add(plotkit.Note{Text: "no complete trials"})
			}
			figAddTrials(p, leg, feasible, inRange, offScale)
			if len(bestSoFar) > 0 {
				l := plotkit.Line(bestSoFar, figColBest, 1.5, nil)
				l.StepStyle = plotter.PostStep
				p.Add(l)
				leg.Add("best so far", l)
			}
			marks.add(r, p, leg, func(t Trial) (plotter.XY, bool) { return plotter.XY{X: float64(t.Number), Y: t.Value}, true })
			if hasDefault {
				h := plotkit.HLine{Y: s.DefaultValue, Style: plotkit.LineStyle(figColDefault, 1.5, plotkit.Dashed)}
				p.Add(h)
				leg.Add("defaults: "+figValueText(r, s.DefaultValue), h)
			}
			axis.apply(p)
			if len(trials) == 0 {
				p.X.Min, p.X.Max = 0, 1
			}
			return plotkit.DrawGrid(dc, [][]*plot.Plot{{p}}, leg, nil)
		}),
	}
}

// figOffScaleNote is the caption's note on the infeasible trials drawn on the top edge ("" when
// there are none).
func figOffScaleNote(offScale plotter.XYs) string {
	if len(offScale) > 0 {
		return " " + upperFirst(figColInfeasible.Word) + " triangles on the top edge are infeasible trials whose penalised value is off the scale."
	}
	return ""
}

// figAddTrials adds the feasible trials as rings, then the infeasible ones (figAddInfeasible).
func figAddTrials(p *plot.Plot, leg *plot.Legend, feasible, inRange, offScale plotter.XYs) {
	if len(feasible) > 0 {
		sc := plotkit.Scatter(feasible, draw.RingGlyph{}, figColTrial, 2.5)
		p.Add(sc)
		leg.Add("trial (feasible)", sc)
	}
	figAddInfeasible(p, leg, inRange, offScale)
}

// figAddInfeasible adds infeasible points: grey crosses where they are, grey triangles on the
// top edge for those off the scale.
func figAddInfeasible(p *plot.Plot, leg *plot.Legend, inRange, offScale plotter.XYs) {
	if len(inRange) > 0 {
		sc := plotkit.Scatter(inRange, draw.CrossGlyph{}, figColInfeasible, 2.5)
		p.Add(sc)
		if leg != nil {
			leg.Add("trial (infeasible)", sc)
		}
	}
	if len(offScale) > 0 {
		sc := plotkit.Scatter(offScale, draw.TriangleGlyph{}, figColInfeasible, 3)
		p.Add(sc)
		if leg != nil {
			leg.Add("infeasible, off scale", sc)
		}
	}
}

func figPareto(r *Report) Figure {
	s := &r.Search
	trials := figCompleteTrials(s)
	all := []float64{float64(s.DefaultFootprintBytes), float64(s.MaxFootprintBytes)}
	for _, t := range trials {
		all = append(all, float64(t.PeakFootprintBytes))
	}
	unit := plotkit.ChooseUnit(slices.Max(all))

	var feasible, infeasible, front plotter.XYs
	for _, t := range trials {
		if t.PeakFootprintBytes == 0 {
			continue
		}
		pt := plotter.XY{X: float64(t.PeakFootprintBytes) / unit.Div, Y: t.Value}
		if t.Feasible {
			feasible = append(feasible, pt)
		} else {
			infeasible = append(infeasible, pt)
		}
	}
	for _, t := range s.Pareto {
		if t.PeakFootprintBytes > 0 && plotkit.Finite(t.Value) {
			front = append(front, plotter.XY{X: float64(t.PeakFootprintBytes) / unit.Div, Y: t.Value})
		}
	}
	slices.SortStableFunc(front, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
	hasDefault := plotkit.Finite(s.DefaultValue) && s.DefaultFootprintBytes > 0
	marks := newFigMarkedTrials(r, trials)
	axis := newFigValueAxis(figMainValues(s, append(figYs(feasible), figYs(front)...), hasDefault, false), figYs(infeasible))
	inRange, offScale := axis.split(infeasible)

	caption := fmt.Sprintf("Each complete trial's %s against its peak footprint (%s rings feasible, %s crosses "+
		"infeasible); the %s line joins the Pareto front, the trials no other trial beats in both",
		lowerFirst(figValueLabel(s)), figColTrial.Word, figColInfeasible.Word, figColPareto.Word)
	if hasDefault {
		caption += fmt.Sprintf("; the %s square is the default configuration", figColDefault.Word)
	}
	if s.MaxFootprintBytes > 0 {
		caption += ", and the dotted vertical line the memory budget"
	}
	caption += "."
	caption += marks.caption(r)
	caption += figOffScaleNote(offScale)

	return Figure{
		Name: "search-pareto", Section: SectionSearch, Workload: -1,
		Title:   "Objective against memory",
		Caption: caption,
		render: figCanvas(figWideWidth, figWideHeight, func(dc draw.Canvas) error {
			p := plotkit.NewPlot("Objective against peak footprint", "peak footprint ("+unit.Name+")", figValueLabel(s))
			leg := plotkit.NewLegend()
			if len(feasible)+len(infeasible) == 0 {
				p.Add(plotkit.Note{Text: "no complete trials with a footprint"})
			}
			figAddTrials(p, leg, feasible, inRange, offScale)
			if len(front) > 0 {
				l := plotkit.Line(front, figColPareto, 1.5, nil)
				sc := plotkit.Scatter(front, draw.CircleGlyph{}, figColPareto, 3)
				p.Add(l, sc)
				leg.Add(fmt.Sprintf("Pareto front (%d)", len(front)), l, sc)
			}
			if hasDefault {
				sc := plotkit.Scatter(plotter.XYs{{X: float64(s.DefaultFootprintBytes) / unit.Div, Y: s.DefaultValue}}, draw.BoxGlyph{}, figColDefault, 5)
				p.Add(sc)
				leg.Add("defaults: "+figValueText(r, s.DefaultValue)+", "+figSize(float64(s.DefaultFootprintBytes)), sc)
			}
			marks.add(r, p, leg, func(t Trial) (plotter.XY, bool) {
				return plotter.XY{X: float64(t.PeakFootprintBytes) / unit.Div, Y: t.Value}, t.PeakFootprintBytes > 0
			})
			if s.MaxFootprintBytes > 0 {
				v := plotkit.VLine{X: float64(s.MaxFootprintBytes) / unit.Div, Style: plotkit.LineStyle(figColBudget, 1, plotkit.Dotted)}
				p.Add(v)
				leg.Add("budget "+plotkit.Bytes(float64(s.MaxFootprintBytes)), v)
			}
			axis.apply(p)
			if !math.IsInf(p.X.Min, 0) {
				p.X.Min = 0
			}
			return plotkit.DrawGrid(dc, [][]*plot.Plot{{p}}, leg, nil)
		}),
	}
}

// figValueAxis is the range of an axis of objective values, set by the values that matter
// (feasible ones, the default, the best) so that infeasible trials' penalised values do not
// squash it; infeasible values above it are drawn on its top edge.
type figValueAxis struct {
	lo, hi  float64
	log, ok bool
}

// newFigValueAxis fits the axis to main (or to others when main has no finite value), widened
// to the values of others that lie below main's top.
func newFigValueAxis(main, others []float64) figValueAxis {
	var vals []float64
	for _, v := range main {
		if plotkit.Finite(v) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		for _, v := range others {
			if plotkit.Finite(v) {
				vals = append(vals, v)
			}
		}
	}
	if len(vals) == 0 {
		return figValueAxis{}
	}
	top := slices.Max(vals)
	for _, v := range others {
		if plotkit.Finite(v) && v < top {
			vals = append(vals, v)
		}
	}
	a := figValueAxis{lo: slices.Min(vals), hi: top, log: plotkit.UseLogRatio(vals, figValueLogRatio), ok: true}
	if a.log {
		f := math.Max(math.Pow(a.hi/a.lo, 0.04), 1.05)
		// Both ends labelled: trials below the lowest label could not be read.
		a.lo, a.hi = plotkit.LogTicks{}.Bounds(a.lo/f, a.hi*f)
		return a
	}
	// A linear axis spans at least 4 % of its values, so that a knob that changes the objective
	// by a hundredth of a percent looks flat instead of filling the panel with noise.
	if minSpan := math.Max(0.04*math.Abs(a.hi), 1e-9); a.hi-a.lo < minSpan {
		mid := (a.hi + a.lo) / 2
		a.lo, a.hi = mid-minSpan/2, mid+minSpan/2
	}
	span := a.hi - a.lo
	a.lo, a.hi = a.lo-0.05*span, a.hi+0.05*span
	return a
}

// split returns the points within the axis and, moved onto its top edge, those above it.
func (a figValueAxis) split(pts plotter.XYs) (in, above plotter.XYs) {
	if !a.ok {
		return pts, nil
	}
	for _, pt := range pts {
		if pt.Y > a.hi {
			above = append(above, plotter.XY{X: pt.X, Y: a.hi})
		} else {
			in = append(in, pt)
		}
	}
	return in, above
}

func (a figValueAxis) apply(p *plot.Plot) {
	if !a.ok {
		return
	}
	if a.log {
		plotkit.SetLogY(p)
	}
	p.Y.Min, p.Y.Max = a.lo, a.hi
}

// figMainValues are the values an objective axis is scaled to: ys, plus the default's and the
// best's values when the figure draws them.
func figMainValues(s *Search, ys []float64, hasDefault, hasBest bool) []float64 {
	if hasDefault {
		ys = append(ys, s.DefaultValue)
	}
	if hasBest {
		ys = append(ys, s.Best.Value)
	}
	return ys
}

func figYs(xys plotter.XYs) []float64 {
	out := make([]float64, len(xys))
	for i, p := range xys {
		out[i] = p.Y
	}
	return out
}
