package verify

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefaultMeasurement: calibrate fits the latest session's default runs, their stats when
// every run printed them, else their mean wall time; a session without a successful default
// run is ErrNoDefaultRun.
func TestDefaultMeasurement(t *testing.T) {
	old, cur := "20260101T000000.000000000Z-1", "20260102T000000.000000000Z-1"
	stats := func(s string) json.RawMessage { return json.RawMessage(s) }
	runs := []MeasuredRun{
		{Session: old, Config: "default", Trial: -1, Round: 0, WallSeconds: 9},
		{Session: cur, Config: "default", Trial: -1, Round: -1, WallSeconds: 5},
		{Session: cur, Config: "best", Trial: 4, Round: 0, WallSeconds: 1},
		{Session: cur, Config: "default", Trial: -1, Round: 0, WallSeconds: 3, Stats: stats(`{"wallMs":2900,"gcMs":2000}`)},
		{Session: cur, Config: "default", Trial: -1, Round: 1, WallSeconds: 3.4, Stats: stats(`{"wallMs":3100,"gcMs":2200}`)},
	}
	m, err := DefaultMeasurement(runs)
	require.NoError(t, err)
	assert.InDelta(t, 3.0, m.WallSeconds, 1e-9, "the stats' mean, not the processes'")
	gc, ok := m.GC()
	assert.True(t, ok)
	assert.InDelta(t, 2.1, gc, 1e-9)
	assert.Equal(t, "verify session "+cur+", mean of 2 default runs (their gctune-stats figures)", m.Source)

	// One run without stats: the processes' mean wall time.
	runs[4].Stats = nil
	m, err = DefaultMeasurement(runs)
	require.NoError(t, err)
	assert.InDelta(t, 3.2, m.WallSeconds, 1e-9)
	_, ok = m.GC()
	assert.False(t, ok)
	assert.Equal(t, "verify session "+cur+", mean of 2 default runs (process wall time, VM start-up included: print a gctune-stats line for better)", m.Source)

	// The latest session's default runs all failed.
	failed := append(runs[:1:1], MeasuredRun{Session: cur, Config: "default", Trial: -1, Round: 0, WallSeconds: 3, ExitCode: 1})
	_, err = DefaultMeasurement(failed)
	assert.ErrorIs(t, err, ErrNoDefaultRun)
	_, err = DefaultMeasurement(nil)
	assert.ErrorIs(t, err, ErrNoDefaultRun)
}
