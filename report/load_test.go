package report

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/tunable"
)

const loadSpec = `name: tiny
allocate: 1MB
classes: [{name: Temp, size: 32}, {name: Keep, size: 64}]
phases:
  - name: run
    allocate: 100%
    mix:
      - {class: Temp, share: 0.8, lifetime: immediate}
      - {class: Keep, share: 0.2, lifetime: until-end}
`

// TestLoad: a stored study read into a report's input, for its recommendation (made now, not
// stored) and for a trial as it is; a trial the study does not have fails before any
// workload is read.
func TestLoad(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "tiny.yaml")
	require.NoError(t, os.WriteFile(path, []byte(loadSpec), 0o600))
	lw, err := study.OpenWorkloads([]string{path}, study.OpenSettings{Open: source.Options{Seed: 1}, Clock: filip.ClockAuto,
		LongLivedThreshold: profile.DefaultLongLivedThreshold})
	require.NoError(t, err)
	sp, prob, err := study.New(lw, study.Problem{Aggregate: "max", ConfiguredSpace: tunable.DefaultSpace(), Seed: 1,
		Sampler: search.DefaultSampler, Trials: 4, VM: heapsim.DefaultParams(), Cost: heapsim.DefaultCost(), Version: "test"})
	require.NoError(t, err)
	store, err := trialstore.Open(ctx, filepath.Join(dir, "s.db"), trialstore.OpenOptions{})
	require.NoError(t, err)
	defer store.Close()
	_, err = study.Create(ctx, store, "tiny", sp)
	require.NoError(t, err)
	_, err = search.Optimize(ctx, store.Storage(), "tiny", prob, search.Settings{Trials: 4, Workers: 1, Seed: 1, Sampler: "random"})
	require.NoError(t, err)
	id, sp, err := study.Load(store, "tiny")
	require.NoError(t, err)

	o := LoadOptions{Study: "tiny", Version: "v1", Settings: study.RecommendationSettings{Tolerance: 0.01, Save: true, Version: "test"},
		Reopen: study.ReopenOptions{LongLivedThreshold: profile.DefaultLongLivedThreshold}}
	in, ans, err := Load(ctx, store, id, sp, o)
	require.NoError(t, err)
	require.NotNil(t, in.Recommendation)
	assert.Equal(t, ans.Recommendation, in.Recommendation)
	assert.Equal(t, -1, in.Trial)
	assert.Len(t, in.Trials, 4)
	assert.Equal(t, "v1", in.Export.Provenance.ExportVersion)
	assert.Equal(t, 0.01, in.Tolerance)
	assert.Equal(t, path, WorkloadList(in.Problem))
	_, err = study.LoadRecommendation(store, id)
	require.ErrorIs(t, err, study.ErrNoDoc, "Load never stores a recommendation")

	o.Choice = study.Choice{Trial: 2, HasTrial: true}
	in, ans, err = Load(ctx, store, id, sp, o)
	require.NoError(t, err)
	assert.Nil(t, in.Recommendation)
	assert.Equal(t, 2, in.Trial)
	assert.Equal(t, 2, ans.Number)

	o.Choice = study.Choice{Trial: 9, HasTrial: true}
	o.Reopen.Force = false
	require.NoError(t, os.Remove(path)) // read no workload: the trial is checked first
	_, _, err = Load(ctx, store, id, sp, o)
	require.ErrorIs(t, err, study.ErrInput)
	assert.Contains(t, err.Error(), `study "tiny" has no trial 9`)
}
