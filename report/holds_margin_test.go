package report

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/recommend"
)

// TestHoldsMarginOnePlace: the margins table, the figure's band and the note say the same
// margin, the landscape's (issue 31: "may be 40 % lower or more" beside a cliff at −30 %,
// +20.8 %, drawn inside the kept margin), and the note names where it differs from the one the
// recommendation states.
func TestHoldsMarginOnePlace(t *testing.T) {
	stated := recommend.Margin{Param: "headroom", Label: "growth headroom", Value: 3 << 30, Down: 0.4, DownOpen: true, Up: 0.4, UpOpen: true}
	ls := diagnose.Landscape{Param: "headroom", Label: "growth headroom", Bytes: true, Log: true, Value: 3 << 30,
		HasMargin: true, Down: 0.25, Up: 0.4, UpOpen: true, Stated: &stated,
		Points: []diagnose.LandscapePoint{
			{Factor: -0.4, Value: 0.6 * (3 << 30), Cost: 0.002, Feasible: true, Step: true},
			{Factor: -0.3, Value: 0.7 * (3 << 30), Cost: 0.208, Feasible: true, Cliff: true},
			{Factor: -0.2, Value: 0.8 * (3 << 30), Cost: 0.001, Feasible: true, Step: true},
			{Value: 3 << 30, Feasible: true},
			{Factor: 0.4, Value: 1.4 * (3 << 30), Cost: 0.003, Feasible: true, Step: true},
		}}
	r := &Report{Search: Search{ValueLabel: "run time (s)"},
		Recommendation: &recommend.Recommendation{Tolerance: 0.01},
		Holds:          &diagnose.Holds{Tolerance: 0.01, Statistic: "mean", Replicas: 6, Landscapes: []diagnose.Landscape{ls}}}
	p := &htmlPage{}
	htmlHoldsSection(p, r, nil, true, func(id, what string) string { return id })
	require.NotNil(t, p.Holds)
	require.Len(t, p.Holds.Margins, 1)
	row := p.Holds.Margins[0]
	assert.Equal(t, "25 %", row.Down, "the landscape's margin, not the stated 40 % or more")
	assert.Equal(t, "40 % or more", row.Up)
	assert.Contains(t, row.Cliffs, "−30 %")
	notes := strings.Join(p.Holds.Notes, "\n")
	assert.Contains(t, notes, "growth headroom 25 % lower, not 40 % lower or more")
	assert.NotContains(t, notes, "higher, not", "the side that agrees is not named")
	assert.Contains(t, notes, "(±2.5, 5, 7.5, 10, 15, 20, 30, 40 %)")

	// The figure's band is the table's margin: it ends before the cliff.
	f := figLandscape(r)
	assert.Contains(t, f.Caption, "no cliff lies inside it")
	var m figLandscapeMarks
	m.add(ls, 0.01)
	assert.True(t, m.simulatedCliff)
	assert.True(t, m.margin)
	svg, err := f.SVG()
	require.NoError(t, err)
	assert.Contains(t, string(svg), "cliff, simulated")
	assert.NotContains(t, string(svg), "cliff, measured", "only the marks drawn are in the legend")
}
