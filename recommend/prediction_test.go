package recommend

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/uncertainty"
)

// TestPrediction: no prediction without a recommendation or an uncertainty model; a robust
// one carries the headline figures, the unit, the single simulation, and only the intervals
// whose ends are numbers.
func TestPrediction(t *testing.T) {
	var none *Recommendation
	assert.Nil(t, none.Prediction(true))
	assert.Nil(t, (&Recommendation{Value: 1}).Prediction(true))

	r := &Recommendation{Value: 50, DefaultValue: 100, Speedup: 2, Robust: &Robustness{
		Forecast:  Forecast{Replicas: 16, ValueInterval: uncertainty.Interval{Lo: 45, Hi: 55, Coverage: 0.9, N: 16}, SpeedupInterval: uncertainty.Interval{Lo: math.NaN(), Hi: 3}},
		Statistic: "mean", NominalValue: 48, NominalSpeedup: 2.1, Flat: true, Margins: []Margin{{Param: "ratio"}}}}
	p := r.Prediction(true)
	require.NotNil(t, p)
	assert.Equal(t, "s", p.ValueUnit)
	assert.Equal(t, 16, p.Replicas)
	assert.Equal(t, "mean", p.Statistic)
	assert.Equal(t, [3]float64{50, 100, 2}, [3]float64{p.Value, p.DefaultValue, p.Speedup})
	assert.Equal(t, [2]float64{48, 2.1}, [2]float64{p.NominalValue, p.NominalSpeedup})
	assert.True(t, p.Flat)
	assert.Len(t, p.Margins, 1)
	require.NotNil(t, p.ValueInterval)
	assert.Equal(t, 45.0, p.ValueInterval.Lo)
	assert.Nil(t, p.SpeedupInterval, "an interval with a NaN end is not stated")
	assert.Equal(t, "×", r.Prediction(false).ValueUnit)
}
