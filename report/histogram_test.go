package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/plotter"

	"github.com/gctune/gctune/lifetimes"
)

func TestHistogramBins(t *testing.T) {
	lin := &lifetimes.Histogram{Scale: lifetimes.LinearScale, Edges: []float64{0, 0.5, 1}, Objects: []uint64{3, 1},
		ObjectShare: []float64{0.75, 0.25}}
	assert.Equal(t, []plotter.HistogramBin{{Min: 0, Max: 0.5, Weight: 75}, {Min: 0.5, Max: 1, Weight: 25}},
		histogramBins(lin, lin.ObjectShare))

	// The log histogram's first bin, [0, 0.001), is drawn one decade left of 0.001.
	log := &lifetimes.Histogram{Scale: lifetimes.LogScale, Edges: []float64{0, 0.001, 0.01, 0.1, 1}, Objects: []uint64{1, 1, 1, 1},
		ByteShare: []float64{0.1, 0.2, 0.3, 0.4}}
	bins := histogramBins(log, log.ByteShare)
	require.Len(t, bins, 4)
	assert.InDelta(t, 0.0001, bins[0].Min, 1e-15)
	assert.Equal(t, 0.001, bins[0].Max)
	assert.Equal(t, plotter.HistogramBin{Min: 0.1, Max: 1, Weight: 40}, bins[3])
}

func TestWriteHistogramPlot(t *testing.T) {
	h := &lifetimes.Histogram{Scale: lifetimes.LinearScale, Edges: []float64{0, 0.5, 1}, Objects: []uint64{3, 1},
		Bytes: []uint64{30, 10}, ObjectShare: []float64{0.75, 0.25}, ByteShare: []float64{0.75, 0.25}}
	var buf bytes.Buffer
	require.NoError(t, WriteHistogramPlot(&buf, "svg", h, "app"))
	assert.Contains(t, buf.String(), "app: lifetimes by count")

	err := WriteHistogramPlot(&buf, "gif", h, "app")
	require.Error(t, err)
	assert.Equal(t, `report: plot: unknown format "gif" (want svg, png or pdf)`, err.Error())
	assert.True(t, strings.HasPrefix(WriteHistogramPlot(&buf, "svg", &lifetimes.Histogram{}, "x").Error(), "report: plot:"))
}
