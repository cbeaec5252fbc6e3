package plotkit

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"
)

// VLine is a vertical line across the data area at x; it widens the x range to include x.
type VLine struct {
	X     float64
	Style draw.LineStyle
}

// Plot implements plot.Plotter.
func (v VLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(v.X)
	if x < c.Min.X-0.5 || x > c.Max.X+0.5 {
		return
	}
	c.StrokeLine2(v.Style, x, c.Min.Y, x, c.Max.Y)
}

// DataRange implements plot.DataRanger: x, and no y range.
func (v VLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return v.X, v.X, math.Inf(1), math.Inf(-1)
}

// Thumbnail implements plot.Thumbnailer: a vertical stroke.
func (v VLine) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(v.Style, x, c.Min.Y, x, c.Max.Y)
}

// HLine is a horizontal line across the data area at y; it widens the y range to include y.
type HLine struct {
	Y     float64
	Style draw.LineStyle
}

// Plot implements plot.Plotter.
func (h HLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(h.Y)
	if y < c.Min.Y-0.5 || y > c.Max.Y+0.5 {
		return
	}
	c.StrokeLine2(h.Style, c.Min.X, y, c.Max.X, y)
}

// DataRange implements plot.DataRanger: y, and no x range.
func (h HLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), h.Y, h.Y
}

// Thumbnail implements plot.Thumbnailer: a horizontal stroke.
func (h HLine) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(h.Style, c.Min.X, y, c.Max.X, y)
}

// Note writes a short grey text in the middle of the data area ("no full GCs").
type Note struct{ Text string }

// Plot implements plot.Plotter.
func (n Note) Plot(c draw.Canvas, p *plot.Plot) {
	sty := p.Title.TextStyle
	sty.Color = ColNote
	sty.Font.Size = 12
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	c.FillText(sty, c.Center(), n.Text)
}
