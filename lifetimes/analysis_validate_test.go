package lifetimes

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gctune/gctune/profile"
)

// The options' zero values mean the defaults; a value that was given is checked by the same
// validators the configuration calls.
func TestValidatorsOfGivenValues(t *testing.T) {
	assert.NoError(t, AnalysisOptions{}.Validate(), "zero: the default")
	assert.Error(t, ValidateLongLivedThreshold(0), "a given zero is no threshold")
	for _, ok := range []float64{1e-9, profile.DefaultLongLivedThreshold, 1} {
		assert.NoError(t, ValidateLongLivedThreshold(ok), ok)
		assert.NoError(t, AnalysisOptions{LongLivedThreshold: ok}.Validate(), ok)
	}
	for _, bad := range []float64{-0.1, 1.5, math.NaN(), math.Inf(1)} {
		assert.Error(t, ValidateLongLivedThreshold(bad), bad)
		assert.Error(t, AnalysisOptions{LongLivedThreshold: bad}.Validate(), bad)
	}

	assert.NoError(t, HistogramOptions{}.Validate(), "zero: the default")
	assert.NoError(t, HistogramOptions{Scale: LogScale}.Validate(), "zero: the default")
	assert.NoError(t, ValidateHistogramBins(1, LinearScale))
	assert.EqualError(t, ValidateHistogramBins(1, LogScale), "lifetimes: histogram Bins 1 is not in [1, 1000] ([2, 1000] for the log scale)")
	assert.NoError(t, ValidateHistogramBins(MaxHistogramBins, LogScale))
	for _, bad := range []int{0, -1, MaxHistogramBins + 1} {
		assert.Error(t, ValidateHistogramBins(bad, LinearScale), bad)
	}
	assert.Error(t, HistogramOptions{Bins: -1}.Validate())
	assert.Error(t, HistogramOptions{Bins: 1, Scale: LogScale}.Validate())
}
