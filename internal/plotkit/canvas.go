package plotkit

import (
	"errors"
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// ErrNothingToDraw is returned by DrawGrid when it is given no plot.
var ErrNothingToDraw = errors.New("plotkit: nothing to draw")

// NewCanvas returns a width × height canvas that writes format: "svg", "png" (at dpi dots per
// inch) or "pdf".
func NewCanvas(format string, width, height vg.Length, dpi int) (vg.CanvasWriterTo, error) {
	switch format {
	case "svg":
		return vgsvg.New(width, height), nil
	case "png":
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(dpi))}, nil
	case "pdf":
		return vgpdf.New(width, height), nil
	}
	return nil, fmt.Errorf("unknown format %q (want svg, png or pdf)", format)
}

// Render draws fn on a white width × height canvas in format (see NewCanvas) and writes it to
// w.
func Render(w io.Writer, format string, width, height vg.Length, dpi int, fn func(dc draw.Canvas) error) error {
	c, err := NewCanvas(format, width, height, dpi)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	dc.FillPolygon(color.White, []vg.Point{dc.Min, {X: dc.Max.X, Y: dc.Min.Y}, dc.Max, {X: dc.Min.X, Y: dc.Max.Y}})
	if err := fn(dc); err != nil {
		return err
	}
	_, err = c.WriteTo(w)
	return err
}
