package verify

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMeasureStoresAsItRuns: every run is stored as it finishes, in order, under one session;
// the summary compares the measured speedup with the predicted one.
func TestMeasureStoresAsItRuns(t *testing.T) {
	store, id := newStore(t, filepath.Join(t.TempDir(), "m.db"))
	p := plan()
	f := &fakeRunner{walls: map[string][]float64{"default": {9, 3, 3.1, 2.9}, "best": {9, 1, 1.02, 0.98}}}
	var seen []int
	m, err := Measure(context.Background(), p, f, Recording{Store: store, StudyID: id, Session: "s1",
		OnRun: func(mr MeasuredRun, r Run) {
			stored, err := MeasuredRuns(store, id)
			require.NoError(t, err)
			assert.Len(t, stored, mr.Seq, "stored before the next run, after OnRun")
			assert.Equal(t, r.Config, mr.Config)
			seen = append(seen, mr.Seq)
		}})
	require.NoError(t, err)
	assert.Nil(t, m.Failed)
	assert.False(t, m.Interrupted)
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7}, seen)
	stored, err := MeasuredRuns(store, id)
	require.NoError(t, err)
	assert.Equal(t, m.Measured, stored)
	require.Len(t, m.Configs, 2)
	best := m.Configs[1]
	assert.Equal(t, "best", best.Name)
	assert.Equal(t, 2.8, best.PredictedSpeedup)
	require.NotNil(t, best.Speedup)
	assert.Greater(t, best.Speedup.Estimate, 2.9)
	assert.Equal(t, 3, best.Runs)
}

// TestMeasureFailed: a run that fails stops the session; it is stored and is the
// Measurement's Failed, not an error. A command that cannot start is an error.
func TestMeasureFailed(t *testing.T) {
	store, id := newStore(t, filepath.Join(t.TempDir(), "m.db"))
	m, err := Measure(context.Background(), plan(), failingRunner{}, Recording{Store: store, StudyID: id})
	require.NoError(t, err)
	require.NotNil(t, m.Failed)
	assert.Equal(t, DefaultName, m.Failed.Config)
	assert.NotEmpty(t, m.Session, "made when not given")
	stored, err := MeasuredRuns(store, id)
	require.NoError(t, err)
	require.Len(t, stored, 1)
	assert.False(t, stored[0].OK())
	assert.Equal(t, m.Session, stored[0].Session)

	p := plan()
	p.Argv = []string{"/nonexistent/gctune-standin"}
	_, err = Measure(context.Background(), p, ExecRunner{}, Recording{})
	require.ErrorIs(t, err, ErrStart)
}

// TestStudyMeasurement: the latest session's default runs, named after the study; a study
// whose only run failed has no measurement.
func TestStudyMeasurement(t *testing.T) {
	store, id := newStore(t, filepath.Join(t.TempDir(), "m.db"))
	_, err := StudyMeasurement(store, id, "df")
	require.ErrorIs(t, err, ErrNoDefaultRun)
	f := &fakeRunner{walls: map[string][]float64{"default": {9, 3, 3.1, 2.9}, "best": {9, 1, 1.02, 0.98}}}
	_, err = Measure(context.Background(), plan(), f, Recording{Store: store, StudyID: id, Session: "s1"})
	require.NoError(t, err)
	m, err := StudyMeasurement(store, id, "df")
	require.NoError(t, err)
	assert.InDelta(t, 3.0, m.WallSeconds, 1e-9)
	assert.Regexp(t, `^study df, verify session s1, mean of 3 default runs `, m.Source)
}
