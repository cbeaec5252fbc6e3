package costfit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile/spec"
)

// TestFitDefaultRuns: runs whose measured times are exactly their split at known scales give
// those scales back, at a loss of about 0.
func TestFitDefaultRuns(t *testing.T) {
	want := heapsim.Scales{MutatorByte: 2.3, MutatorObject: 2.3, Scavenge: 1.7, FullGC: 2.9}
	runs := []DefaultRun{
		{MutatorByte: 10, MutatorObject: 5, Scavenge: 2, FullGC: 1, GrowShrink: 0.01},
		{MutatorByte: 40, MutatorObject: 20, Scavenge: 6, FullGC: 30, GrowShrink: 0.02},
		{MutatorByte: 100, MutatorObject: 60, Scavenge: 40, FullGC: 600, GrowShrink: 0.05},
	}
	for i := range runs {
		runs[i].GCSeconds, runs[i].TotalSeconds = runs[i].Times(want)
	}
	got, loss, err := FitDefaultRuns(runs)
	require.NoError(t, err)
	assert.Less(t, loss, 1e-8)
	assert.InDelta(t, want.MutatorByte, got.MutatorByte, 1e-3)
	assert.Equal(t, got.MutatorByte, got.MutatorObject, "one scale for both mutator costs")
	assert.InDelta(t, want.Scavenge, got.Scavenge, 1e-3)
	assert.InDelta(t, want.FullGC, got.FullGC, 1e-3)

	_, _, err = FitDefaultRuns(nil)
	assert.Error(t, err)
	runs[1].GCSeconds = 0
	_, _, err = FitDefaultRuns(runs)
	assert.ErrorContains(t, err, "run 1")
}

// TestFitDefaultRunsAgain: a run measured twice (DefaultRun.Again) is fitted to the geometric
// mean of its measurements: measurements 10 % above and below exact times at known scales give
// those scales back, and a second measurement is checked like the first.
func TestFitDefaultRunsAgain(t *testing.T) {
	want := heapsim.Scales{MutatorByte: 2.3, MutatorObject: 2.3, Scavenge: 1.7, FullGC: 2.9}
	runs := []DefaultRun{
		{MutatorByte: 10, MutatorObject: 5, Scavenge: 2, FullGC: 1, GrowShrink: 0.01},
		{MutatorByte: 40, MutatorObject: 20, Scavenge: 6, FullGC: 30, GrowShrink: 0.02},
		{MutatorByte: 100, MutatorObject: 60, Scavenge: 40, FullGC: 600, GrowShrink: 0.05},
	}
	for i := range runs {
		gc, total := runs[i].Times(want)
		runs[i].GCSeconds, runs[i].TotalSeconds = gc*1.1, total*1.1
		runs[i].Again = []Observation{{GCSeconds: gc / 1.1, TotalSeconds: total / 1.1}}
	}
	got, loss, err := FitDefaultRuns(runs)
	require.NoError(t, err)
	assert.InDelta(t, 6*2*0.0953*0.0953, loss, 1e-3, "each measurement is off by log 1.1")
	assert.InDelta(t, want.MutatorByte, got.MutatorByte, 1e-3)
	assert.InDelta(t, want.Scavenge, got.Scavenge, 1e-3)
	assert.InDelta(t, want.FullGC, got.FullGC, 1e-3)

	runs[2].Again[0].GCSeconds = 0
	_, _, err = FitDefaultRuns(runs)
	assert.ErrorContains(t, err, "run 2, measurement 2")
}

// TestFitDefaultRunsGCFromGCTime: when no mutator scale explains every total (the mutator
// model is off for one run), the GC scales still come from the GC times alone; only the
// mutator scale bears the total-time error.
func TestFitDefaultRunsGCFromGCTime(t *testing.T) {
	want := heapsim.Scales{MutatorByte: 2, MutatorObject: 2, Scavenge: 1.5, FullGC: 3}
	runs := []DefaultRun{
		{MutatorByte: 30, MutatorObject: 1, Scavenge: 1, FullGC: 3.5},
		{MutatorByte: 40, MutatorObject: 1, Scavenge: 16, FullGC: 12},
		{MutatorByte: 180, MutatorObject: 6, Scavenge: 10, FullGC: 1300},
	}
	for i := range runs {
		runs[i].GCSeconds, runs[i].TotalSeconds = runs[i].Times(want)
	}
	runs[1].TotalSeconds *= 1.5 // work outside GC that does not show as allocation
	got, loss, err := FitDefaultRuns(runs)
	require.NoError(t, err)
	assert.Positive(t, loss)
	assert.InDelta(t, want.Scavenge, got.Scavenge, 1e-3)
	assert.InDelta(t, want.FullGC, got.FullGC, 1e-3)
	assert.Greater(t, got.MutatorByte, want.MutatorByte, "the mutator scale takes the error")
}

// TestNewDefaultRun: the split of a simulated default run gives, at any scales, the times
// heapsim simulates at the base cost so scaled; the inner scavenges of the full GCs included.
func TestNewDefaultRun(t *testing.T) {
	sp, err := spec.BundledSpec("dataframe-500mb")
	require.NoError(t, err)
	p, err := sp.Generate(spec.GenerateOptions{Seed: 1, Resolution: 0.005})
	require.NoError(t, err)
	base := heapsim.PriorCost()
	b, err := NewBasis(p, heapsim.DefaultParams(), base)
	require.NoError(t, err)
	require.Positive(t, b.Stats.FullGCs, "the workload must have full GCs, whose inner scavenges the split must place")
	r := NewDefaultRun(b)
	for _, s := range []heapsim.Scales{
		{MutatorByte: 1, MutatorObject: 1, Scavenge: 1, FullGC: 1},
		{MutatorByte: 2.5, MutatorObject: 2.5, Scavenge: 0.5, FullGC: 4},
	} {
		st, err := heapsim.Simulate(p, heapsim.DefaultParams(), base.Scaled(s))
		require.NoError(t, err)
		gc, total := r.Times(s)
		assert.InEpsilon(t, st.GCSeconds, gc, 1e-9, "%+v", s)
		assert.InEpsilon(t, st.TotalSeconds, total, 1e-9, "%+v", s)
	}
}
