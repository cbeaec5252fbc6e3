package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/plotkit"
)

// SectionHolds is the section of the figures of "How far the answer holds" (diagnose/holds.go).
const SectionHolds = "holds"

// Colours of the section's figures beside the report's own: cliffs in Okabe-Ito's reddish
// purple, the kept margin a translucent green, the tolerance black.
var (
	figColCliff  = plotkit.Colour{C: color.RGBA{R: 204, G: 121, B: 167, A: 255}, Word: "purple"}
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

// figSpread draws each perturbed run as a dot: the recommendation's and the defaults' values
// on one panel, the recommendation's speedup on the other, each with the stated interval
// (a bar under the dots), the statistic (a square) and the profiled run exactly as recorded (a
// ring).
func figSpread(r *Report) Figure {
	rec := r.Recommendation
	rb := rec.Robust
	vl := figValueLabel(&r.Search)
	defNominal := rb.NominalValue * rb.NominalSpeedup
	runs := "perturbed runs"
	if rb.Scenario != "" {
		runs = rb.Scenario.Words()
	}
	caption := fmt.Sprintf("Each dot is one of the %d %s the forecast is stated over (the same runs for both "+
		"configurations): left the %s with the recommendation (%s) and the defaults (%s), right the "+
		"recommendation's speedup on the same run. The bar under the dots is the stated interval (%s of runs), "+
		"the square the %s the report states, the ring the single simulation of the profile exactly as recorded.",
		rb.Replicas, runs, vl, figColBest.Word, figColDefault.Word, numfmt.PercentText(rb.ValueInterval.Coverage), rb.Statistic)
	return Figure{
		Name: "holds-spread", Section: SectionHolds, Workload: -1,
		Title:   "The spread of the " + runs,
		Caption: caption,
		render: figCanvas(figWideWidth, 3*vg.Inch, func(dc draw.Canvas) error {
			left := plotkit.NewPlot(fmt.Sprintf("Over %d %s", rb.Replicas, runs), vl, "")
			all := append(append([]float64{}, rb.Values...), rb.DefaultValues...)
			rows := []struct {
				y                float64
				values           []float64
				iv               [2]float64
				stat, nominal    float64
				col, colInterval color.Color
			}{
				{0, rb.DefaultValues, [2]float64{rb.DefaultInterval().Lo, rb.DefaultInterval().Hi}, rec.DefaultValue, defNominal, figColDefault, figColDefaultLight},
				{1, rb.Values, [2]float64{rb.ValueInterval.Lo, rb.ValueInterval.Hi}, rec.Value, rb.NominalValue, figColBest, figColBestLight},
			}
			for _, row := range rows {
				figSpreadRow(left, row.y, row.values, row.iv, row.stat, row.nominal, row.col, row.colInterval)
				all = append(all, row.iv[0], row.iv[1], row.nominal)
			}
			left.Y.Min, left.Y.Max = -0.6, 1.6
			left.Y.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "defaults"}, {Value: 1, Label: "recommended"}}
			if plotkit.UseLog(all) {
				left.X.Scale = plot.LogScale{}
				left.X.Tick.Marker = plotkit.LogTicks{Format: plotkit.Num}
			}
			right := plotkit.NewPlot("Speedup on the same run", "speedup over the defaults (×)", "")
			figSpreadRow(right, 0, rb.Speedups, [2]float64{rb.SpeedupInterval.Lo, rb.SpeedupInterval.Hi}, rec.Speedup, rb.NominalSpeedup, figColBest, figColBestLight)
			right.Y.Min, right.Y.Max = -0.6, 0.6
			if lo, hi := rb.SpeedupInterval.Lo, rb.SpeedupInterval.Hi; plotkit.Finite(lo) && plotkit.Finite(hi) && hi > lo {
				// The interval's ends inside the frame, with room around them.
				pad := 0.08 * (hi - lo)
				right.X.Min, right.X.Max = math.Min(right.X.Min, lo-pad), math.Max(right.X.Max, hi+pad)
			}
			right.Y.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "recommended"}}
			leg := plotkit.NewLegend()
			leg.Add("one run", plotkit.Scatter(plotter.XYs{{}}, draw.CircleGlyph{}, figColTrial, 2.2))
			leg.Add(fmt.Sprintf("interval, %s of runs", numfmt.PercentText(rb.ValueInterval.Coverage)), plotkit.Line(nil, figColBestLight, 4, nil))
			leg.Add(rb.Statistic+" (stated)", plotkit.Scatter(plotter.XYs{{}}, draw.BoxGlyph{}, figColTrial, 3.5))
			leg.Add("profile as recorded", plotkit.Scatter(plotter.XYs{{}}, draw.RingGlyph{}, figColTrial, 4.5))
			return plotkit.DrawGrid(dc, [][]*plot.Plot{{left, right}}, leg, nil)
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
		p.Add(plotkit.Scatter(plotter.XYs{{X: nominal, Y: y}}, draw.RingGlyph{}, col, 4.5))
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
	caption := fmt.Sprintf("What moving one kept parameter by a share of its recommended value costs, the others as recommended, judged on %s. "+
		"The dotted %s line is the tolerance (%s); a move that costs more is a cliff (%s). The %s line is the "+
		"recommended value and the %s band the margin the recommendation keeps on each side; filled dots are the moves "+
		"it measured, open ones the report's. Triangles on a panel's top edge are off the scale or infeasible.",
		judged, figColTol.Word, numfmt.PercentText(h.Tolerance), figColCliff.Word, figColBest.Word, plotkit.BluishGreen.Word)
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
			leg.Add("measured for the margin", plotkit.Scatter(plotter.XYs{{}}, draw.CircleGlyph{}, figColTrial, 2.5))
			leg.Add("simulated for the report", plotkit.Scatter(plotter.XYs{{}}, draw.RingGlyph{}, figColTrial, 2.8))
			cliffs := false
			for _, ls := range h.Landscapes {
				for _, pt := range ls.Points {
					cliffs = cliffs || pt.Cliff
				}
			}
			if cliffs {
				leg.Add("cliff (tolerance or more)", plotkit.Scatter(plotter.XYs{{}}, draw.CircleGlyph{}, figColCliff, 2.8))
			}
			leg.Add("tolerance", plotkit.HLine{Style: plotkit.LineStyle(figColTol, 1, plotkit.Dotted)})
			leg.Add("recommended value", plotkit.VLine{Style: plotkit.LineStyle(figColBest, 1.3, nil)})
			leg.Add("kept margin", figBand{})
			var spare *[2]int
			if n%cols != 0 {
				spare = &[2]int{rows - 1, cols - 1}
			}
			return plotkit.DrawGrid(dc, grid, leg, spare)
		}),
	}
}

// figLandscapeTop is the highest cost, as a fraction, a landscape's axis shows at least up to
// and at most: above, points sit on the top edge.
const (
	figLandscapeTopMin = 0.005
	figLandscapeTopMax = 0.5
)

func figLandscapePanel(ls diagnose.Landscape, tol float64, yLabel string) *plot.Plot {
	// x is the move in percent of the recommended value (the same scale on every panel), the
	// value itself in the title.
	p := plotkit.NewPlot(ls.Label+" "+numfmt.Plain(htmlParam(ls.Param, ls.Bytes, ls.Value)), "move (% of the recommended value)", yLabel)
	move := func(v float64) float64 { return 100 * (v/ls.Value - 1) }
	p.Title.TextStyle.Font.Size = 11
	top := max(figLandscapeTopMin, 3*tol)
	lo := -tol
	for _, pt := range ls.Points {
		if pt.Feasible {
			top = max(top, min(pt.Cost, figLandscapeTopMax))
			lo = min(lo, pt.Cost)
		}
	}
	top *= 1.08
	if ls.HasMargin {
		from, to := -100*ls.Down, 100*ls.Up
		p.Add(figBand{From: from, To: to, Lo: 100 * lo, Hi: 100 * top})
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
		p.Add(plotkit.Scatter(simulated, draw.RingGlyph{}, figColTrial, 2.8))
	}
	if len(simulatedCliffs) > 0 {
		p.Add(plotkit.Scatter(simulatedCliffs, draw.RingGlyph{}, figColCliff, 2.8))
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
