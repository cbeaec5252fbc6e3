package plotkit

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func TestDownsample(t *testing.T) {
	var xys plotter.XYs
	for i := range 20000 {
		xys = append(xys, plotter.XY{X: float64(i), Y: math.Sin(float64(i) / 50)})
	}
	xys[12345].Y = 7   // a spike
	xys[777].Y = -9    // a trough
	xys[19999].Y = 0.5 // the end
	out := Downsample(xys, 3000)
	assert.LessOrEqual(t, len(out), 3000)
	assert.Equal(t, xys[0], out[0])
	assert.Equal(t, xys[len(xys)-1], out[len(out)-1])
	assert.Contains(t, out, plotter.XY{X: 12345, Y: 7})
	assert.Contains(t, out, plotter.XY{X: 777, Y: -9})
	for i := 1; i < len(out); i++ {
		assert.Less(t, out[i-1].X, out[i].X, "in order")
	}
	short := xys[:100]
	assert.Equal(t, short, Downsample(short, 3000))
}

func TestTicks(t *testing.T) {
	labels := func(ticks []plot.Tick) []string {
		var out []string
		for _, tk := range ticks {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	// Sizes on a log axis: powers of two, at most four labels (five overlapped on a sweep
	// panel: "16 MiB128 MiB").
	got := labels(BytesTicks{Log: true}.Ticks(1<<20, 8<<30))
	assert.LessOrEqual(t, len(got), 4)
	assert.GreaterOrEqual(t, len(got), 3)
	for _, l := range got {
		assert.Regexp(t, `^[0-9]+ (KiB|MiB|GiB)$`, l)
	}
	assert.Equal(t, []string{"16 MiB", "128 MiB", "1 GiB"},
		labels(BytesTicks{Log: true}.Ticks(4<<20, 1<<30)))
	// A log axis of one decade gets at least three labels (550-4,600 s showed only 1000, 2000).
	assert.Equal(t, []string{"1000", "2000", "3000"}, labels(LogTicks{Format: Num}.Ticks(550, 4600)))
	// Sizes on a linear axis: round MiB.
	for _, l := range labels(BytesTicks{}.Ticks(0, 600<<20)) {
		assert.Regexp(t, `^[0-9.]+ MiB$`, l)
	}
	// A log axis over two decades: decades and 2, 5.
	assert.Equal(t, []string{"0.02", "0.05", "0.1", "0.2", "0.5", "1"}, labels(LogTicks{Format: Num}.Ticks(0.012, 1.5)))
	assert.Equal(t, []string{"0.1", "1", "10"}, labels(LogTicks{Format: Num}.Ticks(0.05, 50)))
	assert.Equal(t, []string{"0", "2M", "4M"}, labels(SITicks{}.Ticks(0, 4.8e6)))
	assert.Empty(t, LogTicks{Format: Num}.Ticks(0, 1))

	assert.Equal(t, "860 MiB", Bytes(860<<20))
	assert.Equal(t, "1.5 GiB", Bytes(1.5*(1<<30)))
	assert.Equal(t, "0.3333", Num(1.0/3))
	assert.Equal(t, "120.1", Num(120.1062950260211))
}

func TestSeries(t *testing.T) {
	xys := plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 2}, {X: 2, Y: 4}, {X: 3, Y: 0}, {X: 4, Y: 0}, {X: 5, Y: 6}}
	assert.Equal(t, []plotter.XYs{{{X: 1, Y: 2}, {X: 2, Y: 4}}, {{X: 5, Y: 6}}}, PositiveSegments(xys))
	assert.Empty(t, PositiveSegments(plotter.XYs{{X: 0, Y: 0}}))
	assert.Equal(t, plotter.XYs{{X: 1, Y: 1}, {X: 2, Y: 2}}, ScaleXYs(plotter.XYs{{X: 1, Y: 2}, {X: 2, Y: 4}}, 2))

	// Every series short: all get markers; one long: only the very short ones.
	short := Markers(10, 100)
	assert.True(t, short(100))
	assert.False(t, short(0))
	long := Markers(4, 5000)
	assert.True(t, long(4))
	assert.False(t, long(5000))
	assert.False(t, long(FewPoints+1))

	assert.True(t, UseLog([]float64{1, 100, math.NaN()}))
	assert.False(t, UseLog([]float64{1, 10}))
	assert.False(t, UseLog([]float64{0, 1000}))
	assert.True(t, UseLogPositive([]float64{0, 1, 1000}))
	assert.True(t, UseLogRatio([]float64{1, 5}, 4))
}

func TestFixAxis(t *testing.T) {
	p := plot.New()
	p.X.Min, p.X.Max = math.Inf(1), math.Inf(-1)
	FixAxis(&p.X)
	assert.Equal(t, [2]float64{0, 1}, [2]float64{p.X.Min, p.X.Max})
	p.Y.Scale = plot.LogScale{}
	p.Y.Min, p.Y.Max = 0, 5
	FixAxis(&p.Y)
	assert.Equal(t, [2]float64{1, 10}, [2]float64{p.Y.Min, p.Y.Max})
	p.Y.Min, p.Y.Max = 4, 4
	FixAxis(&p.Y)
	assert.Equal(t, [2]float64{2, 8}, [2]float64{p.Y.Min, p.Y.Max})
}

func TestRender(t *testing.T) {
	for _, format := range []string{"svg", "png", "pdf"} {
		var buf bytes.Buffer
		err := Render(&buf, format, 4*vg.Inch, 3*vg.Inch, 72, func(dc draw.Canvas) error {
			p := NewPlot("t", "x", "y")
			p.Add(Line(plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 2}}, ColNote, 1, Dashed), Note{Text: "n"})
			return DrawGrid(dc, [][]*plot.Plot{{p}}, NewLegend(), nil)
		})
		require.NoError(t, err, format)
		assert.NotEmpty(t, buf.Bytes(), format)
	}
	_, err := NewCanvas("gif", vg.Inch, vg.Inch, 72)
	assert.EqualError(t, err, `unknown format "gif" (want svg, png or pdf)`)
	assert.ErrorIs(t, DrawGrid(draw.Canvas{}, nil, nil, nil), ErrNothingToDraw)
}
