package plotkit

import (
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// DrawGrid draws plots (rows × cols, nil for an empty tile) on dc, aligned, with leg drawn in
// the spare tile (row, col) if given, else in a strip on the right.
func DrawGrid(dc draw.Canvas, plots [][]*plot.Plot, leg *plot.Legend, spare *[2]int) error {
	rows := len(plots)
	if rows == 0 || len(plots[0]) == 0 {
		return ErrNothingToDraw
	}
	cols := len(plots[0])
	for _, row := range plots {
		for _, p := range row {
			if p != nil {
				FixAxis(&p.X)
				FixAxis(&p.Y)
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

// FixAxis keeps an axis drawable: an axis with no data spans [0, 1] ([1, 10] if
// logarithmic), a log axis a positive range that is not a single point.
func FixAxis(a *plot.Axis) {
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

// NewPlot returns a plot with the title and axis labels in Font, linear ticks with padded
// labels and a light grid.
func NewPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Tick.Marker = LinearTicks{}
	p.Y.Tick.Marker = LinearTicks{}
	styleText(p)
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = ColGrid, ColGrid
	g.Vertical.Width, g.Horizontal.Width = vg.Points(0.5), vg.Points(0.5)
	p.Add(g)
	return p
}

// NewLegend returns a legend in 10-point Font with short thumbnails.
func NewLegend() *plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = Font(10)
	l.Padding = vg.Points(3)
	l.ThumbnailWidth = vg.Points(22)
	return &l
}

// LineStyle is a line style of colour c, width points wide, dashed by dashes (nil: solid).
func LineStyle(c color.Color, width float64, dashes []vg.Length) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(width), Dashes: dashes}
}

// Line is a line through xys in the style LineStyle(c, width, dashes).
func Line(xys plotter.XYs, c color.Color, width float64, dashes []vg.Length) *Polyline {
	return &Polyline{Line: plotter.Line{XYs: xys, LineStyle: LineStyle(c, width, dashes)}}
}

// Polyline is a plotter.Line stroked in pieces of chunkPoints points: the PNG
// rasterizer's time grows with the square of a path's cells, and a long jagged line is one
// path, so a 3,000-point series took seconds as one stroke and takes milliseconds in pieces.
type Polyline struct{ plotter.Line }

const chunkPoints = 100

// Plot strokes the line in pieces of at most chunkPoints points.
func (l *Polyline) Plot(c draw.Canvas, p *plot.Plot) {
	xys := l.XYs
	for start := 0; ; start += chunkPoints {
		end := min(start+chunkPoints+1, len(xys)) // pieces share their end points
		part := l.Line
		part.XYs = xys[start:end]
		part.Plot(c, p)
		if end == len(xys) {
			return
		}
	}
}

// Scatter marks each point of xys with shape in colour c and radius points.
func Scatter(xys plotter.XYs, shape draw.GlyphDrawer, c color.Color, radius float64) *plotter.Scatter {
	return &plotter.Scatter{XYs: xys, GlyphStyle: draw.GlyphStyle{Color: c, Radius: vg.Points(radius), Shape: shape}}
}

// ScaleXYs returns a copy of xys with every Y divided by div.
func ScaleXYs(xys plotter.XYs, div float64) plotter.XYs {
	out := make(plotter.XYs, len(xys))
	for i, p := range xys {
		out[i] = plotter.XY{X: p.X, Y: p.Y / div}
	}
	return out
}

// PositiveSegments splits xys into runs of points with Y > 0 (a part that is often zero is
// drawn only where it is not).
func PositiveSegments(xys plotter.XYs) []plotter.XYs {
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

// Markers returns whether a series of n points of a figure whose series have counts points
// gets markers: all do when every series is short, else only the very short ones (a best run
// with four scavenges), which a line alone would hide.
func Markers(counts ...int) func(n int) bool {
	longest := slices.Max(append(counts, 0))
	return func(n int) bool { return n > 0 && (longest <= MaxMarkers || n <= FewPoints) }
}

// SetLogY makes p's y axis logarithmic, labelled by LogTicks.
func SetLogY(p *plot.Plot) {
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = LogTicks{}
}

// FitLogY makes p's y axis logarithmic from lo to hi (lo > 0), widened by LogTicks.Bounds so
// that both ends are labelled: no value drawn lies above the top label or below the bottom one.
func FitLogY(p *plot.Plot, lo, hi float64) {
	SetLogY(p)
	p.Y.Min, p.Y.Max = LogTicks{}.Bounds(lo, hi)
}

// Downsample keeps at most limit points of xys: when it is longer, it splits it into limit/2
// buckets of consecutive points and keeps each bucket's lowest and highest point, in order,
// plus the first and last points, so that peaks and troughs survive.
func Downsample(xys plotter.XYs, limit int) plotter.XYs {
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
