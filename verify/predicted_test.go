package verify

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/uncertainty"
)

func TestCompare(t *testing.T) {
	iv := uncertainty.Interval{Lo: 6.7, Hi: 7.2, Coverage: 0.99, N: 16}
	for _, tc := range []struct {
		name             string
		sp               Speedup
		inside, overlaps bool
		side             string
	}{
		{"inside", Speedup{Estimate: 7.0, Low: 6.5, High: 7.5, Pairs: 5}, true, true, "inside"},
		{"on the edge", Speedup{Estimate: 6.7, Low: 6.6, High: 6.8, Pairs: 5}, true, true, "inside"},
		{"below, interval meets", Speedup{Estimate: 6.5, Low: 6.2, High: 6.8, Pairs: 5}, false, true, "below"},
		{"below, interval outside", Speedup{Estimate: 5.0, Low: 4.8, High: 5.2, Pairs: 5}, false, false, "below"},
		{"above", Speedup{Estimate: 8.0, Low: 7.9, High: 8.1, Pairs: 3}, false, false, "above"},
		{"one round", Speedup{Estimate: 7.0, Pairs: 1}, true, false, "inside"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Compare(&tc.sp, iv)
			require.NotNil(t, c)
			assert.Equal(t, iv, c.Predicted)
			assert.Equal(t, tc.inside, c.Inside)
			assert.Equal(t, tc.overlaps, c.Overlaps)
			assert.Equal(t, tc.side, c.Side)
		})
	}
	assert.Nil(t, Compare(nil, iv))
}

func TestComparePredicted(t *testing.T) {
	iv := uncertainty.Interval{Lo: 1.1, Hi: 1.4, Coverage: 0.99, N: 4}
	sums := []ConfigSummary{
		{Name: DefaultName, PredictedSpeedup: 1},
		{Name: "best", PredictedSpeedup: 1.2, Speedup: &Speedup{Estimate: 1.5, Low: 1.3, High: 1.7, Pairs: 3}},
		{Name: "trial-3", PredictedSpeedup: 1.3, Speedup: &Speedup{Estimate: 1.3, Pairs: 1}},
	}
	configs := []Config{{Name: DefaultName}, {Name: "best", PredictedInterval: &iv}, {Name: "trial-3"}}
	ComparePredicted(sums, configs)
	assert.Nil(t, sums[0].Comparison)
	require.NotNil(t, sums[1].Comparison)
	assert.Equal(t, &iv, sums[1].PredictedInterval)
	assert.Equal(t, "above", sums[1].Comparison.Side)
	assert.True(t, sums[1].Comparison.Overlaps)
	assert.Nil(t, sums[2].PredictedInterval, "a trial as it is states no interval")
	assert.Nil(t, sums[2].Comparison)
}
