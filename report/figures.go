package report

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/lifetimes"
)

// Figure is one figure of the report: a gonum/plot drawing, rendered on demand as SVG (to
// inline in the HTML page) or PNG (for --png).
type Figure struct {
	// Name is the figure's file stem and element id, unique in the report, lowercase with
	// dashes: "workload-1-lifetimes", "workload-1-lifetimes-log", "search-progress",
	// "search-pareto", "sensitivity-sweeps", "run-1-footprint", "run-1-scavenges",
	// "run-1-fullgcs", "run-1-remembered-set", "run-1-tenured" (workloads and runs numbered
	// from 1). The sensitivity figure is not named "sensitivity", the id of its page section.
	Name string
	// Section is SectionWorkload, SectionSearch, SectionSensitivity or SectionRun.
	Section string
	// Workload is the index into Report.Workloads (workload figures) or Report.Comparisons
	// (run figures), -1 for the others.
	Workload int
	// Title is a short heading; Caption one or two plain sentences saying what the figure shows
	// and how to read it.
	Title   string
	Caption string

	// render writes the figure to w as "svg" or "png".
	render func(w io.Writer, format string) error
}

// Rendering settings.
const (
	// figPNGDPI is the resolution of PNG figures.
	figPNGDPI = 120
	// figMaxSeriesPoints is the most points one line of a figure keeps; longer series are
	// downsampled keeping each bucket's extremes.
	figMaxSeriesPoints = 3000
	// figMaxMarkers is the most points a figure's lines are drawn with markers; longer lines go
	// without, except those of at most figFewPoints points.
	figMaxMarkers = 150
	figFewPoints  = 40
	// figLogRatio is the max/min ratio from which a magnitude axis goes logarithmic.
	figLogRatio = 20
	// figValueLogRatio is the same for objective axes: from a factor of 4 the default's value
	// (often many times the best) would squash every trial against the axis's bottom.
	figValueLogRatio = 4
)

// Figure sizes.
var (
	figWideWidth   = 11 * vg.Inch
	figWideHeight  = 4.5 * vg.Inch
	figTallHeight  = 6 * vg.Inch
	figPanelHeight = 3.4 * vg.Inch
)

// Colours, the same in every figure: the default configuration a muted red-orange, the best
// one blue (Okabe-Ito's vermillion and blue, which colour-blind readers tell apart).
var (
	figColDefault       = color.RGBA{R: 213, G: 94, B: 0, A: 255}
	figColDefaultLight  = color.RGBA{R: 238, G: 160, B: 110, A: 255}
	figColDefaultDark   = color.RGBA{R: 130, G: 40, B: 0, A: 255}
	figColDefaultAmber  = color.RGBA{R: 230, G: 159, B: 0, A: 255}
	figColBest          = color.RGBA{R: 0, G: 114, B: 178, A: 255}
	figColBestLight     = color.RGBA{R: 110, G: 175, B: 220, A: 255}
	figColBestDark      = color.RGBA{R: 8, G: 48, B: 107, A: 255}
	figColBestSky       = color.RGBA{R: 86, G: 180, B: 233, A: 255}
	figColLive          = color.RGBA{R: 60, G: 60, B: 60, A: 255}
	figColTrial         = color.RGBA{R: 80, G: 80, B: 80, A: 255}
	figColInfeasible    = color.RGBA{R: 165, G: 165, B: 165, A: 255}
	figColPareto        = color.RGBA{R: 0, G: 140, B: 100, A: 255}
	figColBudget        = color.RGBA{R: 20, G: 20, B: 20, A: 255}
	figColGrid          = color.Gray{Y: 215}
	figColNote          = color.Gray{Y: 110}
	figDashed           = []vg.Length{vg.Points(5), vg.Points(3)}
	figDotted           = []vg.Length{vg.Points(1.5), vg.Points(2)}
	errFigNothingToDraw = errors.New("report: figure has nothing to draw")
)

// Figures returns the report's figures in a fixed order: per workload its lifetime histograms
// (linear, log), then the search's progress and Pareto front, the sensitivity sweeps, and per
// comparison the run figures (footprint, scavenges, full GCs, remembered set, tenured bytes).
// The search and sensitivity figures are always there (with a note when there is nothing to
// draw); a workload figure is left out when its histogram is nil.
func Figures(r *Report) ([]Figure, error) {
	if r == nil {
		return nil, errors.New("report: figures: nil report")
	}
	var figs []Figure
	for i, w := range r.Workloads {
		for _, h := range []struct {
			hist   *lifetimes.Histogram
			suffix string
			scale  string
		}{{w.Linear, "", "linear"}, {w.Log, "-log", "log"}} {
			if h.hist == nil {
				continue
			}
			f, err := figWorkload(i, w.Name, h.hist, h.suffix, h.scale)
			if err != nil {
				return nil, err
			}
			figs = append(figs, f)
		}
	}
	figs = append(figs, figProgress(&r.Search), figPareto(&r.Search), figSensitivity(r))
	for i := range r.Comparisons {
		c := &r.Comparisons[i]
		figs = append(figs,
			figFootprint(i, c, r.Search.MaxFootprintBytes),
			figScavenges(i, c),
			figFullGCs(i, c),
			figRememberedSet(i, c),
			figTenured(i, c))
	}
	return figs, nil
}

// SVG renders the figure as SVG that can be inlined in HTML: no XML prolog, no DOCTYPE, no
// external references (text uses the reader's installed fonts).
func (f Figure) SVG() ([]byte, error) {
	b, err := f.bytes("svg")
	if err != nil {
		return nil, err
	}
	if i := bytes.Index(b, []byte("<svg")); i > 0 {
		b = b[i:] // drop the <?xml?> prolog and the generator comment
	}
	// Fall back on a generic family where the Liberation fonts are not installed.
	b = bytes.ReplaceAll(b, []byte("font-family:Liberation Serif;"), []byte("font-family:'Liberation Serif',serif;"))
	b = bytes.ReplaceAll(b, []byte("font-family:Liberation Sans;"), []byte("font-family:'Liberation Sans',sans-serif;"))
	return b, nil
}

// PNG renders the figure as a PNG image at 120 dpi.
func (f Figure) PNG() ([]byte, error) { return f.bytes("png") }

func (f Figure) bytes(format string) (b []byte, err error) {
	if f.render == nil {
		return nil, fmt.Errorf("%w: %q", errFigNothingToDraw, f.Name)
	}
	defer func() {
		// gonum/plot panics on some degenerate inputs; a figure must not take the report down.
		if p := recover(); p != nil {
			b, err = nil, fmt.Errorf("report: figure %q: %s: %v", f.Name, format, p)
		}
	}()
	var buf bytes.Buffer
	if err := f.render(&buf, format); err != nil {
		return nil, fmt.Errorf("report: figure %q: %w", f.Name, err)
	}
	return buf.Bytes(), nil
}

// WritePNGs writes each figure as dir/<Name>.png, creating dir if needed, and returns the paths
// written. Every figure is drawn before any file is written, so a figure that fails to draw
// leaves nothing behind; each file is written atomically (a temporary file renamed into place).
func WritePNGs(figs []Figure, dir string) ([]string, error) {
	seen := make(map[string]bool, len(figs))
	pngs := make([][]byte, len(figs))
	for i, f := range figs {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || strings.HasPrefix(f.Name, ".") {
			return nil, fmt.Errorf("report: figure name %q is not a plain file name", f.Name)
		}
		if seen[f.Name] {
			return nil, fmt.Errorf("report: two figures named %q", f.Name)
		}
		seen[f.Name] = true
		b, err := f.PNG()
		if err != nil {
			return nil, err // already "report: figure ...: ..."
		}
		pngs[i] = b
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	paths := make([]string, 0, len(figs))
	for i, f := range figs {
		path := filepath.Join(dir, f.Name+".png")
		b := pngs[i]
		if err := outfile.Write(path, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
			return paths, fmt.Errorf("report: %w", err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// figCanvas renders a figure drawn by fn on a width × height canvas.
func figCanvas(width, height vg.Length, fn func(dc draw.Canvas) error) func(io.Writer, string) error {
	return func(w io.Writer, format string) error {
		var c vg.CanvasWriterTo
		switch format {
		case "svg":
			c = vgsvg.New(width, height)
		case "png":
			c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(figPNGDPI))}
		default:
			return fmt.Errorf("unknown format %q (want svg or png)", format)
		}
		dc := draw.New(c)
		dc.FillPolygon(color.White, []vg.Point{dc.Min, {X: dc.Max.X, Y: dc.Min.Y}, dc.Max, {X: dc.Min.X, Y: dc.Max.Y}})
		if err := fn(dc); err != nil {
			return err
		}
		_, err := c.WriteTo(w)
		return err
	}
}

// ---- Workload figures ----

func figWorkload(i int, name string, h *lifetimes.Histogram, suffix, scale string) (Figure, error) {
	if h.Bins() == 0 || len(h.Edges) != h.Bins()+1 || len(h.ObjectShare) != h.Bins() || len(h.ByteShare) != h.Bins() {
		return Figure{}, fmt.Errorf("report: figures: workload %q: malformed %s histogram", name, scale)
	}
	f := Figure{
		Name:     fmt.Sprintf("workload-%d-lifetimes%s", i+1, suffix),
		Section:  SectionWorkload,
		Workload: i,
		Title:    fmt.Sprintf("%s: object lifetimes (%s scale)", name, scale),
		render: func(w io.Writer, format string) error {
			return lifetimes.WriteHistogramPlot(w, format, h, name)
		},
	}
	if h.Scale == lifetimes.LogScale {
		f.Caption = "Share of objects (left) and of allocated bytes (right) per lifetime bin, lifetimes " +
			"as a share of the run on a log axis, which resolves the short-lived objects; the first " +
			"bar holds everything shorter than the first edge."
	} else {
		f.Caption = "Share of objects (left) and of allocated bytes (right) per lifetime bin, lifetimes " +
			"as a share of the run, as in the papers' density charts: a tall first bar means most " +
			"objects die young, mass on the right means long-lived data."
	}
	return f, nil
}

// ---- Search figures ----

// figCompleteTrials returns the complete trials with a finite value, by number.
func figCompleteTrials(s *Search) []Trial {
	var out []Trial
	for _, t := range s.Trials {
		if t.State == "complete" && figFinite(t.Value) {
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

func figProgress(s *Search) Figure {
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
	hasDefault := figFinite(s.DefaultValue)
	hasBest := s.Best.State == "complete" && figFinite(s.Best.Value) && s.Best.Feasible && len(trials) > 0
	main := figYs(feasible)
	if hasDefault {
		main = append(main, s.DefaultValue)
	}
	if hasBest {
		main = append(main, s.Best.Value)
	}
	axis := newFigValueAxis(main, figYs(infeasible))
	inRange, offScale := axis.split(infeasible)

	caption := fmt.Sprintf("Each complete trial's %s against its number (%d trials: rings feasible, grey crosses "+
		"infeasible), the best feasible value so far as a blue step line", figLowerFirst(figValueLabel(s)), len(trials))
	if hasDefault {
		caption += ", and the default configuration's value as a dashed red line"
	}
	caption += "."
	if len(offScale) > 0 {
		caption += " Grey triangles on the top edge are infeasible trials whose penalised value is off the scale."
	}
	if axis.log {
		caption += " The value axis is logarithmic."
	}

	return Figure{
		Name: "search-progress", Section: SectionSearch, Workload: -1,
		Title:   "Search progress",
		Caption: caption,
		render: figCanvas(figWideWidth, figWideHeight, func(dc draw.Canvas) error {
			p := newFigPlot("Search progress", "trial number", figValueLabel(s))
			leg := newFigLegend()
			if len(trials) == 0 {
				p.Add(figNote{"no complete trials"})
			}
			if len(feasible) > 0 {
				sc := figScatter(feasible, draw.RingGlyph{}, figColTrial, 2.5)
				p.Add(sc)
				leg.Add("trial (feasible)", sc)
			}
			figAddInfeasible(p, leg, inRange, offScale)
			if len(bestSoFar) > 0 {
				l := figLine(bestSoFar, figColBest, 1.5, nil)
				l.StepStyle = plotter.PostStep
				p.Add(l)
				leg.Add("best so far", l)
			}
			if hasBest {
				sc := figScatter(plotter.XYs{{X: float64(s.Best.Number), Y: s.Best.Value}}, draw.RingGlyph{}, figColBest, 6)
				p.Add(sc)
				leg.Add(fmt.Sprintf("best: trial %d (%s)", s.Best.Number, figNum(s.Best.Value)), sc)
			}
			if hasDefault {
				h := figHLine{y: s.DefaultValue, style: figLineStyle(figColDefault, 1.5, figDashed)}
				p.Add(h)
				leg.Add(fmt.Sprintf("default (%s)", figNum(s.DefaultValue)), h)
			}
			axis.apply(p)
			if len(trials) == 0 {
				p.X.Min, p.X.Max = 0, 1
			}
			return figDrawGrid(dc, [][]*plot.Plot{{p}}, leg, nil)
		}),
	}
}

// figAddInfeasible adds infeasible points: grey crosses where they are, grey triangles on the
// top edge for those off the scale.
func figAddInfeasible(p *plot.Plot, leg *plot.Legend, inRange, offScale plotter.XYs) {
	if len(inRange) > 0 {
		sc := figScatter(inRange, draw.CrossGlyph{}, figColInfeasible, 2.5)
		p.Add(sc)
		if leg != nil {
			leg.Add("trial (infeasible)", sc)
		}
	}
	if len(offScale) > 0 {
		sc := figScatter(offScale, draw.TriangleGlyph{}, figColInfeasible, 3)
		p.Add(sc)
		if leg != nil {
			leg.Add("infeasible, off scale", sc)
		}
	}
}

func figPareto(s *Search) Figure {
	trials := figCompleteTrials(s)
	all := []float64{float64(s.DefaultFootprintBytes), float64(s.MaxFootprintBytes)}
	for _, t := range trials {
		all = append(all, float64(t.PeakFootprintBytes))
	}
	unit := figChooseUnit(slices.Max(all))

	var feasible, infeasible, front plotter.XYs
	for _, t := range trials {
		if t.PeakFootprintBytes == 0 {
			continue
		}
		pt := plotter.XY{X: float64(t.PeakFootprintBytes) / unit.div, Y: t.Value}
		if t.Feasible {
			feasible = append(feasible, pt)
		} else {
			infeasible = append(infeasible, pt)
		}
	}
	for _, t := range s.Pareto {
		if t.PeakFootprintBytes > 0 && figFinite(t.Value) {
			front = append(front, plotter.XY{X: float64(t.PeakFootprintBytes) / unit.div, Y: t.Value})
		}
	}
	slices.SortStableFunc(front, func(a, b plotter.XY) int { return figCmpFloat(a.X, b.X) })
	hasDefault := figFinite(s.DefaultValue) && s.DefaultFootprintBytes > 0
	hasBest := s.Best.State == "complete" && figFinite(s.Best.Value) && s.Best.PeakFootprintBytes > 0 && len(trials) > 0
	main := append(figYs(feasible), figYs(front)...)
	if hasDefault {
		main = append(main, s.DefaultValue)
	}
	if hasBest {
		main = append(main, s.Best.Value)
	}
	axis := newFigValueAxis(main, figYs(infeasible))
	inRange, offScale := axis.split(infeasible)

	caption := fmt.Sprintf("Each complete trial's %s against its peak footprint (rings feasible, grey crosses "+
		"infeasible); the green line joins the Pareto front, the trials no other trial beats in both", figLowerFirst(figValueLabel(s)))
	if hasDefault {
		caption += "; the red square is the default configuration"
	}
	if hasBest {
		caption += ", the blue ring the best trial"
	}
	if s.MaxFootprintBytes > 0 {
		caption += ", and the dotted vertical line the memory budget"
	}
	caption += "."
	if len(offScale) > 0 {
		caption += " Grey triangles on the top edge are infeasible trials whose penalised value is off the scale."
	}

	return Figure{
		Name: "search-pareto", Section: SectionSearch, Workload: -1,
		Title:   "Objective against memory",
		Caption: caption,
		render: figCanvas(figWideWidth, figWideHeight, func(dc draw.Canvas) error {
			p := newFigPlot("Objective against peak footprint", "peak footprint ("+unit.name+")", figValueLabel(s))
			leg := newFigLegend()
			if len(feasible)+len(infeasible) == 0 {
				p.Add(figNote{"no complete trials with a footprint"})
			}
			if len(feasible) > 0 {
				sc := figScatter(feasible, draw.RingGlyph{}, figColTrial, 2.5)
				p.Add(sc)
				leg.Add("trial (feasible)", sc)
			}
			figAddInfeasible(p, leg, inRange, offScale)
			if len(front) > 0 {
				l := figLine(front, figColPareto, 1.5, nil)
				sc := figScatter(front, draw.CircleGlyph{}, figColPareto, 3)
				p.Add(l, sc)
				leg.Add(fmt.Sprintf("Pareto front (%d)", len(front)), l, sc)
			}
			if hasDefault {
				sc := figScatter(plotter.XYs{{X: float64(s.DefaultFootprintBytes) / unit.div, Y: s.DefaultValue}}, draw.BoxGlyph{}, figColDefault, 5)
				p.Add(sc)
				leg.Add("default", sc)
			}
			if hasBest {
				sc := figScatter(plotter.XYs{{X: float64(s.Best.PeakFootprintBytes) / unit.div, Y: s.Best.Value}}, draw.RingGlyph{}, figColBest, 6)
				p.Add(sc)
				leg.Add(fmt.Sprintf("best (trial %d)", s.Best.Number), sc)
			}
			if s.MaxFootprintBytes > 0 {
				v := figVLine{x: float64(s.MaxFootprintBytes) / unit.div, style: figLineStyle(figColBudget, 1, figDotted)}
				p.Add(v)
				leg.Add("budget "+figBytes(float64(s.MaxFootprintBytes)), v)
			}
			axis.apply(p)
			if !math.IsInf(p.X.Min, 0) {
				p.X.Min = 0
			}
			return figDrawGrid(dc, [][]*plot.Plot{{p}}, leg, nil)
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
		if figFinite(v) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		for _, v := range others {
			if figFinite(v) {
				vals = append(vals, v)
			}
		}
	}
	if len(vals) == 0 {
		return figValueAxis{}
	}
	top := slices.Max(vals)
	for _, v := range others {
		if figFinite(v) && v < top {
			vals = append(vals, v)
		}
	}
	a := figValueAxis{lo: slices.Min(vals), hi: top, log: figUseLogRatio(vals, figValueLogRatio), ok: true}
	if a.log {
		f := math.Max(math.Pow(a.hi/a.lo, 0.04), 1.05)
		a.lo, a.hi = a.lo/f, a.hi*f
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
		figSetLogY(p, figNum)
	}
	p.Y.Min, p.Y.Max = a.lo, a.hi
}

func figYs(xys plotter.XYs) []float64 {
	out := make([]float64, len(xys))
	for i, p := range xys {
		out[i] = p.Y
	}
	return out
}

// ---- Sensitivity ----

// figSweepPanel is one sweep, ready to draw.
type figSweepPanel struct {
	sw          Sweep
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

func newFigSweepPanel(sw Sweep) figSweepPanel {
	sp := figSweepPanel{sw: sw, logX: sw.Log}
	n := min(len(sw.Values), len(sw.Objective))
	var cur, infeasible plotter.XYs
	for i := range n {
		x, y := sw.Values[i], sw.Objective[i]
		ok := i < len(sw.Feasible) && sw.Feasible[i]
		if !figFinite(x) || (sp.logX && x <= 0) {
			continue
		}
		switch {
		case !figFinite(y):
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
	sp.showBest = figFinite(sw.BestValue) && (!sp.logX || sw.BestValue > 0)
	sp.showDefault = figFinite(sw.DefaultValue) && (!sp.logX || sw.DefaultValue > 0)
	main := figYs(sp.points)
	if sp.showBest && figFinite(sw.BestObjective) {
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
	p := newFigPlot(title, label, yLabel)
	p.Title.TextStyle.Font.Size = 11
	if len(sp.points)+len(sp.infeasible)+len(sp.offScale) == 0 {
		p.Add(figNote{"no feasible point"})
	}
	for _, seg := range sp.segments {
		p.Add(figLine(seg, figColTrial, 1.2, nil))
	}
	if len(sp.points) > 0 {
		p.Add(figScatter(sp.points, draw.CircleGlyph{}, figColTrial, 2.2))
	}
	figAddInfeasible(p, nil, sp.infeasible, sp.offScale)
	if sp.showDefault {
		p.Add(figVLine{x: sw.DefaultValue, style: figLineStyle(figColDefault, 1.3, figDashed)})
	}
	if sp.showBest {
		p.Add(figVLine{x: sw.BestValue, style: figLineStyle(figColBest, 1.3, nil)})
		if figFinite(sw.BestObjective) && (!sp.axis.log || sw.BestObjective > 0) {
			p.Add(figScatter(plotter.XYs{{X: sw.BestValue, Y: sw.BestObjective}}, draw.RingGlyph{}, figColBest, 5))
		}
	}
	if sp.logX {
		p.X.Scale = plot.LogScale{}
	}
	switch {
	case sw.Bytes:
		p.X.Tick.Marker = figBytesTicks{log: sp.logX}
	case sp.logX:
		p.X.Tick.Marker = figLogTicks{format: figNum}
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
	caption := "The objective as one parameter varies with the other four at the best trial's values, one panel " +
		"per parameter, the most influential first (effect: how much worse the worst feasible value is than " +
		"the best); the solid blue line marks the best configuration's value, the dashed red line the default's."
	if infeasible+offScale > 0 {
		caption += " Grey crosses are infeasible points (triangles on a panel's top edge: off the scale)."
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
				p := newFigPlot("Sensitivity", "parameter value", vl)
				p.Add(figNote{"no sensitivity sweeps"})
				return figDrawGrid(dc, [][]*plot.Plot{{p}}, nil, nil)
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
			leg := newFigLegend()
			leg.Add("feasible point", figScatter(plotter.XYs{{}}, draw.CircleGlyph{}, figColTrial, 2.2), figLine(nil, figColTrial, 1.2, nil))
			if infeasible > 0 {
				leg.Add("infeasible point", figScatter(plotter.XYs{{}}, draw.CrossGlyph{}, figColInfeasible, 2.5))
			}
			if offScale > 0 {
				leg.Add("infeasible, off scale", figScatter(plotter.XYs{{}}, draw.TriangleGlyph{}, figColInfeasible, 3))
			}
			leg.Add("best value", figVLine{style: figLineStyle(figColBest, 1.3, nil)})
			leg.Add("default value", figVLine{style: figLineStyle(figColDefault, 1.3, figDashed)})
			var spare *[2]int
			if n%cols != 0 {
				spare = &[2]int{rows - 1, cols - 1}
			}
			return figDrawGrid(dc, grid, leg, spare)
		}),
	}
}

// ---- Run figures ----

func figRunTitle(c *Comparison, what string) string {
	if c.Workload == "" {
		return what
	}
	return c.Workload + ": " + what
}

// figRunClock is the x axis of the run figures: bytes allocated in a unit that suits the run.
type figRunClock struct {
	unit figUnit
	end  float64 // in unit
}

func newFigRunClock(c *Comparison) figRunClock {
	end := c.EndBytes
	for _, run := range []*Run{&c.Default, &c.Best} {
		if n := len(run.Events); n > 0 {
			end = max(end, run.Events[n-1].ClockBytes)
		}
	}
	if n := len(c.Live); n > 0 {
		end = max(end, c.Live[n-1].ClockBytes)
	}
	u := figChooseUnit(float64(end))
	if end == 0 {
		u = figUnit{float64(heapsim.GiB), "GiB"}
	}
	return figRunClock{unit: u, end: float64(end) / u.div}
}

func (rc figRunClock) x(clock uint64) float64 { return float64(clock) / rc.unit.div }
func (rc figRunClock) label() string          { return "bytes allocated (" + rc.unit.name + ")" }
func (rc figRunClock) apply(p *plot.Plot) {
	p.X.Min, p.X.Max = 0, rc.end
	if rc.end <= 0 {
		p.X.Max = 1
	}
}

func figRunLabel(run *Run, fallback string) string {
	if run.Label != "" {
		return run.Label
	}
	return fallback
}

type figRunStyle struct {
	run   *Run
	name  string
	color color.Color
	light color.Color
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

func figFootprint(i int, c *Comparison, budget uint64) Figure {
	rc := newFigRunClock(c)
	type series struct{ footprint, oldUsed plotter.XYs }
	var ss [2]series
	var top float64
	for k, rs := range figRunStyles(c) {
		evs := rs.run.Events
		if len(evs) == 0 {
			continue
		}
		first := evs[0].FootprintBytes
		if evs[0].Kind == heapsim.EventGrow && evs[0].SegmentBytes <= first {
			first -= evs[0].SegmentBytes
		}
		fp := plotter.XYs{{X: 0, Y: float64(first)}}
		var old plotter.XYs
		for _, e := range evs {
			x := rc.x(e.ClockBytes)
			fp = append(fp, plotter.XY{X: x, Y: float64(e.FootprintBytes)})
			top = max(top, float64(e.FootprintBytes))
			switch e.Kind {
			case heapsim.EventFullGC:
				if e.OldUsedBeforeBytes > 0 {
					old = append(old, plotter.XY{X: x, Y: float64(e.OldUsedBeforeBytes)})
					top = max(top, float64(e.OldUsedBeforeBytes))
				}
				old = append(old, plotter.XY{X: x, Y: float64(e.OldUsedBytes)})
			case heapsim.EventScavenge:
				old = append(old, plotter.XY{X: x, Y: float64(e.OldUsedBytes)})
				top = max(top, float64(e.OldUsedBytes))
			}
		}
		fp = append(fp, plotter.XY{X: rc.end, Y: fp[len(fp)-1].Y})
		ss[k] = series{footprint: figDownsample(fp, figMaxSeriesPoints), oldUsed: figDownsample(old, figMaxSeriesPoints)}
	}
	var live plotter.XYs
	for _, lp := range c.Live {
		live = append(live, plotter.XY{X: rc.x(lp.ClockBytes), Y: float64(lp.LiveBytes)})
		top = max(top, float64(lp.LiveBytes))
	}
	live = figDownsample(live, figMaxSeriesPoints)
	if budget > 0 {
		top = max(top, float64(budget))
	}
	yu := figChooseUnit(top)
	scaleY := func(xys plotter.XYs) plotter.XYs {
		out := make(plotter.XYs, len(xys))
		for j, p := range xys {
			out[j] = plotter.XY{X: p.X, Y: p.Y / yu.div}
		}
		return out
	}
	caption := "Footprint (new space plus old-space segments, solid step lines) and old-space use (dashed, " +
		"image included) over the run, default in red and best in blue"
	if len(live) > 0 {
		caption += ", with the application's live data (grey, image excluded)"
	}
	caption += "; the gap between footprint and old-space use is free memory, and each drop of the " +
		"dashed line is a full GC."
	return Figure{
		Name: fmt.Sprintf("run-%d-footprint", i+1), Section: SectionRun, Workload: i,
		Title:   figRunTitle(c, "memory over the run"),
		Caption: caption,
		render: figCanvas(figWideWidth, figWideHeight, func(dc draw.Canvas) error {
			p := newFigPlot(figRunTitle(c, "footprint and old-space use"), rc.label(), "memory ("+yu.name+")")
			leg := newFigLegend()
			drawn := false
			for k, rs := range figRunStyles(c) {
				if len(ss[k].footprint) == 0 {
					continue
				}
				drawn = true
				l := figLine(scaleY(ss[k].footprint), rs.color, 1.3*rs.wide, nil)
				l.StepStyle = plotter.PostStep
				o := figLine(scaleY(ss[k].oldUsed), rs.color, 0.9*rs.wide, figDashed)
				p.Add(l, o)
				leg.Add(rs.name+": footprint", l)
				leg.Add(rs.name+": old space used", o)
			}
			if len(live) > 0 {
				drawn = true
				l := figLine(scaleY(live), figColLive, 1.2, nil)
				p.Add(l)
				leg.Add("live data (application)", l)
			}
			if budget > 0 {
				h := figHLine{y: float64(budget) / yu.div, style: figLineStyle(figColBudget, 1, figDotted)}
				p.Add(h)
				leg.Add("budget "+figBytes(float64(budget)), h)
			}
			if !drawn {
				p.Add(figNote{"no events"})
			}
			p.Y.Min = 0
			if !(p.Y.Max > 0) {
				p.Y.Max = 1
			}
			rc.apply(p)
			return figDrawGrid(dc, [][]*plot.Plot{{p}}, leg, nil)
		}),
	}
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
	logY := figUseLogPositive(ys)
	for k := range ss {
		ss[k].total = figDownsample(ss[k].total, figMaxSeriesPoints)
		ss[k].rs = figDownsample(ss[k].rs, figMaxSeriesPoints)
	}
	caption := "Time of each scheduled scavenge in the cost model against the allocation clock, default in red " +
		"and best in blue"
	if anyRS {
		caption += "; the thin dotted lines are the part spent scanning the remembered set"
	}
	caption += "."
	if logY {
		caption += " The time axis is logarithmic."
	}
	return Figure{
		Name: fmt.Sprintf("run-%d-scavenges", i+1), Section: SectionRun, Workload: i,
		Title:   figRunTitle(c, "scavenge times"),
		Caption: caption,
		render: figCanvas(figWideWidth, figWideHeight, func(dc draw.Canvas) error {
			p := newFigPlot(figRunTitle(c, "scavenge times"), rc.label(), "scavenge time (ms)")
			leg := newFigLegend()
			markers := figMarkers(ss[0].count, ss[1].count)
			for k, rs := range figRunStyles(c) {
				s := ss[k]
				if s.count == 0 {
					continue
				}
				l := figLine(s.total, rs.color, 1.1*rs.wide, nil)
				p.Add(l)
				thumbs := []plot.Thumbnailer{l}
				if markers(s.count) {
					sc := figScatter(s.total, draw.CircleGlyph{}, rs.color, 1.6*math.Sqrt(rs.wide))
					p.Add(sc)
					thumbs = append(thumbs, sc)
				}
				leg.Add(fmt.Sprintf("%s: %d scavenges, %s s", rs.name, s.count, figNum(s.seconds)), thumbs...)
			}
			if anyRS {
				for k, rs := range figRunStyles(c) {
					segs := figPositiveSegments(ss[k].rs)
					if len(segs) == 0 {
						continue
					}
					var first *figPolyline
					for _, seg := range segs {
						l := figLine(seg, rs.light, 1.2*rs.wide, figDotted)
						p.Add(l)
						if first == nil {
							first = l
						}
					}
					leg.Add(rs.name+": remembered-set part", first)
				}
			}
			if len(ys) == 0 {
				p.Add(figNote{"no scavenges"})
			}
			if logY {
				figSetLogY(p, figNum)
			} else {
				p.Y.Min = 0
			}
			rc.apply(p)
			return figDrawGrid(dc, [][]*plot.Plot{{p}}, leg, nil)
		}),
	}
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

func figFullGCs(i int, c *Comparison) Figure {
	rc := newFigRunClock(c)
	// byCause[run][cause index]
	var byCause [2][3]plotter.XYs
	var counts [2]int
	var seconds [2]float64
	var ys []float64
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
			byCause[k][ci] = append(byCause[k][ci], plotter.XY{X: rc.x(e.ClockBytes), Y: e.Seconds})
			counts[k]++
			seconds[k] += e.Seconds
			ys = append(ys, e.Seconds)
		}
	}
	for k := range byCause {
		for j := range byCause[k] {
			byCause[k][j] = figDownsample(byCause[k][j], figMaxSeriesPoints)
		}
	}
	logY := figUseLogPositive(ys)
	ylo, ymax := math.Inf(1), 0.0
	for _, y := range ys {
		if y > 0 {
			ylo, ymax = min(ylo, y), max(ymax, y)
		}
	}
	if ymax == 0 {
		ymax = 1
	}
	caption := "Each full GC's time against the allocation clock, the default run in the top panel (reds) and " +
		"the best in the bottom one (blues); circles are ratio-triggered full GCs, triangles those forced " +
		"by a large allocation, squares explicit ones."
	if logY {
		caption += " The time axis is logarithmic."
	}
	return Figure{
		Name: fmt.Sprintf("run-%d-fullgcs", i+1), Section: SectionRun, Workload: i,
		Title:   figRunTitle(c, "full GCs"),
		Caption: caption,
		render: figCanvas(figWideWidth, figTallHeight, func(dc draw.Canvas) error {
			leg := newFigLegend()
			var panels [][]*plot.Plot
			for k, rs := range figRunStyles(c) {
				title := fmt.Sprintf("%s run: %d full GCs, %s s in all", rs.name, counts[k], figNum(seconds[k]))
				if counts[k] == 1 {
					title = fmt.Sprintf("%s run: 1 full GC, %s s", rs.name, figNum(seconds[k]))
				}
				if counts[k] == 0 {
					title = rs.name + " run: no full GCs"
				}
				xl := ""
				if k == 1 {
					xl = rc.label()
				}
				p := newFigPlot(figRunTitle(c, title), xl, "full GC time (s)")
				for j, fc := range figFullGCCauses {
					pts := byCause[k][j]
					if len(pts) == 0 {
						continue
					}
					sc := figScatter(pts, fc.shape, fc.cols[k], 3.5)
					p.Add(sc)
					leg.Add(fmt.Sprintf("%s: %s (%d)", rs.name, fc.cause, len(pts)), sc)
				}
				if counts[k] == 0 {
					p.Add(figNote{"no full GCs"})
				}
				if logY {
					figSetLogY(p, figNum)
					p.Y.Min, p.Y.Max = ylo/1.15, ymax*1.15
				} else {
					p.Y.Min, p.Y.Max = 0, ymax*1.08
				}
				rc.apply(p)
				panels = append(panels, []*plot.Plot{p})
			}
			return figDrawGrid(dc, panels, leg, nil)
		}),
	}
}

func figRememberedSet(i int, c *Comparison) Figure {
	rc := newFigRunClock(c)
	var entries, slots [2]plotter.XYs
	var counts [2]int
	var maxSlots float64
	for k, rs := range figRunStyles(c) {
		for _, e := range rs.run.Events {
			if e.Kind != heapsim.EventScavenge {
				continue
			}
			x := rc.x(e.ClockBytes)
			entries[k] = append(entries[k], plotter.XY{X: x, Y: e.RSEntries})
			slots[k] = append(slots[k], plotter.XY{X: x, Y: float64(e.RSSlots)})
			maxSlots = max(maxSlots, float64(e.RSSlots), e.RSEntries)
			counts[k]++
		}
		entries[k] = figDownsample(entries[k], figMaxSeriesPoints)
		slots[k] = figDownsample(slots[k], figMaxSeriesPoints)
	}
	caption := "The remembered set at each scheduled scavenge, default in red and best in blue: its entries " +
		"(old objects that point into new space, left) and the slots the scavenger scans in them (right); " +
		"a few big containers in it show as few entries but many slots."
	return Figure{
		Name: fmt.Sprintf("run-%d-remembered-set", i+1), Section: SectionRun, Workload: i,
		Title:   figRunTitle(c, "remembered set"),
		Caption: caption,
		render: figCanvas(figWideWidth, figWideHeight, func(dc draw.Canvas) error {
			leg := newFigLegend()
			markers := figMarkers(counts[0], counts[1])
			var row []*plot.Plot
			for j, what := range []struct {
				title, ylabel string
				data          [2]plotter.XYs
			}{
				{"remembered-set entries", "entries", entries},
				{"remembered-set slots scanned", "slots", slots},
			} {
				p := newFigPlot(figRunTitle(c, what.title), rc.label(), what.ylabel)
				for k, rs := range figRunStyles(c) {
					pts := what.data[k]
					if len(pts) == 0 {
						continue
					}
					l := figLine(pts, rs.color, 1.1*rs.wide, nil)
					p.Add(l)
					thumbs := []plot.Thumbnailer{l}
					if markers(counts[k]) {
						sc := figScatter(pts, draw.CircleGlyph{}, rs.color, 1.6*math.Sqrt(rs.wide))
						p.Add(sc)
						thumbs = append(thumbs, sc)
					}
					if j == 0 {
						leg.Add(fmt.Sprintf("%s (%d scavenges)", rs.name, counts[k]), thumbs...)
					}
				}
				if counts[0]+counts[1] == 0 {
					p.Add(figNote{"no scavenges"})
				} else if maxSlots == 0 {
					p.Add(figNote{"remembered set always empty"})
				}
				p.Y.Tick.Marker = figSITicks{}
				p.Y.Min = 0
				if !(p.Y.Max > 0) {
					p.Y.Max = 1
				}
				rc.apply(p)
				row = append(row, p)
			}
			return figDrawGrid(dc, [][]*plot.Plot{row}, leg, nil)
		}),
	}
}

func figTenured(i int, c *Comparison) Figure {
	rc := newFigRunClock(c)
	var tenured, garbage [2]plotter.XYs
	var top float64
	var anyGarbage bool
	for k, rs := range figRunStyles(c) {
		var sum, gsum float64
		tenured[k] = plotter.XYs{{X: 0, Y: 0}}
		garbage[k] = plotter.XYs{{X: 0, Y: 0}}
		for _, e := range rs.run.Events {
			x := rc.x(e.ClockBytes)
			if e.TenuredBytes > 0 {
				sum += float64(e.TenuredBytes)
				tenured[k] = append(tenured[k], plotter.XY{X: x, Y: sum})
			}
			if e.Kind == heapsim.EventFullGC && e.TenuredGarbageBytes > 0 {
				gsum += float64(e.TenuredGarbageBytes)
				garbage[k] = append(garbage[k], plotter.XY{X: x, Y: gsum})
			}
		}
		tenured[k] = append(tenured[k], plotter.XY{X: rc.end, Y: sum})
		garbage[k] = append(garbage[k], plotter.XY{X: rc.end, Y: gsum})
		top = max(top, sum, gsum)
		anyGarbage = anyGarbage || gsum > 0
		tenured[k] = figDownsample(tenured[k], figMaxSeriesPoints)
		garbage[k] = figDownsample(garbage[k], figMaxSeriesPoints)
	}
	yu := figChooseUnit(top)
	caption := "Bytes promoted to old space by scavenges, cumulated over the run (solid), default in red and " +
		"best in blue"
	if anyGarbage {
		caption += "; the dashed lines cumulate the tenured bytes that full GCs found already dead (premature " +
			"tenuring)"
	}
	caption += "."
	return Figure{
		Name: fmt.Sprintf("run-%d-tenured", i+1), Section: SectionRun, Workload: i,
		Title:   figRunTitle(c, "tenured bytes"),
		Caption: caption,
		render: figCanvas(figWideWidth, figWideHeight, func(dc draw.Canvas) error {
			p := newFigPlot(figRunTitle(c, "cumulative tenured bytes"), rc.label(), "cumulative bytes ("+yu.name+")")
			leg := newFigLegend()
			for k, rs := range figRunStyles(c) {
				if len(rs.run.Events) == 0 {
					continue
				}
				l := figLine(figScaleXYs(tenured[k], yu.div), rs.color, 1.3*rs.wide, nil)
				l.StepStyle = plotter.PostStep
				p.Add(l)
				leg.Add(fmt.Sprintf("%s: tenured (%s)", rs.name, figBytes(tenured[k][len(tenured[k])-1].Y)), l)
			}
			if anyGarbage {
				for k, rs := range figRunStyles(c) {
					if len(rs.run.Events) == 0 || garbage[k][len(garbage[k])-1].Y == 0 {
						continue
					}
					l := figLine(figScaleXYs(garbage[k], yu.div), rs.color, 1.1*rs.wide, figDashed)
					l.StepStyle = plotter.PostStep
					p.Add(l)
					leg.Add(fmt.Sprintf("%s: tenured garbage (%s)", rs.name, figBytes(garbage[k][len(garbage[k])-1].Y)), l)
				}
			}
			if len(c.Default.Events)+len(c.Best.Events) == 0 {
				p.Add(figNote{"no events"})
			}
			p.Y.Min = 0
			if top == 0 {
				p.Y.Max = 1
			}
			rc.apply(p)
			return figDrawGrid(dc, [][]*plot.Plot{{p}}, leg, nil)
		}),
	}
}

// ---- Layout ----

// figDrawGrid draws plots (rows × cols, nil for an empty tile) on dc, aligned, with leg drawn in
// the spare tile (row, col) if given, else in a strip on the right.
func figDrawGrid(dc draw.Canvas, plots [][]*plot.Plot, leg *plot.Legend, spare *[2]int) error {
	rows := len(plots)
	if rows == 0 || len(plots[0]) == 0 {
		return errFigNothingToDraw
	}
	cols := len(plots[0])
	for _, row := range plots {
		for _, p := range row {
			if p != nil {
				figFixAxis(&p.X)
				figFixAxis(&p.Y)
			}
		}
	}
	hasLegend := leg != nil && leg.Rectangle(dc).Size().X > 0
	area := dc
	if hasLegend && spare == nil {
		w := leg.Rectangle(dc).Size().X + 0.35*vg.Inch
		area = draw.Crop(dc, 0, -w, 0, 0)
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: 0.45 * vg.Inch, PadY: 0.25 * vg.Inch,
		PadTop: vg.Inch / 8, PadBottom: vg.Inch / 8, PadLeft: vg.Inch / 8, PadRight: vg.Inch / 4}
	canvases := plot.Align(plots, tiles, area)
	var dataTop vg.Length = -1
	for r, row := range plots {
		for c, p := range row {
			if p == nil {
				continue
			}
			p.Draw(canvases[r][c])
			if r == 0 && dataTop < 0 {
				dataTop = p.DataCanvas(canvases[r][c]).Max.Y
			}
		}
	}
	if !hasLegend {
		return nil
	}
	var lc draw.Canvas
	if spare != nil {
		lc = canvases[spare[0]][spare[1]]
		// Start level with the top of the data area of the row's first panel.
		if first := plots[spare[0]][0]; first != nil {
			lc.Max.Y = first.DataCanvas(canvases[spare[0]][0]).Max.Y
		}
		lc.Min.X += 0.3 * vg.Inch
	} else {
		lc = dc
		lc.Min.X = area.Max.X + 0.05*vg.Inch
		if dataTop > 0 {
			lc.Max.Y = dataTop
		}
	}
	leg.Top, leg.Left = true, true
	leg.Draw(lc)
	return nil
}

// figFixAxis keeps an axis drawable: an axis with no data spans [0, 1] ([1, 10] if
// logarithmic), a log axis a positive range that is not a single point.
func figFixAxis(a *plot.Axis) {
	if _, ok := a.Scale.(plot.LogScale); !ok {
		if a.Min > a.Max { // nothing set it
			a.Min, a.Max = 0, 1
		}
		return
	}
	switch {
	case !(a.Min > 0) || !(a.Max > 0) || math.IsInf(a.Min, 0) || math.IsInf(a.Max, 0):
		a.Min, a.Max = 1, 10
	case a.Max <= a.Min*(1+1e-9):
		a.Min, a.Max = a.Min/2, a.Max*2
	}
}

func newFigPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Tick.Marker = figLinearTicks{}
	p.Y.Tick.Marker = figLinearTicks{}
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = figColGrid, figColGrid
	g.Vertical.Width, g.Horizontal.Width = vg.Points(0.5), vg.Points(0.5)
	p.Add(g)
	return p
}

func newFigLegend() *plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font.Size = 10
	l.Padding = vg.Points(3)
	l.ThumbnailWidth = vg.Points(22)
	return &l
}

func figLineStyle(c color.Color, width float64, dashes []vg.Length) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(width), Dashes: dashes}
}

func figLine(xys plotter.XYs, c color.Color, width float64, dashes []vg.Length) *figPolyline {
	return &figPolyline{Line: plotter.Line{XYs: xys, LineStyle: figLineStyle(c, width, dashes)}}
}

// figPolyline is a plotter.Line stroked in pieces of figChunkPoints points: the PNG
// rasterizer's time grows with the square of a path's cells, and a long jagged line is one
// path, so a 3,000-point series took seconds as one stroke and takes milliseconds in pieces.
type figPolyline struct{ plotter.Line }

const figChunkPoints = 100

func (l *figPolyline) Plot(c draw.Canvas, p *plot.Plot) {
	xys := l.XYs
	for start := 0; ; start += figChunkPoints {
		end := min(start+figChunkPoints+1, len(xys)) // pieces share their end points
		part := l.Line
		part.XYs = xys[start:end]
		part.Plot(c, p)
		if end == len(xys) {
			return
		}
	}
}

func figScatter(xys plotter.XYs, shape draw.GlyphDrawer, c color.Color, radius float64) *plotter.Scatter {
	return &plotter.Scatter{XYs: xys, GlyphStyle: draw.GlyphStyle{Color: c, Radius: vg.Points(radius), Shape: shape}}
}

func figScaleXYs(xys plotter.XYs, div float64) plotter.XYs {
	out := make(plotter.XYs, len(xys))
	for i, p := range xys {
		out[i] = plotter.XY{X: p.X, Y: p.Y / div}
	}
	return out
}

// figPositiveSegments splits xys into runs of points with Y > 0 (a part that is often zero is
// drawn only where it is not).
func figPositiveSegments(xys plotter.XYs) []plotter.XYs {
	var out []plotter.XYs
	var cur plotter.XYs
	for _, p := range xys {
		if p.Y > 0 {
			cur = append(cur, p)
			continue
		}
		if len(cur) > 0 {
			out = append(out, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// figMarkers returns whether a series of n points of a figure whose series have counts points
// gets markers: all do when every series is short, else only the very short ones (a best run
// with four scavenges), which a line alone would hide.
func figMarkers(counts ...int) func(n int) bool {
	longest := slices.Max(append(counts, 0))
	return func(n int) bool { return n > 0 && (longest <= figMaxMarkers || n <= figFewPoints) }
}

// figSetLogY makes p's y axis logarithmic with labelled decades (and 2, 5 on short ranges).
func figSetLogY(p *plot.Plot, format func(float64) string) {
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = figLogTicks{format: format}
}

// figDownsample keeps at most limit points of xys: when it is longer, it splits it into limit/2
// buckets of consecutive points and keeps each bucket's lowest and highest point, in order,
// plus the first and last points, so that peaks and troughs survive.
func figDownsample(xys plotter.XYs, limit int) plotter.XYs {
	if len(xys) <= limit || limit < 8 {
		return xys
	}
	n := len(xys)
	buckets := (limit - 2) / 2
	out := make(plotter.XYs, 0, limit)
	out = append(out, xys[0])
	for b := range buckets {
		lo, hi := 1+b*(n-2)/buckets, 1+(b+1)*(n-2)/buckets
		if lo >= hi {
			continue
		}
		imin, imax := lo, lo
		for j := lo + 1; j < hi; j++ {
			if xys[j].Y < xys[imin].Y {
				imin = j
			}
			if xys[j].Y > xys[imax].Y {
				imax = j
			}
		}
		if imin == imax {
			out = append(out, xys[imin])
			continue
		}
		out = append(out, xys[min(imin, imax)], xys[max(imin, imax)])
	}
	return append(out, xys[n-1])
}

// ---- Plotters ----

// figVLine is a vertical line across the data area at x; it widens the x range to include x.
type figVLine struct {
	x     float64
	style draw.LineStyle
}

func (v figVLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(v.x)
	if x < c.Min.X-0.5 || x > c.Max.X+0.5 {
		return
	}
	c.StrokeLine2(v.style, x, c.Min.Y, x, c.Max.Y)
}

func (v figVLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return v.x, v.x, math.Inf(1), math.Inf(-1)
}

func (v figVLine) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(v.style, x, c.Min.Y, x, c.Max.Y)
}

// figHLine is a horizontal line across the data area at y; it widens the y range to include y.
type figHLine struct {
	y     float64
	style draw.LineStyle
}

func (h figHLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(h.y)
	if y < c.Min.Y-0.5 || y > c.Max.Y+0.5 {
		return
	}
	c.StrokeLine2(h.style, c.Min.X, y, c.Max.X, y)
}

func (h figHLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), h.y, h.y
}

func (h figHLine) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(h.style, c.Min.X, y, c.Max.X, y)
}

// note writes a short grey text in the middle of the data area ("no full GCs").
type figNote struct{ text string }

func (n figNote) Plot(c draw.Canvas, p *plot.Plot) {
	sty := p.Title.TextStyle
	sty.Color = figColNote
	sty.Font.Size = 12
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	c.FillText(sty, c.Center(), n.text)
}

// ---- Ticks ----

// figLogTicks labels a log axis: decades, plus 2× and 5× on ranges under about two decades, every
// other decade on ranges over seven; unlabelled minor ticks at the other integer multiples.
type figLogTicks struct{ format func(float64) string }

func (t figLogTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) || math.IsInf(hi, 0) {
		return nil
	}
	decades := math.Log10(hi / lo)
	labelled := map[int]bool{1: true}
	if decades < 2.2 {
		labelled[2], labelled[5] = true, true
	}
	if decades < 0.8 {
		labelled = map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true}
	}
	every := 1
	if decades > 7 {
		every = 2
	}
	var ticks []plot.Tick
	for k := int(math.Floor(math.Log10(lo))); k <= int(math.Ceil(math.Log10(hi))); k++ {
		base := math.Pow(10, float64(k))
		for m := 1; m <= 9; m++ {
			v := figRoundSig(base*float64(m), 12)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			tk := plot.Tick{Value: v}
			if labelled[m] && (m != 1 || k%every == 0) {
				tk.Label = t.format(v)
			}
			ticks = append(ticks, tk)
		}
	}
	return ticks
}

// figLinearTicks are plot.DefaultTicks labelled with as many decimals as the step needs
// (DefaultTicks writes 1 and 1.01 both as "1" on some ranges), through format when set.
type figLinearTicks struct{ format func(float64) string }

func (t figLinearTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi, 0) || math.IsInf(lo, 0) {
		return nil
	}
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	var major []float64
	for _, tk := range ticks {
		if tk.Label != "" {
			major = append(major, tk.Value)
		}
	}
	step := hi - lo
	for i := 1; i < len(major); i++ {
		step = min(step, math.Abs(major[i]-major[i-1]))
	}
	decimals := 0
	for ; decimals < 12; decimals++ {
		ok := true
		for _, v := range major {
			if r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', decimals, 64), 64); math.Abs(r-v) > step*1e-3 {
				ok = false
				break
			}
		}
		if ok {
			break
		}
	}
	for i := range ticks {
		if ticks[i].Label == "" {
			continue
		}
		v := ticks[i].Value
		if math.Abs(v) < step*1e-9 {
			v = 0 // not -0 or 1e-17
		}
		if t.format != nil {
			ticks[i].Label = t.format(v)
		} else {
			ticks[i].Label = strconv.FormatFloat(v, 'f', decimals, 64)
		}
	}
	return ticks
}

// figBytesTicks labels an axis of sizes in bytes with binary units: powers of two on a log axis,
// round numbers of MiB or GiB on a linear one.
type figBytesTicks struct{ log bool }

func (t figBytesTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi, 0) || math.IsInf(lo, 0) {
		return nil
	}
	if !t.log {
		u := figChooseUnit(max(math.Abs(lo), math.Abs(hi)))
		ticks := figLinearTicks{}.Ticks(lo/u.div, hi/u.div)
		for i := range ticks {
			ticks[i].Value *= u.div
			if ticks[i].Label != "" {
				ticks[i].Label += " " + u.name
			}
		}
		return ticks
	}
	if !(lo > 0) {
		return nil
	}
	k0, k1 := int(math.Ceil(math.Log2(lo)-1e-9)), int(math.Floor(math.Log2(hi)+1e-9))
	step := 1
	for (k1-k0)/step+1 > 5 {
		step++
	}
	var ticks []plot.Tick
	for k := k0; k <= k1; k++ {
		v := math.Ldexp(1, k)
		tk := plot.Tick{Value: v}
		if k%step == 0 {
			tk.Label = figBytes(v)
		}
		ticks = append(ticks, tk)
	}
	return ticks
}

// figSITicks are plot.DefaultTicks with k and M suffixes (1.5M for 1,500,000).
type figSITicks struct{}

func (figSITicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi, 0) || math.IsInf(lo, 0) {
		return nil
	}
	return figLinearTicks{format: figSI}.Ticks(lo, hi)
}

// ---- Numbers ----

type figUnit struct {
	div  float64
	name string
}

// figChooseUnit picks the binary unit in which b reads best: GiB from 1 GiB up, then MiB, KiB.
func figChooseUnit(b float64) figUnit {
	switch {
	case b >= float64(heapsim.GiB):
		return figUnit{float64(heapsim.GiB), "GiB"}
	case b >= float64(heapsim.MiB):
		return figUnit{float64(heapsim.MiB), "MiB"}
	case b >= 1024:
		return figUnit{1024, "KiB"}
	}
	return figUnit{1, "bytes"}
}

// figBytes writes a size with a binary unit and up to three significant digits: "860 MiB".
func figBytes(b float64) string {
	u := figChooseUnit(b)
	return figNum(b/u.div) + " " + u.name
}

// figNum writes x with up to four significant digits and no exponent for everyday magnitudes.
func figNum(x float64) string {
	if !figFinite(x) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	r := figRoundSig(x, 4)
	if a := math.Abs(r); a != 0 && (a < 1e-4 || a >= 1e7) {
		return strconv.FormatFloat(r, 'g', -1, 64)
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// figSI writes x with a k or M suffix: 4800000 → "4.8M".
func figSI(x float64) string {
	a := math.Abs(x)
	switch {
	case a >= 1e9:
		return figNum(x/1e9) + "G"
	case a >= 1e6:
		return figNum(x/1e6) + "M"
	case a >= 1e3:
		return figNum(x/1e3) + "k"
	}
	return figNum(x)
}

// figEffect writes a sweep's effect (a fraction) as a signed percentage: "+35%".
func figEffect(e float64) string {
	if !figFinite(e) {
		return "n/a"
	}
	pct := e * 100
	if math.Abs(pct) >= 10 {
		return fmt.Sprintf("%+.0f%%", pct)
	}
	return fmt.Sprintf("%+.1f%%", pct)
}

func figRoundSig(x float64, digits int) float64 {
	if x == 0 || !figFinite(x) {
		return x
	}
	scale := math.Pow(10, float64(digits)-math.Ceil(math.Log10(math.Abs(x))))
	return math.Round(x*scale) / scale
}

func figFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func figCmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// figUseLog reports whether values (finite ones) call for a log axis: all positive and spanning
// more than figLogRatio.
func figUseLog(values []float64) bool { return figUseLogRatio(values, figLogRatio) }

// figUseLogRatio reports whether positive values spanning more than ratio want a log axis.
func figUseLogRatio(values []float64, ratio float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if !figFinite(v) {
			continue
		}
		if v <= 0 {
			return false
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return hi > 0 && lo > 0 && hi/lo > ratio
}

// figUseLogPositive is figUseLog over the positive values only (zeros are left off a log axis).
func figUseLogPositive(values []float64) bool {
	var pos []float64
	for _, v := range values {
		if v > 0 {
			pos = append(pos, v)
		}
	}
	return figUseLog(pos)
}

func figLowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
