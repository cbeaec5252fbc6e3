package plotkit

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
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
	strokeAcross(c, v.Style, trX(v.X), true)
}

// DataRange implements plot.DataRanger: x, and no y range.
func (v VLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return v.X, v.X, math.Inf(1), math.Inf(-1)
}

// Thumbnail implements plot.Thumbnailer: a vertical stroke.
func (v VLine) Thumbnail(c *draw.Canvas) { strokeAcross(*c, v.Style, (c.Min.X+c.Max.X)/2, true) }

// HLine is a horizontal line across the data area at y; it widens the y range to include y.
type HLine struct {
	Y     float64
	Style draw.LineStyle
}

// Plot implements plot.Plotter.
func (h HLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	strokeAcross(c, h.Style, trY(h.Y), false)
}

// DataRange implements plot.DataRanger: y, and no x range.
func (h HLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), h.Y, h.Y
}

// Thumbnail implements plot.Thumbnailer: a horizontal stroke.
func (h HLine) Thumbnail(c *draw.Canvas) { strokeAcross(*c, h.Style, (c.Min.Y+c.Max.Y)/2, false) }

// strokeAcross strokes a line across c at at, an x (vertical) or a y; nothing when at is off
// the canvas by more than half a point.
func strokeAcross(c draw.Canvas, style draw.LineStyle, at vg.Length, vertical bool) {
	lo, hi := c.Min.Y, c.Max.Y
	if vertical {
		lo, hi = c.Min.X, c.Max.X
	}
	if at < lo-0.5 || at > hi+0.5 {
		return
	}
	if vertical {
		c.StrokeLine2(style, at, c.Min.Y, at, c.Max.Y)
		return
	}
	c.StrokeLine2(style, c.Min.X, at, c.Max.X, at)
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

// TickGlyph draws a point as a short vertical stroke as tall as the glyph's diameter: many
// such ticks side by side stay apart where filled markers would merge into a band, and, drawn
// translucent, darken where they crowd.
type TickGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (TickGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	ls := draw.LineStyle{Color: sty.Color, Width: vg.Points(0.8)}
	c.StrokeLine2(ls, pt.X, pt.Y-sty.Radius, pt.X, pt.Y+sty.Radius)
}

// ThickRing draws a point as an open circle stroked Width points wide (gonum's RingGlyph
// strokes half a point, too thin for its colour to read: a purple ring looked grey).
type ThickRing struct{ Width float64 }

// DrawGlyph implements draw.GlyphDrawer.
func (r ThickRing) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	w := r.Width
	if w <= 0 {
		w = 1.2
	}
	var p vg.Path
	p.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	p.Arc(pt, sty.Radius, 0, 2*math.Pi)
	p.Close()
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(w)})
	c.Stroke(p)
}

// SideBySide is one legend entry's thumbnail made of several drawn next to each other: the
// same mark in each colour it has in the figure (a blue and an orange bar for intervals drawn
// in both), so that the swatch is what the figure draws.
type SideBySide []plot.Thumbnailer

// Thumbnail implements plot.Thumbnailer.
func (s SideBySide) Thumbnail(c *draw.Canvas) {
	if len(s) == 0 {
		return
	}
	w := (c.Max.X - c.Min.X) / vg.Length(len(s))
	for i, t := range s {
		sub := *c
		sub.Min.X = c.Min.X + w*vg.Length(i)
		sub.Max.X = sub.Min.X + w
		t.Thumbnail(&sub)
	}
}

// DownTriangle draws a point as a filled triangle pointing down, its tip on the point: a
// mark for a drop (a shrink of the footprint).
type DownTriangle struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (DownTriangle) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	tip := vg.Point{X: pt.X, Y: pt.Y}
	c.FillPolygon(sty.Color, []vg.Point{tip, {X: pt.X - r, Y: pt.Y + 1.7*r}, {X: pt.X + r, Y: pt.Y + 1.7*r}})
}
