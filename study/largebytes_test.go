package study

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/testfixture"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
)

// burstsSpec allocates 8 MiB arrays in bursts, nothing young between the arrays of a burst (as
// a DataFrame load makes its column arrays): sampled at 1/1000, a window holds a burst, and
// one object per window is far too few for the full GCs they force at the defaults.
const burstsSpec = `name: bursts
description: bursts of 8 MiB arrays among small garbage
resolution: 0.01
classes:
  - name: Array
    size: 8MiB
  - name: Point
    size: 24
phases:
  - name: work
    allocate: 600MB
    mix:
      - {class: Point, share: 1, lifetime: immediate}
    large:
      - {class: Array, count: 48, at: even, lifetime: {dist: exponential, mean: 4MB}}
  - name: burst
    allocate: 20MB
    mix:
      - {class: Point, share: 1, lifetime: immediate}
    large:
      - {class: Array, count: 40, at: start, lifetime: until-end}
`

// The export's own full-GC count chooses the size of the large objects its sample missed: the
// rebuilt reading at the chosen size reproduces the counts far better than one object per
// window, and countInformed reopens the export with it.
func TestChooseLargeBytesFromTheExportsCounts(t *testing.T) {
	w := testfixture.Spec(t, "bursts", burstsSpec)
	vm, cost := heapsim.DefaultParams(), heapsim.DefaultCost()
	full, err := heapsim.Simulate(w.Profile, vm, cost)
	require.NoError(t, err)
	require.Greater(t, full.FullGCs, 20, "the bursts must force full GCs at the defaults")
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "run.csv")
	var c, m bytes.Buffer
	_, err = filip.WriteSample(w.Profile, &c, &m, filip.SampleOptions{Every: 1000, Scavenges: full.Scavenges, FullGCs: full.FullGCs,
		OverheadBytes: filip.DefaultSampleOverheadBytes, Seed: 1})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(csvPath, c.Bytes(), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "run.json"), m.Bytes(), 0o644))

	p, info, err := source.Open(csvPath, source.Options{})
	require.NoError(t, err)
	require.NotNil(t, info.Rebuild)
	if info.Rebuild.SampledLarge > 0 {
		t.Skip("the sample caught a large object: its size is known, nothing to choose")
	}
	one, err := heapsim.Simulate(p, vm, cost)
	require.NoError(t, err)

	raw, _, err := source.Open(csvPath, source.Options{Rebuild: filip.HypothesisOff})
	require.NoError(t, err)
	size, err := ChooseLargeBytes(raw, filip.HypothesisAuto, vm, cost)
	require.NoError(t, err)
	require.NotZero(t, size, "one object per window gave %d full GCs against %d", one.FullGCs, full.FullGCs)
	again, err := ChooseLargeBytes(raw, filip.HypothesisAuto, vm, cost)
	require.NoError(t, err)
	assert.Equal(t, size, again, "deterministic")

	q, _, err := source.Open(csvPath, source.Options{RebuildLargeBytes: size})
	require.NoError(t, err)
	chosen, err := heapsim.Simulate(q, vm, cost)
	require.NoError(t, err)
	dist := func(n int) int { return max(n-full.FullGCs, full.FullGCs-n) }
	assert.Less(t, dist(chosen.FullGCs), dist(one.FullGCs), "chosen %d MiB: %d full GCs, one per window %d, the export %d", size>>20, chosen.FullGCs, one.FullGCs, full.FullGCs)
	assert.True(t, q.Meta.ProfilerBytes > 0)
	assert.False(t, q.Meta.FullGCsFloor, "a size from the counts is an estimate, not a floor")
	assert.True(t, p.Meta.FullGCsFloor, "one object per window is a floor")

	// countInformed does the same when optimize opens the export.
	s := OpenSettings{VM: vm, Cost: cost}
	_, ci, opts, err := s.countInformed(csvPath, source.Options{}, p, info)
	require.NoError(t, err)
	assert.Equal(t, size, opts.RebuildLargeBytes)
	assert.Contains(t, ci.Rebuild.Sizes, "the size whose default run reproduces the export's full GCs")
}
