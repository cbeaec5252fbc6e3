package plotkit

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
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
	// A log axis under a decade is labelled over its whole range: the trials between 585 and
	// 1,000 s of a search whose default took 4,271 s showed only 1000/2000/3000.
	assert.Equal(t, []string{"600", "800", "1000", "2000", "3000", "4000"}, labels(LogTicks{}.Ticks(560, 4470)))
	// Under a third of a decade: linear steps.
	assert.Equal(t, []string{"600", "620", "640", "660", "680", "700"}, labels(LogTicks{}.Ticks(585, 700)))
	// Sizes on a linear axis: round MiB.
	for _, l := range labels(BytesTicks{}.Ticks(0, 600<<20)) {
		assert.Regexp(t, `^[0-9.]+ MiB$`, l)
	}
	// A log axis over two decades: decades and 2, 5, each label its own shortest decimal (an
	// axis of scavenge times read 500.00, 100.00 ... 0.01).
	assert.Equal(t, []string{"0.02", "0.05", "0.1", "0.2", "0.5", "1"}, labels(LogTicks{}.Ticks(0.012, 1.5)))
	assert.Equal(t, []string{"0.01", "0.03", "0.1", "0.3", "1", "3", "10", "30", "100"}, labels(LogTicks{}.Ticks(0.005, 172)))
	// A narrow axis asks for fewer labels: decades only.
	assert.Equal(t, []string{"0.1", "1", "10"}, labels(LogTicks{Labels: 4}.Ticks(0.05, 50)))
	assert.Equal(t, []string{"0.1", "1", "10"}, labels(LogTicks{Format: Num, Labels: 4}.Ticks(0.05, 50)))
	assert.Empty(t, LogTicks{}.Ticks(0, 1))
	// Bounds widens a log axis that ends far beyond its outermost labels to labelled round
	// ends: the large-allocation full GCs of 11-13 s sat above the top label, 10, of a
	// 0.17-15 s axis. An end near a label stays.
	for _, c := range [][2]float64{{0.17, 15.2}, {0.005, 172}, {560, 4470}, {0.012, 1.5}, {470, 4800}, {2.9, 31}, {448, 5140}} {
		lo, hi := LogTicks{}.Bounds(c[0], c[1])
		assert.LessOrEqual(t, lo, c[0], "%v", c)
		assert.GreaterOrEqual(t, hi, c[1], "%v", c)
		assert.Less(t, hi/lo, 10*c[1]/c[0], "%v: at most a decade wider", c)
		var first, last float64
		for _, tk := range (LogTicks{}).Ticks(lo, hi) {
			if tk.Label != "" {
				if first == 0 {
					first = tk.Value
				}
				last = tk.Value
			}
		}
		assert.LessOrEqual(t, first, lo*1.15, "%v: a label at the bottom", c)
		assert.GreaterOrEqual(t, last*1.15, hi, "%v: a label at the top", c)
	}
	lo, hi := LogTicks{}.Bounds(0.17, 15.2)
	assert.Equal(t, [2]float64{0.1, 20}, [2]float64{lo, hi})
	lo, hi = LogTicks{}.Bounds(448, 5140)
	assert.Equal(t, [2]float64{448, 5140}, [2]float64{lo, hi}, "labels at 500 and 5000: left as it is")
	// Too short for log labels: left as it is (linear steps label it).
	lo, hi = LogTicks{}.Bounds(585, 700)
	assert.Equal(t, [2]float64{585, 700}, [2]float64{lo, hi})
	// SI ticks: one unit and one format for the axis.
	assert.Equal(t, []string{"0", "1M", "2M", "3M", "4M"}, labels(SITicks{}.Ticks(0, 4.8e6)))
	assert.Equal(t, []string{"0", "0.5M", "1.0M", "1.5M"}, labels(SITicks{}.Ticks(0, 1.6e6)))
	// Linear ticks at round steps: a 200-trial axis reads 0/50/100/150/200, not 0/90/180.
	assert.Equal(t, []string{"0", "50", "100", "150", "200"}, labels(LinearTicks{}.Ticks(0, 200)))
	assert.Equal(t, []string{"0", "10", "20", "30", "40", "50"}, labels(LinearTicks{}.Ticks(0, 59)))
	// One format per axis: 50.00 beside 60 was wrong, and so is 0.5 beside 1.
	assert.Equal(t, []string{"0.0", "0.5", "1.0", "1.5"}, labels(LinearTicks{}.Ticks(-0.04, 1.6)))
	assert.Equal(t, []string{"0.50", "1.00", "1.25"}, Decimals([]float64{0.5, 1, 1.25}))
	// Linear ticks: majors labelled, minors between, all inside the range.
	for _, tk := range (LinearTicks{}).Ticks(585, 1000) {
		assert.True(t, tk.Value >= 585 && tk.Value <= 1000, "tick %v out of range", tk.Value)
	}

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

func TestTextStyle(t *testing.T) {
	p := NewPlot("t", "x", "y")
	for _, f := range []font.Font{p.Title.TextStyle.Font, p.X.Label.TextStyle.Font, p.Y.Tick.Label.Font, NewLegend().TextStyle.Font} {
		assert.Equal(t, font.Variant("Sans"), f.Variant, "every text of a figure is sans-serif")
	}
	// Tick labels are padded away from their ticks: an x label is taller by the padding, a y
	// label wider, and it is drawn that much to the left.
	plain := plot.New()
	assert.InDelta(t, float64(vg.Points(tickPadY)), float64(p.X.Tick.Label.Height("10")-plain.X.Tick.Label.Height("10")), 0.5)
	wp := p.Y.Tick.Label.Width("1000")
	p.Y.Tick.Label.Handler = plain.Y.Tick.Label.Handler
	assert.InDelta(t, float64(vg.Points(tickPadX)), float64(wp-p.Y.Tick.Label.Width("1000")), 0.01)

	// The SVG names Liberation Sans, never the serif.
	var buf bytes.Buffer
	require.NoError(t, Render(&buf, "svg", 3*vg.Inch, 2*vg.Inch, 72, func(dc draw.Canvas) error {
		return DrawGrid(dc, [][]*plot.Plot{{NewPlot("t", "x", "y")}}, nil, nil)
	}))
	assert.Contains(t, buf.String(), "font-family:Liberation Sans;")
	assert.NotContains(t, buf.String(), "Serif")
}

func TestPalette(t *testing.T) {
	// The report's default colour is vermillion, which reads as orange: its caption word says so.
	assert.Equal(t, "orange", Vermillion.Word)
	r, g, b, a := Vermillion.RGBA()
	assert.Equal(t, [4]uint32{213 * 0x101, 94 * 0x101, 0, 0xffff}, [4]uint32{r, g, b, a})
	_, _, _, a = Transparent(Blue, 0.5).RGBA()
	assert.InDelta(t, 0x7f7f, a, 0x200)
}
