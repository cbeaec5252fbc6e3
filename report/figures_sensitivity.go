package report

import (
	"fmt"
	"math"

	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/internal/plotkit"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ---- Sensitivity ----

// figSweepPanel is one sweep, ready to draw.
type figSweepPanel struct {
	sw          diagnose.Sweep
	segments    []plotter.XYs // feasible runs of points, broken at infeasible or NaN ones
	points      plotter.XYs   // all feasible points
	infeasible  plotter.XYs   // infeasible points with a finite objective, within the axis
	offScale    plotter.XYs   // infeasible points above the axis, on its top edge
	failed      int           // points with no objective (NaN)
	logX        bool
	axis        figValueAxis
	showBest    bool
	showDefault bool
}

func newFigSweepPanel(sw diagnose.Sweep) figSweepPanel {
	sp := figSweepPanel{sw: sw, logX: sw.Log}
	n := min(len(sw.Values), len(sw.Objective))
	var cur, infeasible plotter.XYs
	for i := range n {
		x, y := sw.Values[i], sw.Objective[i]
		ok := i < len(sw.Feasible) && sw.Feasible[i]
		if !plotkit.Finite(x) || (sp.logX && x <= 0) {
			continue
		}
		switch {
		case !plotkit.Finite(y):
			sp.failed++
			ok = false
		case !ok:
			infeasible = append(infeasible, plotter.XY{X: x, Y: y})
		default:
			cur = append(cur, plotter.XY{X: x, Y: y})
			sp.points = append(sp.points, plotter.XY{X: x, Y: y})
		}
		if !ok && len(cur) > 0 {
			sp.segments = append(sp.segments, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		sp.segments = append(sp.segments, cur)
	}
	sp.showBest = plotkit.Finite(sw.BestValue) && (!sp.logX || sw.BestValue > 0)
	sp.showDefault = plotkit.Finite(sw.DefaultValue) && (!sp.logX || sw.DefaultValue > 0)
	main := figYs(sp.points)
	if sp.showBest && plotkit.Finite(sw.BestObjective) {
		main = append(main, sw.BestObjective)
	}
	sp.axis = newFigValueAxis(main, figYs(infeasible))
	sp.infeasible, sp.offScale = sp.axis.split(infeasible)
	return sp
}

func (sp figSweepPanel) plot(yLabel string, rank int) *plot.Plot {
	sw := sp.sw
	label := sw.Label
	if label == "" {
		label = sw.Param
	}
	title := fmt.Sprintf("%d. %s: effect %s", rank, label, figEffect(sw.Effect))
	p := plotkit.NewPlot(title, label, yLabel)
	p.Title.TextStyle.Font.Size = 11
	if len(sp.points)+len(sp.infeasible)+len(sp.offScale) == 0 {
		p.Add(plotkit.Note{Text: "no feasible point"})
	}
	for _, seg := range sp.segments {
		p.Add(plotkit.Line(seg, figColTrial, 1.2, nil))
	}
	if len(sp.points) > 0 {
		p.Add(plotkit.Scatter(sp.points, draw.CircleGlyph{}, figColTrial, 2.2))
	}
	figAddInfeasible(p, nil, sp.infeasible, sp.offScale)
	// The best's solid line first, the default's dashed one over it: where the best keeps the
	// default value, both show.
	if sp.showBest {
		p.Add(plotkit.VLine{X: sw.BestValue, Style: plotkit.LineStyle(figColBest, 1.3, nil)})
	}
	if sp.showDefault {
		p.Add(plotkit.VLine{X: sw.DefaultValue, Style: plotkit.LineStyle(figColDefault, 1.3, plotkit.Dashed)})
	}
	if sp.showBest && plotkit.Finite(sw.BestObjective) && (!sp.axis.log || sw.BestObjective > 0) {
		p.Add(plotkit.Scatter(plotter.XYs{{X: sw.BestValue, Y: sw.BestObjective}}, draw.RingGlyph{}, figColBest, 5))
	}
	if sp.logX {
		p.X.Scale = plot.LogScale{}
	}
	switch {
	case sw.Bytes:
		p.X.Tick.Marker = plotkit.BytesTicks{Log: sp.logX}
	case sp.logX:
		p.X.Tick.Marker = plotkit.LogTicks{Labels: 4} // a third of the page wide
	}
	sp.axis.apply(p)
	return p
}

func figSensitivity(r *Report) Figure {
	panels := make([]figSweepPanel, 0, len(r.Sensitivity))
	for _, sw := range r.Sensitivity {
		panels = append(panels, newFigSweepPanel(sw))
	}
	n := len(panels)
	cols := min(n, 3)
	if n == 4 {
		cols = 2
	}
	rows := 1
	if n > 0 {
		rows = (n + cols - 1) / cols
	}
	height := max(figPanelHeight*vg.Length(rows)+0.3*vg.Inch, figWideHeight)
	var failed, infeasible, offScale int
	for _, sp := range panels {
		failed += sp.failed
		infeasible += len(sp.infeasible)
		offScale += len(sp.offScale)
	}
	// What the sweeps are around: the recommended configuration, or trial N as it is.
	around, aroundWord := "the recommended configuration's", "recommended"
	if r.Recommendation == nil {
		around, aroundWord = fmt.Sprintf("trial %d's", r.Search.Best.Number), fmt.Sprintf("trial %d's", r.Search.Best.Number)
	}
	caption := fmt.Sprintf("The objective as one parameter varies with the other four at %s values, one panel ", around) +
		"per parameter, the most influential first (effect: how much worse the worst feasible value is than " +
		fmt.Sprintf("the best); the solid %s line marks the %s value, the dashed %s line the default's.",
			figColBest.Word, aroundWord, figColDefault.Word)
	if infeasible+offScale > 0 {
		caption += fmt.Sprintf(" %s crosses are infeasible points (triangles on a panel's top edge: off the scale).", upperFirst(figColInfeasible.Word))
	}
	if failed > 0 {
		caption += " A gap in a line is a point where the simulation failed."
	}
	vl := figValueLabel(&r.Search)
	return Figure{
		Name: "sensitivity-sweeps", Section: SectionSensitivity, Workload: -1,
		Title:   "Sensitivity to each parameter",
		Caption: caption,
		render: figCanvas(figWideWidth, height, func(dc draw.Canvas) error {
			if n == 0 {
				p := plotkit.NewPlot("Sensitivity", "parameter value", vl)
				p.Add(plotkit.Note{Text: "no sensitivity sweeps"})
				return plotkit.DrawGrid(dc, [][]*plot.Plot{{p}}, nil, nil)
			}
			grid := make([][]*plot.Plot, rows)
			for r := range grid {
				grid[r] = make([]*plot.Plot, cols)
			}
			for i, sp := range panels {
				yl := ""
				if i%cols == 0 {
					yl = vl
				}
				grid[i/cols][i%cols] = sp.plot(yl, i+1)
			}
			leg := plotkit.NewLegend()
			leg.Add("feasible point", plotkit.Scatter(plotter.XYs{{}}, draw.CircleGlyph{}, figColTrial, 2.2), plotkit.Line(nil, figColTrial, 1.2, nil))
			if infeasible > 0 {
				leg.Add("infeasible point", plotkit.Scatter(plotter.XYs{{}}, draw.CrossGlyph{}, figColInfeasible, 2.5))
			}
			if offScale > 0 {
				leg.Add("infeasible, off scale", plotkit.Scatter(plotter.XYs{{}}, draw.TriangleGlyph{}, figColInfeasible, 3))
			}
			leg.Add(aroundWord+" value", plotkit.VLine{Style: plotkit.LineStyle(figColBest, 1.3, nil)})
			leg.Add("default value", plotkit.VLine{Style: plotkit.LineStyle(figColDefault, 1.3, plotkit.Dashed)})
			var spare *[2]int
			if n%cols != 0 {
				spare = &[2]int{rows - 1, cols - 1}
			}
			return plotkit.DrawGrid(dc, grid, leg, spare)
		}),
	}
}

// figEffect writes a sweep's effect (a fraction) as a signed percentage: "+35%".
func figEffect(e float64) string {
	if !plotkit.Finite(e) {
		return "n/a"
	}
	pct := e * 100
	if math.Abs(pct) >= 10 {
		return fmt.Sprintf("%+.0f%%", pct)
	}
	return fmt.Sprintf("%+.1f%%", pct)
}
