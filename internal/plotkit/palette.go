package plotkit

import (
	"image/color"

	"gonum.org/v1/plot/vg"
)

// Colour is a palette colour with the word a caption uses for it: the one place that says
// what a colour is called, so that a caption cannot say "red" of an orange line.
type Colour struct {
	C color.RGBA
	// Word is the colour's name for readers ("orange", "blue").
	Word string
}

// RGBA implements color.Color.
func (c Colour) RGBA() (r, g, b, a uint32) { return c.C.RGBA() }

// The palette: Okabe and Ito's colours, which colour-blind readers tell apart, with a light and
// a dark shade of the two the report's runs are drawn in, and greys. The Word is what a reader
// would call the colour as drawn (Okabe-Ito's "vermillion" reads as orange, its "orange" as
// amber).
var (
	Vermillion      = Colour{color.RGBA{R: 213, G: 94, B: 0, A: 255}, "orange"}
	VermillionLight = Colour{color.RGBA{R: 238, G: 160, B: 110, A: 255}, "light orange"}
	VermillionDark  = Colour{color.RGBA{R: 130, G: 40, B: 0, A: 255}, "dark brown"}
	Amber           = Colour{color.RGBA{R: 230, G: 159, B: 0, A: 255}, "amber"}
	Blue            = Colour{color.RGBA{R: 0, G: 114, B: 178, A: 255}, "blue"}
	BlueLight       = Colour{color.RGBA{R: 110, G: 175, B: 220, A: 255}, "light blue"}
	BlueDark        = Colour{color.RGBA{R: 8, G: 48, B: 107, A: 255}, "navy"}
	SkyBlue         = Colour{color.RGBA{R: 86, G: 180, B: 233, A: 255}, "sky blue"}
	BluishGreen     = Colour{color.RGBA{R: 0, G: 140, B: 100, A: 255}, "green"}
	ReddishPurple   = Colour{color.RGBA{R: 204, G: 121, B: 167, A: 255}, "purple"}
	Charcoal        = Colour{color.RGBA{R: 60, G: 60, B: 60, A: 255}, "dark grey"}
	DarkGrey        = Colour{color.RGBA{R: 80, G: 80, B: 80, A: 255}, "dark grey"}
	Grey            = Colour{color.RGBA{R: 165, G: 165, B: 165, A: 255}, "grey"}
	Black           = Colour{color.RGBA{R: 20, G: 20, B: 20, A: 255}, "black"}
)

// Transparent returns c with opacity alpha (0-1), premultiplied as image/color wants it.
func Transparent(c color.Color, alpha float64) color.Color {
	r, g, b, a := c.RGBA()
	f := func(v uint32) uint8 { return uint8(float64(v>>8) * alpha) }
	return color.RGBA{R: f(r), G: f(g), B: f(b), A: f(a)}
}

// Neutral colours and dash patterns shared by every figure. They are values; callers must not
// modify the slices.
var (
	// ColGrid is the colour of a plot's grid lines.
	ColGrid = color.Gray{Y: 215}
	// ColNote is the colour of a Note's text.
	ColNote = color.Gray{Y: 110}
	// ColBar is the fill of histogram bars.
	ColBar = color.RGBA{R: 70, G: 110, B: 170, A: 255}
	// Dashed and Dotted are dash patterns for LineStyle.
	Dashed = []vg.Length{vg.Points(5), vg.Points(3)}
	Dotted = []vg.Length{vg.Points(1.5), vg.Points(2)}
)

// Series limits and scale choices.
const (
	// MaxMarkers is the most points a figure's lines are drawn with markers; longer lines go
	// without, except those of at most FewPoints points (see Markers).
	MaxMarkers = 150
	FewPoints  = 40
	// LogRatio is the max/min ratio from which a magnitude axis goes logarithmic (see UseLog).
	LogRatio = 20
)
