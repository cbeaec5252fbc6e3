package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gctune/gctune/heapsim"
)

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
		// The legend's width is measured with gonum's font; a browser showing the SVG may
		// substitute a wider one, so leave it a quarter more room than measured.
		w := 1.25*leg.Rectangle(dc).Size().X + 0.35*vg.Inch
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
	// An axis needs at least three labels to be read: widen the labelled set until it has
	// them (a run-time axis from 550 to 4,600 s would otherwise show only 1000 and 2000).
	for _, more := range []map[int]bool{{1: true, 2: true, 5: true}, {1: true, 2: true, 3: true, 5: true}, {1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true}} {
		if t.countLabels(lo, hi, labelled, every) >= 3 {
			break
		}
		for m := range more {
			labelled[m] = true
		}
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

// countLabels is how many ticks Ticks labels in [lo, hi] with the labelled multiples.
func (figLogTicks) countLabels(lo, hi float64, labelled map[int]bool, every int) int {
	n := 0
	for k := int(math.Floor(math.Log10(lo))); k <= int(math.Ceil(math.Log10(hi))); k++ {
		for m := range labelled {
			v := figRoundSig(math.Pow(10, float64(k))*float64(m), 12)
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) && (m != 1 || k%every == 0) {
				n++
			}
		}
	}
	return n
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
	// At most four labels: "128 MiB" is wide, and a sweep panel is a third of the page.
	step := 1
	for (k1-k0)/step+1 > 4 {
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
