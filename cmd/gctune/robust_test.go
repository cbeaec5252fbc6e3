package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/uncertainty"
)

// Robust trials, from optimize with two workers then resume: every completed trial holds its
// distribution (one value per search replica, whole, with the value their mean), and a trial
// of the same parameters gets the same values in either session (the replicas are the study's,
// drawn from its seed); the recommendation is stored with the study and export reads it back.
func TestRobustTrialsHoldTheirDistribution(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	var doc sessionDoc
	gctuneJSON(t, &doc, "optimize", "testdata/tiny.yaml", "--trials", "10", "--workers", "2", "--storage", db,
		"--study", "r", "--replicas", "6", "--search-replicas", "3")
	gctuneOK(t, "resume", "r", "--more", "4", "--workers", "2", "--storage", db)
	trials := readTrials(t, db, "r")
	seen := map[string][]float64{}
	complete := 0
	for _, tr := range trials {
		if tr.State != goptuna.TrialStateComplete {
			continue
		}
		complete++
		var reps []float64
		require.NoError(t, json.Unmarshal([]byte(tr.UserAttrs[trialattr.Replicas]), &reps), "trial %d", tr.Number)
		require.Len(t, reps, 3, "trial %d", tr.Number)
		assert.InDelta(t, uncertainty.Statistic{}.Reduce(reps), tr.Value, 1e-9*tr.Value, "trial %d", tr.Number)
		key, _ := json.Marshal(tr.Params)
		if prev, ok := seen[string(key)]; ok {
			assert.Equal(t, prev, reps, "the same parameters, the same replicas")
		}
		seen[string(key)] = reps
	}
	assert.Equal(t, 14, complete)

	require.NotNil(t, doc.Recommendation)
	rb := doc.Recommendation.Robust
	require.NotNil(t, rb)
	assert.Equal(t, 6, rb.Replicas)
	var ex export.Config
	gctuneJSON(t, &ex, "export", "r", "--storage", db)
	assert.Equal(t, 6, ex.Predicted.Replicas)
	require.NotNil(t, ex.Predicted.Interval)
	assert.True(t, ex.Predicted.Interval.Contains(ex.Predicted.Value))
	st, _ := gctuneOK(t, "export", "r", "--storage", db, "--format", "st")
	assert.Contains(t, st, "expected over 6 runs of this input again.\n In 95 % of runs: ")
	assert.Contains(t, st, "On 6 runs of inputs like this one (every object's size scaled by up to ±3 %")
}

// --no-robust restores the single simulation: no distribution stored, no interval stated.
func TestNoRobust(t *testing.T) {
	db := filepath.Join(t.TempDir(), "n.db")
	var doc sessionDoc
	gctuneJSON(t, &doc, "optimize", "testdata/tiny.yaml", "--trials", "6", "--workers", "1", "--storage", db,
		"--study", "n", "--no-robust")
	for _, tr := range readTrials(t, db, "n") {
		assert.NotContains(t, tr.UserAttrs, trialattr.Replicas)
	}
	require.NotNil(t, doc.Recommendation)
	assert.Nil(t, doc.Recommendation.Robust)
	var ex export.Config
	gctuneJSON(t, &ex, "export", "n", "--storage", db)
	assert.Zero(t, ex.Predicted.Replicas)
	assert.Nil(t, ex.Predicted.Interval)
}
