package plotkit

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// Font is the figures' typeface at size points: Liberation Sans, which gonum/plot ships (its
// default, Liberation Serif, clashed with the report's sans-serif page). In SVG, a reader
// without it gets Arial or Helvetica, which have the same metrics (see SVGFontFamily).
func Font(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

// SVGFontFamily is the CSS font-family an SVG figure's text should name: Liberation Sans,
// then the fonts with its metrics, then any sans-serif.
const SVGFontFamily = "'Liberation Sans',Arial,Helvetica,sans-serif"

// Tick label padding: the gap between a label and its tick, beyond gonum/plot's (none under
// an x tick, one space beside a y tick). A browser showing an SVG may substitute a wider font
// than the one the layout was measured with, so the gap is generous.
const (
	tickPadX = 4 // points, y axis: between the label's right end and the tick
	tickPadY = 3 // points, x axis: between the tick's end and the label's top
)

// padded is a text handler that makes room round what it draws: Box reports the text dx
// wider and dy taller, and Draw moves it dx to the left, so that a right-aligned y tick label
// ends dx before its tick, and an x tick label sits dy below its tick.
type padded struct {
	text.Handler
	dx, dy vg.Length
}

// Box implements text.Handler.
func (h padded) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	width, height, depth = h.Handler.Box(txt, fnt)
	if txt == "" {
		return width, height, depth
	}
	return width + h.dx, height + h.dy, depth
}

// Draw implements text.Handler.
func (h padded) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	pt.X -= h.dx
	h.Handler.Draw(c, txt, sty, pt)
}

// styleText sets p's text in Font: the title (12 points), the axis labels (11) and the tick
// labels (10, padded away from their ticks).
func styleText(p *plot.Plot) {
	p.Title.TextStyle.Font = Font(12)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = Font(11)
		a.Tick.Label.Font = Font(10)
	}
	p.X.Tick.Label.Handler = padded{Handler: p.X.Tick.Label.Handler, dy: vg.Points(tickPadY)}
	p.Y.Tick.Label.Handler = padded{Handler: p.Y.Tick.Label.Handler, dx: vg.Points(tickPadX)}
}
