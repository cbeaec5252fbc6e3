package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/plot/plotter"

	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/heapsim"
)

// TestFigFullGCSeries checks the full-GC figure's series: each full GC by run and cause, on
// the clock in MiB, with the runs' counts and seconds.
func TestFigFullGCSeries(t *testing.T) {
	mib := uint64(heapsim.MiB)
	c := &Comparison{EndBytes: 100 * mib,
		Default: diagnose.Run{Label: "default", Events: []heapsim.Event{
			{Kind: heapsim.EventScavenge, ClockBytes: 5 * mib, Seconds: 9},
			{Kind: heapsim.EventFullGC, Cause: heapsim.CauseRatio, ClockBytes: 10 * mib, Seconds: 0.5},
			{Kind: heapsim.EventFullGC, Cause: heapsim.CauseLargeAlloc, ClockBytes: 20 * mib, Seconds: 0.25},
		}},
		Best: diagnose.Run{Label: "best", Events: []heapsim.Event{
			{Kind: heapsim.EventFullGC, Cause: heapsim.CauseRatio, ClockBytes: 50 * mib, Seconds: 1},
		}},
	}
	rc := newFigRunClock(c)
	assert.Equal(t, "bytes allocated (MiB)", rc.label())
	fs := newFigFullGCSeries(c, rc)
	assert.Equal(t, plotter.XYs{{X: 10, Y: 0.5}}, fs.byCause[0][0])
	assert.Equal(t, plotter.XYs{{X: 20, Y: 0.25}}, fs.byCause[0][1])
	assert.Empty(t, fs.byCause[0][2])
	assert.Equal(t, plotter.XYs{{X: 50, Y: 1}}, fs.byCause[1][0])
	assert.Equal(t, [2]int{2, 1}, fs.counts)
	assert.Equal(t, [2]float64{0.75, 1}, fs.seconds)
	assert.Equal(t, []float64{0.5, 0.25, 1}, fs.ys)
	assert.True(t, fs.hasCause(heapsim.CauseLargeAlloc))

	// The caption names squares (explicit full GCs) only when a run has one: the simulator
	// makes none.
	assert.False(t, fs.hasCause(heapsim.CauseExplicit))
	assert.NotContains(t, figFullGCs(0, c).Caption, "explicit")
	c.Best.Events = append(c.Best.Events, heapsim.Event{Kind: heapsim.EventFullGC, Cause: heapsim.CauseExplicit, ClockBytes: 60 * mib, Seconds: 1})
	assert.Contains(t, figFullGCs(0, c).Caption, "squares explicit ones.")
	assert.NotContains(t, figFullGCs(0, c).Caption, "tick")

	// 290 large-allocation full GCs overplotted into a solid band: past figMaxFullGCMarkers of
	// one cause they are drawn as translucent ticks, and the caption says so.
	for k := range 290 {
		c.Default.Events = append(c.Default.Events, heapsim.Event{Kind: heapsim.EventFullGC, Cause: heapsim.CauseLargeAlloc,
			ClockBytes: 70*mib + uint64(k)*mib/10, Seconds: 12})
	}
	f := figFullGCs(0, c)
	assert.Contains(t, f.Caption, "short translucent tick")
	svg, err := f.SVG()
	assert.NoError(t, err)
	assert.Contains(t, string(svg), "default: large-alloc (291)", "the legend counts every full GC, not the downsampled points")
}

// TestFigCumulativeTenured checks the tenured-bytes figure's series: cumulated step points
// from (0, 0) to the end of the run.
func TestFigCumulativeTenured(t *testing.T) {
	mib := uint64(heapsim.MiB)
	run := &diagnose.Run{Events: []heapsim.Event{
		{Kind: heapsim.EventScavenge, ClockBytes: 10 * mib, TenuredBytes: 2 * mib},
		{Kind: heapsim.EventScavenge, ClockBytes: 20 * mib},
		{Kind: heapsim.EventScavenge, ClockBytes: 30 * mib, TenuredBytes: 3 * mib},
		{Kind: heapsim.EventFullGC, ClockBytes: 40 * mib, TenuredGarbageBytes: mib},
	}}
	c := &Comparison{EndBytes: 50 * mib, Default: *run}
	rc := newFigRunClock(c)
	tenured, garbage := figCumulativeTenured(run, rc)
	m := float64(mib)
	assert.Equal(t, plotter.XYs{{X: 0, Y: 0}, {X: 10, Y: 2 * m}, {X: 30, Y: 5 * m}, {X: 50, Y: 5 * m}}, tenured)
	assert.Equal(t, plotter.XYs{{X: 0, Y: 0}, {X: 40, Y: m}, {X: 50, Y: m}}, garbage)
	tenured, garbage = figCumulativeTenured(&diagnose.Run{}, rc)
	assert.Equal(t, plotter.XYs{{X: 0, Y: 0}, {X: 50, Y: 0}}, tenured)
	assert.Equal(t, tenured, garbage)
}

func TestLowerFirst(t *testing.T) {
	assert.Equal(t, "run time (s)", lowerFirst("Run time (s)"))
	assert.Equal(t, "GC ratio", lowerFirst("GC ratio"))
	assert.Equal(t, "", lowerFirst(""))
	assert.Equal(t, "x", lowerFirst("X"))
}
