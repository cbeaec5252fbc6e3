package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/plotkit"
	"github.com/gctune/gctune/uncertainty"
)

// SectionHolds is the section of the figures of "How far the answer holds" (diagnose/holds.go).
const SectionHolds = "holds"

// Colours of the section's figures beside the report's own: cliffs in Okabe-Ito's reddish
// purple, the kept margin a translucent green, the tolerance black.
var (
	figColCliff  = plotkit.ReddishPurple
	figColMargin = plotkit.Transparent(plotkit.BluishGreen, 0.18)
	figColTol    = plotkit.Black
)

// figHolds returns the section's figures: the spread of the perturbed runs (with an
// uncertainty model) and the landscape along the kept parameters (when any is kept).
func figHolds(r *Report) []Figure {
	var figs []Figure
	if rec := r.Recommendation; rec != nil && rec.Robust != nil && len(rec.Robust.Values) > 0 {
		figs = append(figs, figSpread(r))
	}
	if r.Holds != nil && len(r.Holds.Landscapes) > 0 {
		figs = append(figs, figLandscape(r))
	}
	return figs
}

// figSpread draws each perturbed run as a dot, one panel each for the recommendation's
// value, the defaults' and the recommendation's speedup, every panel on its own axis (on one
// axis from 400 to 4,800 s the recommendation's interval was a few pixels wide): under the
// dots the stated interval (a bar), the statistic (a square) and the profiled run exactly as
// recorded (a ring).
func figSpread(r *Report) Figure {
	rec := r.Recommendation
	rb := rec.Robust
	vl := figValueLabel(&r.Search)
	defNominal := rb.NominalValue * rb.NominalSpeedup
	runs := "perturbed runs"
	if rb.Scenario != "" {
		runs = rb.Scenario.Words()
	}
	type panel struct {
		title, xLabel string
		values        []float64
		iv            uncertainty.Interval
		stat, nominal float64
		col, light    plotkit.Colour
	}
	panels := []panel{
		{"with the recommendation", vl, rb.Values, rb.ValueInterval, rec.Value, rb.NominalValue, figColBest, figColBestLight},
		{"with the defaults", vl, rb.DefaultValues, rb.DefaultInterval(), rec.DefaultValue, defNominal, figColDefault, figColDefaultLight},
		{"speedup on the same run", "speedup over the defaults (×)", rb.Speedups, rb.SpeedupInterval, rec.Speedup, rb.NominalSpeedup, figColBest, figColBestLight},
	}
	// A slowdown against the defaults is 1 on every run under them: nothing to draw.
	flatDefaults := len(rb.DefaultValues) > 0 && slices.Min(rb.DefaultValues) == slices.Max(rb.DefaultValues)
	if flatDefaults {
		panels = slices.Delete(panels, 1, 2)
	}
	// The coverage the legend states, each interval's own: one figure when they agree.
	covs := map[string]bool{}
	var covList []string
	for _, pn := range panels {
		c := numfmt.PercentText(pn.iv.Coverage)
		if !covs[c] {
			covs[c] = true
			covList = append(covList, c)
		}
	}
	coverage := strings.Join(covList, ", ")
	if len(covList) > 1 {
		coverage = "each panel's: " + coverage
	}
	caption := fmt.Sprintf("Each dot is one of the %d %s the forecast is stated over (the same runs for both "+
		"configurations), each panel on its own axis: the %s with the recommendation (%s)", rb.Replicas, runs, vl, figColBest.Word)
	if flatDefaults {
		caption += fmt.Sprintf(" (against the defaults, whose value is %s on every run)", numfmt.Sig(rb.DefaultValues[0], 3, true))
	} else {
		caption += fmt.Sprintf(", with the defaults (%s)", figColDefault.Word)
	}
	caption += fmt.Sprintf(", and the recommendation's speedup on the same run. The bar under the dots is the stated interval (%s of runs), "+
		"the square the %s the report states, the ring the single simulation of the profile exactly as recorded.", coverage, rb.Statistic)
	return Figure{
		Name: "holds-spread", Section: SectionHolds, Workload: -1,
		Title:   "The spread of the " + runs,
		Caption: caption,
		render: figCanvas(figWideWidth, 2.6*vg.Inch, func(dc draw.Canvas) error {
			var row []*plot.Plot
			for _, pn := range panels {
				p := plotkit.NewPlot(upperFirst(pn.title), pn.xLabel, "")
				figSpreadRow(p, 0, pn.values, [2]float64{pn.iv.Lo, pn.iv.Hi}, pn.stat, pn.nominal, pn.col, pn.light)
				p.Y.Min, p.Y.Max = -0.6, 0.6
				p.HideY()
				if lo, hi := pn.iv.Lo, pn.iv.Hi; plotkit.Finite(lo) && plotkit.Finite(hi) && hi > lo {
					// The interval's ends inside the frame, with room around them.
					pad := 0.08 * (hi - lo)
					p.X.Min, p.X.Max = math.Min(p.X.Min, lo-pad), math.Max(p.X.Max, hi+pad)
				}
				row = append(row, p)
			}
			pair := func(mk func(c plotkit.Colour) plot.Thumbnailer) plotkit.SideBySide {
				if flatDefaults {
					return plotkit.SideBySide{mk(figColBest)}
				}
				return plotkit.SideBySide{mk(figColBest), mk(figColDefault)}
			}
			light := map[plotkit.Colour]plotkit.Colour{figColBest: figColBestLight, figColDefault: figColDefaultLight}
			leg := plotkit.NewLegend()
			leg.Add("one run", pair(func(c plotkit.Colour) plot.Thumbnailer {
				return plotkit.Scatter(plotter.XYs{{}}, draw.CircleGlyph{}, c, 2.2)
			}))
			leg.Add(fmt.Sprintf("interval, %s of runs", coverage), pair(func(c plotkit.Colour) plot.Thumbnailer {
				return plotkit.Line(nil, light[c], 4, nil)
			}))
			leg.Add(rb.Statistic+" (stated)", plotkit.Scatter(plotter.XYs{{}}, draw.BoxGlyph{}, figColTrial, 3.5))
			leg.Add("profile as recorded", pair(func(c plotkit.Colour) plot.Thumbnailer {
				return plotkit.Scatter(plotter.XYs{{}}, figLandscapeRing, c, 4.5)
			}))
			return plotkit.DrawGrid(dc, [][]*plot.Plot{row}, leg, nil)
		}),
	}
}

// figSpreadRow draws one row of the spread at height y.
func figSpreadRow(p *plot.Plot, y float64, values []float64, iv [2]float64, stat, nominal float64, col, colInterval color.Color) {
	if plotkit.Finite(iv[0]) && plotkit.Finite(iv[1]) {
		p.Add(plotkit.Line(plotter.XYs{{X: iv[0], Y: y - 0.28}, {X: iv[1], Y: y - 0.28}}, colInterval, 4, nil))
	}
	var dots plotter.XYs
	for i, v := range values {
		if plotkit.Finite(v) {
			// Spread the dots over a band so equal values stay visible.
			dots = append(dots, plotter.XY{X: v, Y: y + 0.06*float64(i%5-2)})
		}
	}
	if len(dots) > 0 {
		p.Add(plotkit.Scatter(dots, draw.CircleGlyph{}, col, 2.2))
	}
	if plotkit.Finite(stat) {
		p.Add(plotkit.Scatter(plotter.XYs{{X: stat, Y: y}}, draw.BoxGlyph{}, figColTrial, 3.5))
	}
	if plotkit.Finite(nominal) {
		p.Add(plotkit.Scatter(plotter.XYs{{X: nominal, Y: y}}, figLandscapeRing, col, 4.5))
	}
}

// figLandscape draws, per kept parameter, the cost of moving it against the recommendation,
// with the tolerance, the cliffs and the kept margin.
func figLandscape(r *Report) Figure {
	h := r.Holds
	n := len(h.Landscapes)
	cols := min(n, 3)
	rows := (n + cols - 1) / cols
	judged := "the single simulation of the profile (the study has no uncertainty model)"
	if h.Replicas > 0 {
		judged = fmt.Sprintf("the %s over the first %d perturbed runs, as the recommendation judged its margins", h.Statistic, h.Replicas)
	}
	var marks figLandscapeMarks
	for _, ls := range h.Landscapes {
		marks.add(ls, h.Tolerance)
	}
	caption := fmt.Sprintf("What moving one kept parameter by a share of its recommended value costs (x: the move in %% of that value), the others as recommended, judged on %s. "+
		"The dotted %s line is the tolerance (%s); a move that costs it or more is a cliff, drawn in %s. The %s line is the "+
		"recommended value",
		judged, figColTol.Word, numfmt.PercentText(h.Tolerance), figColCliff.Word, figColBest.Word)
	if marks.margin {
		caption += fmt.Sprintf(" and the %s band the margin kept on each side, measured over every point drawn: it ends where the "+
			"cost crosses the tolerance before the first cliff, so no cliff lies inside it. Filled dots are the moves the "+
			"recommendation measured, rings the report's finer ones.", plotkit.BluishGreen.Word)
	} else {
		caption += "; the recommendation measured no margin (the study has no uncertainty model): every point is the report's."
	}
	if marks.off {
		caption += fmt.Sprintf(" %s triangles on a panel's top edge are cliffs off the scale (more than +%s) or infeasible.",
			upperFirst(figColCliff.Word), numfmt.PercentText(figLandscapeTopMax))
	}
	return Figure{
		Name: "holds-landscape", Section: SectionHolds, Workload: -1,
		Title:   "The landscape around the recommendation",
		Caption: caption,
		render: figCanvas(figWideWidth, max(figPanelHeight*vg.Length(rows)+0.3*vg.Inch, 3.4*vg.Inch), func(dc draw.Canvas) error {
			grid := make([][]*plot.Plot, rows)
			for i := range grid {
				grid[i] = make([]*plot.Plot, cols)
			}
			for i, ls := range h.Landscapes {
				yl := ""
				if i%cols == 0 {
					yl = "cost against the recommendation (%)"
				}
				grid[i/cols][i%cols] = figLandscapePanel(ls, h.Tolerance, yl)
			}
			leg := plotkit.NewLegend()
			if marks.measured {
				leg.Add("measured for the margin", plotkit.Scatter(plotter.XYs{{}}, draw.CircleGlyph{}, figColTrial, 2.5))
			}
			if marks.simulated {
				leg.Add("simulated for the report", plotkit.Scatter(plotter.XYs{{}}, figLandscapeRing, figColTrial, 2.8))
			}
			if marks.measuredCliff {
				leg.Add("cliff, measured", plotkit.Scatter(plotter.XYs{{}}, draw.CircleGlyph{}, figColCliff, 2.8))
			}
			if marks.simulatedCliff {
				leg.Add("cliff, simulated", plotkit.Scatter(plotter.XYs{{}}, figLandscapeRing, figColCliff, 2.8))
			}
			if marks.off {
				leg.Add("cliff off the scale", plotkit.Scatter(plotter.XYs{{}}, draw.TriangleGlyph{}, figColCliff, 3))
			}
			leg.Add("tolerance", plotkit.HLine{Style: plotkit.LineStyle(figColTol, 1, plotkit.Dotted)})
			leg.Add("recommended value", plotkit.VLine{Style: plotkit.LineStyle(figColBest, 1.3, nil)})
			if marks.margin {
				leg.Add("kept margin", figBand{})
			}
			var spare *[2]int
			if n%cols != 0 {
				spare = &[2]int{rows - 1, cols - 1}
			}
			return plotkit.DrawGrid(dc, grid, leg, spare)
		}),
	}
}

// figLandscapeRing is the mark of a point the report simulated: a ring stroked wide enough
// that its colour reads (a purple cliff, a grey point within the tolerance).
var figLandscapeRing = plotkit.ThickRing{Width: 1.3}

// figLandscapeMarks says which marks the landscape's panels draw, for the legend and the
// caption.
type figLandscapeMarks struct {
	measured, simulated, measuredCliff, simulatedCliff, off, margin bool
}

func (m *figLandscapeMarks) add(ls diagnose.Landscape, tol float64) {
	top := figLandscapeTop(ls, tol)
	m.margin = m.margin || ls.HasMargin
	for _, pt := range ls.Points {
		measured := pt.Step || pt.Factor == 0
		switch {
		case !pt.Feasible || pt.Cost > top:
			m.off = true
		case pt.Cliff && measured:
			m.measuredCliff = true
		case pt.Cliff:
			m.simulatedCliff = true
		case measured:
			m.measured = true
		default:
			m.simulated = true
		}
	}
}

// figLandscapeTop is the highest cost, as a fraction, a landscape's axis shows at least up to
// and at most: above, points sit on the top edge.
const (
	figLandscapeTopMin = 0.005
	figLandscapeTopMax = 0.5
)

// figLandscapeTop is the top of a landscape panel's cost axis (a fraction): the highest
// feasible cost up to figLandscapeTopMax, at least three tolerances, with room above.
func figLandscapeTop(ls diagnose.Landscape, tol float64) float64 {
	top := max(figLandscapeTopMin, 3*tol)
	for _, pt := range ls.Points {
		if pt.Feasible {
			top = max(top, min(pt.Cost, figLandscapeTopMax))
		}
	}
	return top * 1.08
}

func figLandscapePanel(ls diagnose.Landscape, tol float64, yLabel string) *plot.Plot {
	// x is the move in percent of the recommended value (the same scale on every panel, named
	// in the caption: a label per panel overlapped its neighbours), the value itself in the
	// title.
	p := plotkit.NewPlot(ls.Label+" "+numfmt.Plain(htmlParam(ls.Param, ls.Bytes, ls.Value)), "move (%)", yLabel)
	move := func(v float64) float64 { return 100 * (v/ls.Value - 1) }
	p.Title.TextStyle.Font.Size = 11
	top := figLandscapeTop(ls, tol)
	lo := -tol
	for _, pt := range ls.Points {
		if pt.Feasible {
			lo = min(lo, pt.Cost)
		}
	}
	if ls.HasMargin {
		from, to := -100*ls.Down, 100*ls.Up
		p.Add(figBand{From: from, To: to, Lo: 100 * lo * 1.08, Hi: 100 * top})
	}
	var line, measured, simulated, cliffs, simulatedCliffs, off plotter.XYs
	for _, pt := range ls.Points {
		if !pt.Feasible || pt.Cost > top {
			off = append(off, plotter.XY{X: move(pt.Value), Y: 100 * top})
			continue
		}
		xy := plotter.XY{X: move(pt.Value), Y: 100 * pt.Cost}
		line = append(line, xy)
		switch {
		case pt.Cliff && (pt.Step || pt.Factor == 0):
			cliffs = append(cliffs, xy)
		case pt.Cliff:
			simulatedCliffs = append(simulatedCliffs, xy)
		case pt.Step || pt.Factor == 0:
			measured = append(measured, xy)
		default:
			simulated = append(simulated, xy)
		}
	}
	if len(line) > 1 {
		p.Add(plotkit.Line(line, figColTrial, 1, nil))
	}
	p.Add(plotkit.HLine{Y: 100 * tol, Style: plotkit.LineStyle(figColTol, 1, plotkit.Dotted)})
	p.Add(plotkit.VLine{X: 0, Style: plotkit.LineStyle(figColBest, 1.3, nil)})
	if len(measured) > 0 {
		p.Add(plotkit.Scatter(measured, draw.CircleGlyph{}, figColTrial, 2.5))
	}
	if len(simulated) > 0 {
		p.Add(plotkit.Scatter(simulated, figLandscapeRing, figColTrial, 2.8))
	}
	if len(simulatedCliffs) > 0 {
		p.Add(plotkit.Scatter(simulatedCliffs, figLandscapeRing, figColCliff, 2.8))
	}
	if len(cliffs) > 0 {
		p.Add(plotkit.Scatter(cliffs, draw.CircleGlyph{}, figColCliff, 2.8))
	}
	if len(off) > 0 {
		p.Add(plotkit.Scatter(off, draw.TriangleGlyph{}, figColCliff, 3))
	}
	p.Y.Min, p.Y.Max = 100*lo*1.08, 100*top
	return p
}

// figBand shades the x range [From, To] from Lo to Hi (data units): the kept margin. Its zero
// value draws only a legend swatch.
type figBand struct{ From, To, Lo, Hi float64 }

// Plot implements plot.Plotter.
func (b figBand) Plot(c draw.Canvas, p *plot.Plot) {
	if !(b.To > b.From) {
		return
	}
	tx, ty := p.Transforms(&c)
	x0, x1 := tx(math.Max(b.From, p.X.Min)), tx(math.Min(b.To, p.X.Max))
	y0, y1 := ty(math.Max(b.Lo, p.Y.Min)), ty(math.Min(b.Hi, p.Y.Max))
	c.FillPolygon(figColMargin, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
}

// DataRange implements plot.DataRanger: the band spans its x range only (the y range is the
// axis's).
func (b figBand) DataRange() (xmin, xmax, ymin, ymax float64) {
	if !(b.To > b.From) {
		return math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	}
	return b.From, b.To, math.Inf(1), math.Inf(-1)
}

// Thumbnail implements plot.Thumbnailer.
func (figBand) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(figColMargin, []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}})
}
