package recommend

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/testfixture"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/uncertainty"
)

// readingsProblem makes two readings of one run (as a sampled export's two hypotheses are)
// from two bundled workloads, each profile carrying the export's counts scav and full.
func readingsProblem(t *testing.T, m uncertainty.Model, scav, full int, bound ...string) *objective.Problem {
	t.Helper()
	var ws []objective.Workload
	for _, name := range []string{"cache-churn", "image-processing"} {
		w := testfixture.Bundled(t, name)
		p := *w.Profile
		p.Meta.ReportedScavenges, p.Meta.ReportedFullGCs = scav, full
		p.Meta.Pessimistic = slices.Contains(bound, name)
		w.Profile, w.Run = &p, "run.csv"
		ws = append(ws, w)
	}
	return testfixture.Problem(t, objective.Settings{Uncertainty: m, Seed: 3}, ws...)
}

// A sampled export whose own counts one reading reproduces and the other contradicts gets a
// forecast without the other: its weight is below MinReadingWeight, its runs are not in the
// interval, and the evidence says which survived and why. Without counts both stay, and the
// evidence says the forecast is wider for it and what to add.
func TestLongForecastWeighsReadingsByTheExportsCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("recommends over two bundled workloads' replicas (slow under the race detector): runs without -short")
	}
	m := uncertainty.Default()
	m.Replicas, m.SearchReplicas, m.AgainReplicas = 4, 1, 6
	probe := readingsProblem(t, m, 0, 0)
	// The export's counts are those of image-processing's default run: cache-churn's differ.
	var img heapsim.Stats
	for i, w := range probe.Workloads() {
		if w.Name == "image-processing" {
			img = probe.Baseline(i)
		}
	}
	require.Greater(t, img.Scavenges, 0)
	prob := readingsProblem(t, m, img.Scavenges, img.FullGCs)
	s := Settings{Tolerance: 0.01, DecisionReplicas: 2, Rejudge: 2}
	r, err := Recommend(context.Background(), prob, stored(t, prob, randomPoints(8, 4)), s)
	require.NoError(t, err)
	rb := r.Robust
	require.NotNil(t, rb.Evidence)
	require.Len(t, rb.Weighed, 2)
	assert.True(t, rb.Evidence.HasCounts)
	assert.True(t, rb.Evidence.Agrees)
	cache, imgR := rb.Weighed[0], rb.Weighed[1]
	require.Equal(t, "cache-churn", cache.Name)
	assert.False(t, cache.Kept, "cache-churn's default run contradicts the counts: %+v", cache)
	assert.True(t, imgR.Kept)
	assert.Greater(t, imgR.Weight, 1-MinReadingWeight)
	assert.Contains(t, rb.Evidence.Words, "left out, as contradicting them: cache-churn")
	// The forecast is image-processing's: its slowdown on the headline runs.
	head := prob.Again()
	var mean float64
	for k := range head.ReplicaCount() {
		rr, err := head.EvaluateReplica(r.Params(prob.Base()), k)
		require.NoError(t, err)
		mean += rr.Slowdowns[1] / float64(head.ReplicaCount())
		assert.True(t, rb.ValueInterval.Contains(rr.Slowdowns[1]), "replica %d", k)
	}
	assert.InDelta(t, mean, r.Value, 0.02*mean, "the value is the kept reading's, not the mean of both")

	// Without counts, both readings stand, equally weighted, and the words say why.
	none := readingsProblem(t, m, 0, 0)
	rn, err := Recommend(context.Background(), none, stored(t, none, randomPoints(8, 4)), s)
	require.NoError(t, err)
	require.NotNil(t, rn.Robust.Evidence)
	assert.False(t, rn.Robust.Evidence.HasCounts)
	for _, rd := range rn.Robust.Weighed {
		assert.True(t, rd.Kept)
		assert.InDelta(t, 0.5, rd.Weight, 1e-12)
	}
	assert.Contains(t, rn.Robust.Evidence.Words, "wider")
	assert.Contains(t, rn.Robust.Evidence.Words, "--meta")

	// A reading at the pessimistic end (the rebuild's stored hypothesis) widens the interval
	// but does not move the expectation: it is a bound, not an estimate.
	bounded := readingsProblem(t, m, 0, 0, "image-processing")
	rbd, err := Recommend(context.Background(), bounded, stored(t, bounded, randomPoints(8, 4)), s)
	require.NoError(t, err)
	require.Len(t, rbd.Robust.Weighed, 2)
	assert.True(t, rbd.Robust.Weighed[1].Bound)
	headB := bounded.Again()
	var est float64
	for k := range headB.ReplicaCount() {
		rr, err := headB.EvaluateReplica(rbd.Params(bounded.Base()), k)
		require.NoError(t, err)
		est += rr.Slowdowns[0] / float64(headB.ReplicaCount())
		assert.True(t, rbd.Robust.ValueInterval.Contains(rr.Slowdowns[1]), "the bound's run %d is covered", k)
	}
	assert.InDelta(t, est, rbd.Value, 1e-9, "the expectation is the estimate's")
}
