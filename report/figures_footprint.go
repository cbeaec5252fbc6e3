package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/plotkit"
)

// figShrinkShare is the smallest share of a run's peak footprint a shrink must give back to be
// marked and named on the footprint figure: smaller drops do not show at the figure's scale.
const figShrinkShare = 0.05

// figShrink is one shrink of old space (heapsim.EventShrink) on the footprint figure.
type figShrink struct {
	clockBytes, releasedBytes, afterBytes uint64
	// regrown says the run grew old space again at the same clock (the next event).
	regrown bool
}

// figShrinks returns run's shrinks that give back at least figShrinkShare of its peak
// footprint, and how many smaller ones it has with their largest size.
func figShrinks(run *diagnose.Run) (big []figShrink, small int, smallMaxBytes uint64) {
	var peak uint64
	for _, e := range run.Events {
		peak = max(peak, e.FootprintBytes)
	}
	for i, e := range run.Events {
		if e.Kind != heapsim.EventShrink {
			continue
		}
		if float64(e.SegmentBytes) < figShrinkShare*float64(peak) {
			small++
			smallMaxBytes = max(smallMaxBytes, e.SegmentBytes)
			continue
		}
		sh := figShrink{clockBytes: e.ClockBytes, releasedBytes: e.SegmentBytes, afterBytes: e.FootprintBytes}
		if i+1 < len(run.Events) {
			next := run.Events[i+1]
			sh.regrown = next.Kind == heapsim.EventGrow && next.ClockBytes == e.ClockBytes
		}
		big = append(big, sh)
	}
	return big, small, smallMaxBytes
}

// figShrinkNote says, for the caption, what makes a footprint line drop: each run's large
// shrinks, with where and how much, whether old space grew back at once and why, and how many
// smaller ones it has ("" when neither run shrinks).
func figShrinkNote(c *Comparison, rc figRunClock) string {
	var parts []string
	for _, rs := range figRunStyles(c) {
		big, small, smallMax := figShrinks(rs.run)
		if len(big)+small == 0 {
			continue
		}
		var what []string
		const named = 3
		for _, sh := range big[:min(len(big), named)] {
			s := fmt.Sprintf("gives back %s at %s %s allocated", figSize(float64(sh.releasedBytes)),
				plotkit.Num(numfmt.RoundSig(rc.x(sh.clockBytes), 3)), rc.unit.Name)
			if sh.regrown {
				s += " and grows it back at once"
			}
			what = append(what, s)
		}
		if len(big) > named {
			what = append(what, fmt.Sprintf("%d more such drops", len(big)-named))
		}
		if small > 0 {
			what = append(what, fmt.Sprintf("%s of at most %s (too small to see)",
				numfmt.Plural(small, "smaller shrink", "smaller shrinks"), figSize(float64(smallMax))))
		}
		s := fmt.Sprintf("the %s run %s", rs.name, strings.Join(what, ", "))
		if slices.ContainsFunc(big, func(sh figShrink) bool { return sh.regrown }) {
			p := rs.run.Params
			s += fmt.Sprintf(" (a full GC left more free space than both its shrink threshold, %s, and its growth headroom, %s, so an empty segment was given back; "+
				"the headroom then had to be grown again)", figSize(float64(p.ShrinkThresholdBytes)), figSize(float64(p.GrowthHeadroomBytes)))
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf(" Each drop of a footprint line is a shrink at the end of a full GC (docs/spur-model.md §4.5), the large ones marked with a triangle: %s.",
		strings.Join(parts, "; "))
}

// figCoincidence is how close two lines must be, as a share of the axis's top, to count as one
// where they run together, and figCoincidentShare the share of the run over which they must do
// so to be named in the caption.
const (
	figCoincidence     = 0.01
	figCoincidentShare = 0.25
	figCoincidenceGrid = 400
)

// figLine is one line of a figure, for figCoincidentNote: its legend name and its points (a
// step line: each value holds until the next point).
type figLine struct {
	name string
	xys  plotter.XYs
}

// figCoincidentNote names, for the caption, the pairs of lines that run together (within
// figCoincidence of top) over at least figCoincidentShare of [0, end], most first, each with
// the share of the run over which they do ("" when none do).
func figCoincidentNote(lines []figLine, end, top float64) string {
	if end <= 0 || top <= 0 {
		return ""
	}
	at := func(xys plotter.XYs, x float64) (float64, bool) {
		i := figStepIndex(xys, x)
		if i < 0 {
			return 0, false
		}
		return xys[i].Y, true
	}
	type pair struct {
		a, b  int
		share float64
	}
	var pairs []pair
	for a := range lines {
		for b := a + 1; b < len(lines); b++ {
			together := 0
			for k := range figCoincidenceGrid {
				x := end * (float64(k) + 0.5) / figCoincidenceGrid
				ya, oka := at(lines[a].xys, x)
				yb, okb := at(lines[b].xys, x)
				if oka && okb && math.Abs(ya-yb) <= figCoincidence*top {
					together++
				}
			}
			if share := float64(together) / figCoincidenceGrid; share >= figCoincidentShare {
				pairs = append(pairs, pair{a, b, share})
			}
		}
	}
	if len(pairs) == 0 {
		return ""
	}
	slices.SortStableFunc(pairs, func(x, y pair) int { return cmp.Compare(y.share, x.share) })
	var parts []string
	for _, p := range pairs {
		parts = append(parts, fmt.Sprintf("%s and %s (over %s of the run)", lines[p.a].name, lines[p.b].name,
			numfmt.PercentText(math.Floor(p.share*20)/20)))
	}
	return " Lines that run together, one drawn over the other: " + strings.Join(parts, "; ") + "."
}

// figStepIndex is the index of the last point of xys (by ascending X) at or before x, -1 when none.
func figStepIndex(xys plotter.XYs, x float64) int {
	lo, hi := 0, len(xys)
	for lo < hi {
		m := (lo + hi) / 2
		if xys[m].X <= x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// figSize writes a size with three significant digits: "3.13 GiB", "16 MiB".
func figSize(b float64) string {
	u := plotkit.ChooseUnit(b)
	return plotkit.Num(numfmt.RoundSig(b/u.Div, 3)) + " " + u.Name
}

// figFootprintSeries are one run's footprint (a step line from the run's start) and old-space
// use (at each scavenge, and before and after each full GC) on rc's clock, in bytes, not
// downsampled.
func figFootprintSeries(run *diagnose.Run, rc figRunClock) (footprint, oldUsed plotter.XYs) {
	evs := run.Events
	if len(evs) == 0 {
		return nil, nil
	}
	first := evs[0].FootprintBytes
	if evs[0].Kind == heapsim.EventGrow && evs[0].SegmentBytes <= first {
		first -= evs[0].SegmentBytes
	}
	footprint = plotter.XYs{{X: 0, Y: float64(first)}}
	for _, e := range evs {
		x := rc.x(e.ClockBytes)
		footprint = append(footprint, plotter.XY{X: x, Y: float64(e.FootprintBytes)})
		switch e.Kind {
		case heapsim.EventFullGC:
			if e.OldUsedBeforeBytes > 0 {
				oldUsed = append(oldUsed, plotter.XY{X: x, Y: float64(e.OldUsedBeforeBytes)})
			}
			oldUsed = append(oldUsed, plotter.XY{X: x, Y: float64(e.OldUsedBytes)})
		case heapsim.EventScavenge:
			oldUsed = append(oldUsed, plotter.XY{X: x, Y: float64(e.OldUsedBytes)})
		}
	}
	footprint = append(footprint, plotter.XY{X: rc.end, Y: footprint[len(footprint)-1].Y})
	return footprint, oldUsed
}

func figFootprint(i int, c *Comparison, budget uint64) Figure {
	rc := newFigRunClock(c)
	type series struct {
		footprint, oldUsed plotter.XYs
		shrinks            plotter.XYs
	}
	var ss [2]series
	var top float64
	var lines []figLine
	for k, rs := range figRunStyles(c) {
		fp, old := figFootprintSeries(rs.run, rc)
		if len(fp) == 0 {
			continue
		}
		for _, pt := range append(slices.Clone(fp), old...) {
			top = max(top, pt.Y)
		}
		big, _, _ := figShrinks(rs.run)
		for _, sh := range big {
			ss[k].shrinks = append(ss[k].shrinks, plotter.XY{X: rc.x(sh.clockBytes), Y: float64(sh.afterBytes)})
		}
		lines = append(lines, figLine{rs.name + "'s footprint", fp}, figLine{rs.name + "'s old-space use", old})
		ss[k].footprint, ss[k].oldUsed = plotkit.Downsample(fp, figMaxSeriesPoints), plotkit.Downsample(old, figMaxSeriesPoints)
	}
	var live plotter.XYs
	for _, lp := range c.Live {
		live = append(live, plotter.XY{X: rc.x(lp.ClockBytes), Y: float64(lp.LiveBytes)})
		top = max(top, float64(lp.LiveBytes))
	}
	if len(live) > 0 {
		lines = append(lines, figLine{"the live data", live})
	}
	live = plotkit.Downsample(live, figMaxSeriesPoints)
	if budget > 0 {
		top = max(top, float64(budget))
	}
	yu := plotkit.ChooseUnit(top)
	scaleY := func(xys plotter.XYs) plotter.XYs { return plotkit.ScaleXYs(xys, yu.Div) }
	caption := "Footprint (new space plus old-space segments, solid step lines) and old-space use (dashed, " +
		"image included) over the run, " + figRunColours()
	if len(live) > 0 {
		caption += ", with the application's live data (the wide light grey line under the others, image excluded)"
	}
	caption += "; the gap between footprint and old-space use is free memory, and each drop of the " +
		"dashed line is a full GC."
	caption += figShrinkNote(c, rc)
	caption += figCoincidentNote(lines, rc.end, top)
	return figRunFigure(i, c, "footprint", "memory over the run", caption, figWideHeight, func(dc draw.Canvas) error {
		p := plotkit.NewPlot(figRunTitle(c, "footprint and old-space use"), rc.label(), "memory ("+yu.Name+")")
		leg := plotkit.NewLegend()
		drawn := false
		// The live data first, wide and translucent, so that the lines that run along it
		// (old-space use, when the run keeps what it allocates) show on top of it.
		if len(live) > 0 {
			drawn = true
			l := plotkit.Line(scaleY(live), plotkit.Transparent(figColLive, 0.35), 4.5, nil)
			p.Add(l)
			leg.Add("live data (application)", l)
		}
		var shrinkMarks []plot.Thumbnailer
		for k, rs := range figRunStyles(c) {
			if len(ss[k].footprint) == 0 {
				continue
			}
			drawn = true
			l := plotkit.Line(scaleY(ss[k].footprint), rs.color, 1.3*rs.wide, nil)
			l.StepStyle = plotter.PostStep
			o := plotkit.Line(scaleY(ss[k].oldUsed), rs.color, 0.9*rs.wide, plotkit.Dashed)
			p.Add(l, o)
			leg.Add(rs.name+": footprint", l)
			leg.Add(rs.name+": old space used", o)
		}
		// The shrinks' marks over every line.
		for k, rs := range figRunStyles(c) {
			if len(ss[k].shrinks) > 0 {
				sc := plotkit.Scatter(scaleY(ss[k].shrinks), plotkit.DownTriangle{}, rs.color, 5)
				p.Add(sc)
				shrinkMarks = append(shrinkMarks, sc)
			}
		}
		if len(shrinkMarks) > 0 {
			leg.Add("shrink after a full GC", plotkit.SideBySide(shrinkMarks))
		}
		if budget > 0 {
			h := plotkit.HLine{Y: float64(budget) / yu.Div, Style: plotkit.LineStyle(figColBudget, 1, plotkit.Dotted)}
			p.Add(h)
			leg.Add("budget "+plotkit.Bytes(float64(budget)), h)
		}
		if !drawn {
			p.Add(plotkit.Note{Text: "no events"})
		}
		p.Y.Min = 0
		if !(p.Y.Max > 0) {
			p.Y.Max = 1
		}
		rc.apply(p)
		return plotkit.DrawGrid(dc, [][]*plot.Plot{{p}}, leg, nil)
	})
}
