package study

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile/filip"
)

// TestParsedSettings: the stored names parse back to the values they were written from; an
// empty rebuild is auto and an empty statistic the mean (studies stored before either).
func TestParsedSettings(t *testing.T) {
	w := WorkloadRef{Clock: "us", Rebuild: "stored"}
	c, err := w.ParsedClock()
	require.NoError(t, err)
	assert.Equal(t, filip.ClockMicros, c)
	h, err := w.ParsedRebuild()
	require.NoError(t, err)
	assert.Equal(t, filip.HypothesisStored, h)
	h, err = WorkloadRef{}.ParsedRebuild()
	require.NoError(t, err)
	assert.Equal(t, filip.HypothesisAuto, h)
	_, err = WorkloadRef{Clock: "sundial"}.ParsedClock()
	assert.Error(t, err)

	s, err := (&Problem{}).ParsedStatistic()
	require.NoError(t, err)
	assert.Equal(t, "mean", s.String())
	s, err = (&Problem{Statistic: "p90"}).ParsedStatistic()
	require.NoError(t, err)
	assert.InDelta(t, 0.9, s.Quantile, 1e-12)
	_, err = (&Problem{Statistic: "median-ish"}).ParsedStatistic()
	assert.Error(t, err)
}
