package report

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/plotter"

	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/tunable"
)

// TestFigMarkedTrials: the search figures name the fastest trial and the recommended one each
// as what it is, on its own dot (issue 31: "best: trial 140 (512.7)" marked the recommended
// trial at the recommendation's forecast, off its dot, while trial 79 was faster).
func TestFigMarkedTrials(t *testing.T) {
	pt := tunable.DefaultPoint(heapsim.DefaultParams())
	trials := []Trial{
		{Number: 0, State: "complete", Value: 4821, Feasible: true, PeakFootprintBytes: 7 << 30, Point: pt},
		{Number: 79, State: "complete", Value: 510, Feasible: true, PeakFootprintBytes: 14 << 30, Point: pt},
		{Number: 140, State: "complete", Value: 512.4, Feasible: true, PeakFootprintBytes: 12 << 30, Point: pt},
		{Number: 150, State: "complete", Value: 400, Feasible: false, PeakFootprintBytes: 30 << 30, Point: pt},
	}
	rec := &recommend.Recommendation{Trial: 140, Value: 512.7, Point: pt.Rounded(),
		PutBack: []recommend.Step{{Param: "shrink"}}}
	r := &Report{Search: Search{ValueLabel: "run time (s)", DefaultValue: 4821, DefaultFootprintBytes: 7 << 30, Trials: trials,
		Best: Trial{Number: 140, State: "complete", Value: rec.Value, Feasible: true, PeakFootprintBytes: 12 << 30, Point: rec.Point}},
		Recommendation: rec}
	m := newFigMarkedTrials(r, figCompleteTrials(&r.Search))
	require.True(t, m.hasFastest)
	require.True(t, m.hasReported)
	assert.Equal(t, 79, m.fastest.Number, "the fastest feasible trial, not the infeasible 150")
	assert.Equal(t, 512.4, m.reported.Value, "the recommended trial at its stored value, on its dot")
	assert.True(t, m.recommended)
	assert.True(t, m.changed, "a change was put back")
	assert.False(t, m.same())

	for _, f := range []Figure{figProgress(r), figPareto(r)} {
		svg, err := f.SVG()
		require.NoError(t, err, f.Name)
		s := string(svg)
		assert.Contains(t, s, "fastest: trial 79, 510 s", f.Name)
		assert.Contains(t, s, "recommended: trial 140, 512 s", f.Name)
		assert.Contains(t, s, "defaults: 4,821 s", f.Name)
		assert.NotContains(t, s, "best: trial", f.Name)
		assert.Contains(t, f.Caption, "wide purple ring the fastest, 79", f.Name)
		assert.Contains(t, f.Caption, "for trial 140 with 1 change put back", f.Name)
		assert.Contains(t, f.Caption, "513 s, is the single simulation", f.Name)
	}

	// One trial both fastest and recommended: one mark, named for both.
	r.Search.Best.Number, rec.Trial = 79, 79
	m = newFigMarkedTrials(r, figCompleteTrials(&r.Search))
	assert.True(t, m.same())
	svg, err := figProgress(r).SVG()
	require.NoError(t, err)
	assert.Contains(t, string(svg), "fastest and recommended: trial 79, 510 s")

	// --trial N: the reported trial, no recommendation.
	r.Recommendation = nil
	r.Search.Best = trials[2]
	svg, err = figProgress(r).SVG()
	require.NoError(t, err)
	assert.Contains(t, string(svg), "reported: trial 140, 512 s")
	assert.NotContains(t, figProgress(r).Caption, "forecast")
}

// TestFigShrinks: the footprint figure marks and explains a large shrink (issue 31: an
// unexplained drop from 7.4 to 4.2 GiB), and counts the small ones.
func TestFigShrinks(t *testing.T) {
	gib := uint64(heapsim.GiB)
	mib := uint64(heapsim.MiB)
	params := heapsim.DefaultParams()
	params.GrowthHeadroomBytes = 3 * gib
	c := &Comparison{EndBytes: 17 * gib,
		Default: diagnose.Run{Label: "default", Params: heapsim.DefaultParams(), Events: []heapsim.Event{
			{Kind: heapsim.EventGrow, ClockBytes: gib, FootprintBytes: 2 * gib, SegmentBytes: gib},
			{Kind: heapsim.EventShrink, ClockBytes: 2 * gib, FootprintBytes: 2*gib - 16*mib, SegmentBytes: 16 * mib},
			{Kind: heapsim.EventGrow, ClockBytes: 2 * gib, FootprintBytes: 2 * gib, SegmentBytes: 16 * mib},
		}},
		Best: diagnose.Run{Label: "best", Params: params, Events: []heapsim.Event{
			{Kind: heapsim.EventGrow, ClockBytes: gib / 2, FootprintBytes: 7 * gib, SegmentBytes: 3 * gib},
			{Kind: heapsim.EventFullGC, ClockBytes: gib, FootprintBytes: 7 * gib, OldUsedBytes: gib},
			{Kind: heapsim.EventShrink, ClockBytes: gib, FootprintBytes: 4 * gib, SegmentBytes: 3 * gib},
			{Kind: heapsim.EventGrow, ClockBytes: gib, FootprintBytes: 7 * gib, SegmentBytes: 3 * gib},
		}},
	}
	big, small, smallMax := figShrinks(&c.Best)
	require.Len(t, big, 1)
	assert.Equal(t, figShrink{clockBytes: gib, releasedBytes: 3 * gib, afterBytes: 4 * gib, regrown: true}, big[0])
	assert.Zero(t, small)
	assert.Zero(t, smallMax)
	big, small, smallMax = figShrinks(&c.Default)
	assert.Empty(t, big, "16 MiB of a 2 GiB footprint does not show")
	assert.Equal(t, 1, small)
	assert.Equal(t, 16*mib, smallMax)

	note := figShrinkNote(c, newFigRunClock(c))
	assert.Contains(t, note, "the best run gives back 3 GiB at 1 GiB allocated and grows it back at once")
	assert.Contains(t, note, "its shrink threshold, 32 MiB, and its growth headroom, 3 GiB")
	assert.Contains(t, note, "the default run 1 smaller shrink of at most 16 MiB")
	f := figFootprint(0, c, 0)
	assert.Contains(t, f.Caption, note)
	svg, err := f.SVG()
	require.NoError(t, err)
	assert.Contains(t, string(svg), "shrink after a full GC")
}

// TestFigCoincidentNote: lines that run together are named, with the share of the run over
// which they do; lines apart are not.
func TestFigCoincidentNote(t *testing.T) {
	ramp := plotter.XYs{{X: 0, Y: 0}, {X: 10, Y: 10}, {X: 20, Y: 20}}
	var near plotter.XYs
	for _, p := range ramp {
		near = append(near, plotter.XY{X: p.X, Y: p.Y + 0.05})
	}
	half := plotter.XYs{{X: 0, Y: 0}, {X: 10, Y: 10}, {X: 10.0001, Y: 50}}
	far := plotter.XYs{{X: 0, Y: 40}, {X: 20, Y: 40}}
	note := figCoincidentNote([]figLine{{"a", ramp}, {"b", near}, {"c", half}, {"far line", far}}, 20, 50)
	assert.Contains(t, note, "a and b (over 100 % of the run)")
	assert.Contains(t, note, "a and c (over 50 % of the run)")
	assert.NotContains(t, note, "far line")
	assert.True(t, strings.Index(note, "a and b") < strings.Index(note, "a and c"), "most first")
	assert.Empty(t, figCoincidentNote([]figLine{{"a", ramp}, {"far line", far}}, 20, 50))
}
