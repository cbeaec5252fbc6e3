package plotkit

import (
	"image/color"

	"gonum.org/v1/plot/vg"
)

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
