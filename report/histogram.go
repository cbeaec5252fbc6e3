package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/plotkit"
	"github.com/gctune/gctune/lifetimes"
)

// PlotFormat returns the figure format WriteHistogramPlot writes for a file name, from its
// extension: "svg", "png" or "pdf".
func PlotFormat(path string) (string, error) {
	switch ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), ".")); ext {
	case "svg", "png", "pdf":
		return ext, nil
	default:
		return "", fmt.Errorf("report: plot %q: unknown format %q (want .svg, .png or .pdf)", path, ext)
	}
}

// The lifetime histogram figure's size: two panels side by side.
const (
	histogramWidth  = 11 * vg.Inch
	histogramHeight = 4.5 * vg.Inch
	// histogramDPI is the resolution of a PNG figure.
	histogramDPI = 120
)

// WriteHistogramPlot draws h as a figure of two panels side by side, the share of objects and
// the share of allocated bytes per lifetime bin, and writes it to w in format ("svg", "png" or
// "pdf"; see PlotFormat). title names the workload; each panel's title adds what it shows.
//
// A LogScale histogram is drawn on a logarithmic lifetime axis; its first bin, [0, LogMin),
// cannot sit on that axis and is drawn one bin-width (in log terms) left of LogMin, the panel
// title saying so.
func WriteHistogramPlot(w io.Writer, format string, h *lifetimes.Histogram, title string) error {
	if h == nil || h.Bins() == 0 || len(h.Edges) != h.Bins()+1 {
		return errors.New("report: plot: empty or malformed histogram")
	}
	c, err := plotkit.NewCanvas(format, histogramWidth, histogramHeight, histogramDPI)
	if err != nil {
		return fmt.Errorf("report: plot: %w", err)
	}

	left, err := histogramPanel(h, h.ObjectShare, "share of objects (%)", title+": lifetimes by count")
	if err != nil {
		return err
	}
	right, err := histogramPanel(h, h.ByteShare, "share of allocated bytes (%)", title+": lifetimes by bytes")
	if err != nil {
		return err
	}
	plots := [][]*plot.Plot{{left, right}}
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Inch / 2, PadTop: vg.Inch / 8, PadBottom: vg.Inch / 8,
		PadLeft: vg.Inch / 8, PadRight: vg.Inch / 4}
	dc := draw.New(c)
	canvases := plot.Align(plots, tiles, dc)
	left.Draw(canvases[0][0])
	right.Draw(canvases[0][1])
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("report: plot: %w", err)
	}
	return nil
}

func histogramPanel(h *lifetimes.Histogram, shares []float64, yLabel, title string) (*plot.Plot, error) {
	// plotkit's plot: the report's font, padded tick labels, one number format per axis (the
	// default ticks wrote 50.00 beside 60).
	p := plotkit.NewPlot(title, "lifetime (% of run)", yLabel)
	p.Y.Min = 0
	bins := histogramBins(h, shares)
	if h.Scale == lifetimes.LogScale {
		lo := h.Edges[1]
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = percentTicks{log: true}
		// A long axis label makes gonum/plot shrink the whole panel, so the note on the first
		// bar goes in the title.
		p.Title.Text += fmt.Sprintf("\n(log-spaced bins; first bar: under %s)", numfmt.CompactPercent(lo))
	} else {
		p.X.Tick.Marker = percentTicks{}
	}
	var top float64
	for _, b := range bins {
		top = max(top, b.Weight)
	}
	p.Y.Max = max(1.05*top, 1)
	hist := &plotter.Histogram{
		Bins:      bins,
		FillColor: plotkit.ColBar,
		LineStyle: plotter.DefaultLineStyle,
	}
	hist.LineStyle.Width = vg.Points(0.5)
	p.Add(hist)
	return p, nil
}

// histogramBins returns the bars of h's panel for shares (h.ObjectShare or h.ByteShare): one
// per bin, its weight the share in percent. On a LogScale histogram the first bin, [0, LogMin),
// is moved one bin-width (in log terms) left of LogMin so that it can sit on a log axis.
func histogramBins(h *lifetimes.Histogram, shares []float64) []plotter.HistogramBin {
	bins := make([]plotter.HistogramBin, h.Bins())
	for i := range bins {
		bins[i] = plotter.HistogramBin{Min: h.Edges[i], Max: h.Edges[i+1], Weight: 100 * shares[i]}
	}
	if h.Scale == lifetimes.LogScale {
		lo := h.Edges[1]
		step := 10.0
		if len(h.Edges) > 2 && h.Edges[2] > lo {
			step = h.Edges[2] / lo
		}
		bins[0].Min = lo / step
	}
	return bins
}

// percentTicks labels a lifetime axis (fractions of the run) in percent: decades on a log
// axis, fifths of the run on a linear one.
type percentTicks struct{ log bool }

func (t percentTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	if t.log {
		if lo <= 0 {
			lo = 1e-12
		}
		for k := math.Floor(math.Log10(lo)); k <= math.Ceil(math.Log10(hi)); k++ {
			v := math.Pow(10, k)
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				ticks = append(ticks, plot.Tick{Value: v, Label: numfmt.CompactPercent(v)})
			}
		}
		return ticks
	}
	for i := 0; i <= 5; i++ {
		v := float64(i) / 5
		if v >= lo-1e-12 && v <= hi+1e-12 {
			ticks = append(ticks, plot.Tick{Value: v, Label: numfmt.CompactPercent(v)})
		}
	}
	return ticks
}
