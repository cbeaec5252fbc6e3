package costfit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
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

// TestNewDefaultRun: the split of one simulated run adds up to its times at scale 1.
func TestNewDefaultRun(t *testing.T) {
	base := heapsim.PriorCost()
	st := heapsim.Stats{AllocatedBytes: 1 << 30, AllocatedObjects: 1e7, ScavengeSeconds: 2, FullGCSeconds: 3, GrowSeconds: 0.1, ShrinkSeconds: 0.05}
	r := NewDefaultRun(st, base)
	gc, total := r.Times(heapsim.Scales{MutatorByte: 1, MutatorObject: 1, Scavenge: 1, FullGC: 1})
	assert.InDelta(t, 5.15, gc, 1e-12)
	assert.InDelta(t, 5.15+float64(1<<30)*base.MutatorSecondsPerByte+1e7*base.MutatorSecondsPerObject, total, 1e-12)
}
