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
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/plotkit"
)

// ---- Run figures ----

// figRunFigure is run figure i of comparison c: named run-<i+1>-<name>, titled by figRunTitle,
// drawn by fn on a wide canvas height high.
func figRunFigure(i int, c *Comparison, name, title, caption string, height vg.Length, fn func(dc draw.Canvas) error) Figure {
	return Figure{
		Name: fmt.Sprintf("run-%d-%s", i+1, name), Section: SectionRun, Workload: i,
		Title:   figRunTitle(c, title),
		Caption: caption,
		render:  figCanvas(figWideWidth, height, fn),
	}
}

// figLogTimeNote is the caption's note on a logarithmic time axis ("" for a linear one).
func figLogTimeNote(logY bool) string {
	if logY {
		return " The time axis is logarithmic."
	}
	return ""
}

func figRunTitle(c *Comparison, what string) string {
	if c.Workload == "" {
		return what
	}
	return c.Workload + ": " + what
}

// figRunClock is the x axis of the run figures: bytes allocated in a unit that suits the run.
type figRunClock struct {
	unit plotkit.Unit
	end  float64 // in unit
}

func newFigRunClock(c *Comparison) figRunClock {
	end := c.EndBytes
	for _, run := range []*diagnose.Run{&c.Default, &c.Best} {
		if n := len(run.Events); n > 0 {
			end = max(end, run.Events[n-1].ClockBytes)
		}
	}
	if n := len(c.Live); n > 0 {
		end = max(end, c.Live[n-1].ClockBytes)
	}
	u := plotkit.ChooseUnit(float64(end))
	if end == 0 {
		u = plotkit.Unit{Div: float64(heapsim.GiB), Name: "GiB"}
	}
	return figRunClock{unit: u, end: float64(end) / u.Div}
}

func (rc figRunClock) x(clock uint64) float64 { return float64(clock) / rc.unit.Div }
func (rc figRunClock) label() string          { return "bytes allocated (" + rc.unit.Name + ")" }
func (rc figRunClock) apply(p *plot.Plot) {
	p.X.Min, p.X.Max = 0, rc.end
	if rc.end <= 0 {
		p.X.Max = 1
	}
}

func figRunLabel(run *diagnose.Run, fallback string) string {
	if run.Label != "" {
		return run.Label
	}
	return fallback
}

type figRunStyle struct {
	run   *diagnose.Run
	name  string
	color plotkit.Colour
	light plotkit.Colour
	// wide scales line widths and marker sizes: the default run is drawn first and wider, so
	// that it shows round the best run's line where the two coincide.
	wide float64
}

func figRunStyles(c *Comparison) [2]figRunStyle {
	return [2]figRunStyle{
		{run: &c.Default, name: figRunLabel(&c.Default, "default"), color: figColDefault, light: figColDefaultLight, wide: 1.8},
		{run: &c.Best, name: figRunLabel(&c.Best, "best"), color: figColBest, light: figColBestLight, wide: 1},
	}
}

// figRunColours is the captions' "default in orange and best in blue", from the palette.
func figRunColours() string {
	return fmt.Sprintf("default in %s and best in %s", figColDefault.Word, figColBest.Word)
}

func figScavenges(i int, c *Comparison) Figure {
	rc := newFigRunClock(c)
	type series struct {
		total, rs plotter.XYs
		count     int
		seconds   float64
	}
	var ss [2]series
	var ys []float64
	anyRS := false
	for k, rs := range figRunStyles(c) {
		for _, e := range rs.run.Events {
			if e.Kind != heapsim.EventScavenge {
				continue
			}
			x := rc.x(e.ClockBytes)
			ss[k].total = append(ss[k].total, plotter.XY{X: x, Y: e.Seconds * 1000})
			ss[k].rs = append(ss[k].rs, plotter.XY{X: x, Y: e.RSSeconds * 1000})
			ss[k].count++
			ss[k].seconds += e.Seconds
			ys = append(ys, e.Seconds*1000)
			if e.RSSeconds > 0 {
				anyRS = true
				ys = append(ys, e.RSSeconds*1000)
			}
		}
	}
	logY := plotkit.UseLogPositive(ys)
	ylo, yhi := math.Inf(1), 0.0
	for _, y := range ys {
		if y > 0 {
			ylo, yhi = min(ylo, y), max(yhi, y)
		}
	}
	for k := range ss {
		ss[k].total = plotkit.Downsample(ss[k].total, figMaxSeriesPoints)
		ss[k].rs = plotkit.Downsample(ss[k].rs, figMaxSeriesPoints)
	}
	caption := "Time of each scheduled scavenge in the cost model against the allocation clock, " + figRunColours()
	if anyRS {
		caption += "; the thin dotted lines are the part spent scanning the remembered set"
	}
	caption += "."
	caption += figLogTimeNote(logY)
	return figRunFigure(i, c, "scavenges", "scavenge times", caption, figWideHeight, func(dc draw.Canvas) error {
		p := plotkit.NewPlot(figRunTitle(c, "scavenge times"), rc.label(), "scavenge time (ms)")
		leg := plotkit.NewLegend()
		markers := plotkit.Markers(ss[0].count, ss[1].count)
		for k, rs := range figRunStyles(c) {
			s := ss[k]
			if s.count == 0 {
				continue
			}
			l := plotkit.Line(s.total, rs.color, 1.1*rs.wide, nil)
			p.Add(l)
			thumbs := []plot.Thumbnailer{l}
			if markers(s.count) {
				sc := plotkit.Scatter(s.total, draw.CircleGlyph{}, rs.color, 1.6*math.Sqrt(rs.wide))
				p.Add(sc)
				thumbs = append(thumbs, sc)
			}
			leg.Add(fmt.Sprintf("%s: %s, %s", rs.name, numfmt.Plural(s.count, "scavenge", "scavenges"), numfmt.SecondsText(s.seconds)), thumbs...)
		}
		if anyRS {
			for k, rs := range figRunStyles(c) {
				segs := plotkit.PositiveSegments(ss[k].rs)
				if len(segs) == 0 {
					continue
				}
				var first *plotkit.Polyline
				for _, seg := range segs {
					l := plotkit.Line(seg, rs.light, 1.2*rs.wide, plotkit.Dotted)
					p.Add(l)
					if first == nil {
						first = l
					}
				}
				leg.Add(rs.name+": remembered-set part", first)
			}
		}
		if len(ys) == 0 {
			p.Add(plotkit.Note{Text: "no scavenges"})
		}
		if logY {
			plotkit.FitLogY(p, ylo/1.05, yhi*1.05)
		} else {
			p.Y.Min = 0
		}
		rc.apply(p)
		return plotkit.DrawGrid(dc, [][]*plot.Plot{{p}}, leg, nil)
	})
}

// figFullGCCauses are the full-GC causes with their glyphs and, per run, colours.
var figFullGCCauses = []struct {
	cause heapsim.FullGCCause
	shape draw.GlyphDrawer
	cols  [2]color.Color
}{
	{heapsim.CauseRatio, draw.CircleGlyph{}, [2]color.Color{figColDefault, figColBest}},
	{heapsim.CauseLargeAlloc, draw.PyramidGlyph{}, [2]color.Color{figColDefaultDark, figColBestDark}},
	{heapsim.CauseExplicit, draw.BoxGlyph{}, [2]color.Color{figColDefaultAmber, figColBestSky}},
}

// figFullGCSeries are the full-GC figure's series: per run (default, best) and per cause of
// figFullGCCauses, each full GC at (allocation clock in rc's unit, seconds), not downsampled;
// the number of full GCs and their seconds per run; and every full GC's seconds.
type figFullGCSeries struct {
	byCause [2][3]plotter.XYs
	counts  [2]int
	seconds [2]float64
	ys      []float64
}

// newFigFullGCSeries gathers the full GCs of c's two runs.
func newFigFullGCSeries(c *Comparison, rc figRunClock) figFullGCSeries {
	var fs figFullGCSeries
	for k, rs := range figRunStyles(c) {
		for _, e := range rs.run.Events {
			if e.Kind != heapsim.EventFullGC {
				continue
			}
			ci := 0
			for j, fc := range figFullGCCauses {
				if fc.cause == e.Cause {
					ci = j
				}
			}
			fs.byCause[k][ci] = append(fs.byCause[k][ci], plotter.XY{X: rc.x(e.ClockBytes), Y: e.Seconds})
			fs.counts[k]++
			fs.seconds[k] += e.Seconds
			fs.ys = append(fs.ys, e.Seconds)
		}
	}
	return fs
}

// hasCause reports whether either run has a full GC of cause.
func (fs figFullGCSeries) hasCause(cause heapsim.FullGCCause) bool {
	for j, fc := range figFullGCCauses {
		if fc.cause == cause {
			return len(fs.byCause[0][j])+len(fs.byCause[1][j]) > 0
		}
	}
	return false
}

// figSecondsRange writes the range of the full GCs' times in pts (Y, seconds): "3.03 s",
// "10.6–13.2 s each".
func figSecondsRange(pts plotter.XYs) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, pt := range pts {
		lo, hi = min(lo, pt.Y), max(hi, pt.Y)
	}
	a, b := numfmt.Sig(lo, 3, true), numfmt.Sig(hi, 3, true)
	if len(pts) == 1 || a == b {
		return b + " s"
	}
	return a + "–" + b + " s each"
}

// figMaxFullGCMarkers is the most full GCs of one cause a panel draws as filled markers: past it they
// overlap into a solid band (290 large-allocation full GCs in the last quarter of a run), so
// each is drawn as a short translucent tick instead, darker where they crowd.
const figMaxFullGCMarkers = 60

func figFullGCs(i int, c *Comparison) Figure {
	rc := newFigRunClock(c)
	fs := newFigFullGCSeries(c, rc)
	// byCause[run][cause index]
	counts, seconds, ys := fs.counts, fs.seconds, fs.ys
	var byCause [2][3]plotter.XYs
	var causeCounts [2][3]int
	for k := range fs.byCause {
		for j := range fs.byCause[k] {
			causeCounts[k][j] = len(fs.byCause[k][j])
			byCause[k][j] = plotkit.Downsample(fs.byCause[k][j], figMaxSeriesPoints)
		}
	}
	logY := plotkit.UseLogPositive(ys)
	ylo, ymax := math.Inf(1), 0.0
	for _, y := range ys {
		if y > 0 {
			ylo, ymax = min(ylo, y), max(ymax, y)
		}
	}
	if ymax == 0 {
		ymax = 1
	}
	caption := fmt.Sprintf("Each full GC's time against the allocation clock, the default run in the top panel (%s tones) and "+
		"the best in the bottom one (%s tones); circles are ratio-triggered full GCs, triangles those forced "+
		"by a large allocation", figColDefault.Word, figColBest.Word)
	// The simulator makes no explicit full GC (no profile records one): squares are named only
	// when a run has them.
	if fs.hasCause(heapsim.CauseExplicit) {
		caption += ", squares explicit ones"
	}
	caption += "."
	crowded := false
	for k := range causeCounts {
		for j := range causeCounts[k] {
			crowded = crowded || causeCounts[k][j] > figMaxFullGCMarkers
		}
	}
	if crowded {
		caption += fmt.Sprintf(" Where a run has more than %d full GCs of one cause, each is drawn as a short "+
			"translucent tick instead, darker where they crowd.", figMaxFullGCMarkers)
	}
	caption += figLogTimeNote(logY)
	return figRunFigure(i, c, "fullgcs", "full GCs", caption, figTallHeight, func(dc draw.Canvas) error {
		leg := plotkit.NewLegend()
		var panels [][]*plot.Plot
		for k, rs := range figRunStyles(c) {
			title := fmt.Sprintf("%s run: %s full GCs, %s in all", rs.name, numfmt.Count(counts[k]), numfmt.SecondsText(seconds[k]))
			if counts[k] == 1 {
				title = fmt.Sprintf("%s run: 1 full GC, %s", rs.name, numfmt.SecondsText(seconds[k]))
			}
			if counts[k] == 0 {
				title = rs.name + " run: no full GCs"
			}
			xl := ""
			if k == 1 {
				xl = rc.label()
			}
			p := plotkit.NewPlot(figRunTitle(c, title), xl, "full GC time (s)")
			for j, fc := range figFullGCCauses {
				pts := byCause[k][j]
				if len(pts) == 0 {
					continue
				}
				crowded := causeCounts[k][j] > figMaxFullGCMarkers
				sc := plotkit.Scatter(pts, fc.shape, fc.cols[k], 3.5)
				if crowded {
					sc = plotkit.Scatter(pts, plotkit.TickGlyph{}, plotkit.Transparent(fc.cols[k], 0.45), 3)
				}
				p.Add(sc)
				// The legend shows the cause's marker, as in an uncrowded panel.
				thumb := plotkit.Scatter(nil, fc.shape, fc.cols[k], 3.5)
				if crowded {
					thumb = plotkit.Scatter(nil, plotkit.TickGlyph{}, fc.cols[k], 5)
				}
				leg.Add(fmt.Sprintf("%s: %s (%d), %s", rs.name, fc.cause, causeCounts[k][j], figSecondsRange(fs.byCause[k][j])), thumb)
			}
			if counts[k] == 0 {
				p.Add(plotkit.Note{Text: "no full GCs"})
			}
			if logY {
				// Both ends labelled: the 301 large-allocation full GCs of 11-13 s sat above
				// the top label, 10, and their times could not be read.
				plotkit.FitLogY(p, ylo/1.05, ymax*1.05)
			} else {
				p.Y.Min, p.Y.Max = 0, ymax*1.08
			}
			rc.apply(p)
			panels = append(panels, []*plot.Plot{p})
		}
		return plotkit.DrawGrid(dc, panels, leg, nil)
	})
}

// figCumulativeTenured are the tenured-bytes figure's series of run: the bytes scavenges
// promoted and the tenured bytes full GCs found dead, each cumulated, as step points on rc's
// clock from (0, 0) to the end of the run.
func figCumulativeTenured(run *diagnose.Run, rc figRunClock) (tenured, garbage plotter.XYs) {
	var sum, gsum float64
	tenured = plotter.XYs{{X: 0, Y: 0}}
	garbage = plotter.XYs{{X: 0, Y: 0}}
	for _, e := range run.Events {
		x := rc.x(e.ClockBytes)
		if e.TenuredBytes > 0 {
			sum += float64(e.TenuredBytes)
			tenured = append(tenured, plotter.XY{X: x, Y: sum})
		}
		if e.Kind == heapsim.EventFullGC && e.TenuredGarbageBytes > 0 {
			gsum += float64(e.TenuredGarbageBytes)
			garbage = append(garbage, plotter.XY{X: x, Y: gsum})
		}
	}
	tenured = append(tenured, plotter.XY{X: rc.end, Y: sum})
	garbage = append(garbage, plotter.XY{X: rc.end, Y: gsum})
	return tenured, garbage
}

func figTenured(i int, c *Comparison) Figure {
	rc := newFigRunClock(c)
	var tenured, garbage [2]plotter.XYs
	var top float64
	var anyGarbage bool
	for k, rs := range figRunStyles(c) {
		tenured[k], garbage[k] = figCumulativeTenured(rs.run, rc)
		sum, gsum := tenured[k][len(tenured[k])-1].Y, garbage[k][len(garbage[k])-1].Y
		top = max(top, sum, gsum)
		anyGarbage = anyGarbage || gsum > 0
		tenured[k] = plotkit.Downsample(tenured[k], figMaxSeriesPoints)
		garbage[k] = plotkit.Downsample(garbage[k], figMaxSeriesPoints)
	}
	yu := plotkit.ChooseUnit(top)
	caption := "Bytes promoted to old space by scavenges, cumulated over the run (solid), " + figRunColours()
	if anyGarbage {
		caption += "; the dashed lines cumulate the tenured bytes that full GCs found already dead (premature " +
			"tenuring)"
	}
	caption += "."
	return figRunFigure(i, c, "tenured", "tenured bytes", caption, figWideHeight, func(dc draw.Canvas) error {
		p := plotkit.NewPlot(figRunTitle(c, "cumulative tenured bytes"), rc.label(), "cumulative bytes ("+yu.Name+")")
		leg := plotkit.NewLegend()
		for k, rs := range figRunStyles(c) {
			if len(rs.run.Events) == 0 {
				continue
			}
			l := plotkit.Line(plotkit.ScaleXYs(tenured[k], yu.Div), rs.color, 1.3*rs.wide, nil)
			l.StepStyle = plotter.PostStep
			p.Add(l)
			leg.Add(fmt.Sprintf("%s: tenured (%s)", rs.name, plotkit.Bytes(tenured[k][len(tenured[k])-1].Y)), l)
		}
		if anyGarbage {
			for k, rs := range figRunStyles(c) {
				if len(rs.run.Events) == 0 || garbage[k][len(garbage[k])-1].Y == 0 {
					continue
				}
				l := plotkit.Line(plotkit.ScaleXYs(garbage[k], yu.Div), rs.color, 1.1*rs.wide, plotkit.Dashed)
				l.StepStyle = plotter.PostStep
				p.Add(l)
				leg.Add(fmt.Sprintf("%s: tenured garbage (%s)", rs.name, plotkit.Bytes(garbage[k][len(garbage[k])-1].Y)), l)
			}
		}
		if len(c.Default.Events)+len(c.Best.Events) == 0 {
			p.Add(plotkit.Note{Text: "no events"})
		}
		p.Y.Min = 0
		if top == 0 {
			p.Y.Max = 1
		}
		rc.apply(p)
		return plotkit.DrawGrid(dc, [][]*plot.Plot{{p}}, leg, nil)
	})
}
