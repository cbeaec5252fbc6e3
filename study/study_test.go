package study

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/tunable"
)

// tinySpec is a two-class workload small enough to generate in milliseconds.
const tinySpec = `name: tiny
allocate: 1MB
classes:
  - name: Temp
    size: 32
  - name: Keep
    size: 64
phases:
  - name: run
    allocate: 100%
    mix:
      - {class: Temp, share: 0.8, lifetime: immediate}
      - {class: Keep, share: 0.2, lifetime: until-end}
`

// writeSpec writes tinySpec (with extra appended) to a temporary tiny.yaml.
func writeSpec(t *testing.T, extra string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tiny.yaml")
	require.NoError(t, os.WriteFile(path, []byte(tinySpec+extra), 0o600))
	return path
}

func openSettings() OpenSettings {
	return OpenSettings{Open: source.Options{Seed: 1}, Clock: filip.ClockAuto,
		LongLivedThreshold: profile.DefaultLongLivedThreshold}
}

func settings() Problem {
	return Problem{Aggregate: "max", ConfiguredSpace: tunable.DefaultSpace(), Seed: 1, Sampler: search.DefaultSampler,
		Trials: 10, VM: heapsim.DefaultParams(), Cost: heapsim.DefaultCost(), Version: "test"}
}

// newTiny opens the tiny spec at path as a new study's problem.
func newTiny(t *testing.T, path string) *Problem {
	t.Helper()
	lw, err := OpenWorkloads([]string{path}, openSettings())
	require.NoError(t, err)
	p, prob, err := New(lw, settings())
	require.NoError(t, err)
	assert.Equal(t, prob.DefaultValue(), p.DefaultValue)
	return p
}

func TestNewStoresTheWorkloads(t *testing.T) {
	path := writeSpec(t, "")
	p := newTiny(t, path)
	require.Len(t, p.Workloads, 1)
	w := p.Workloads[0]
	assert.Equal(t, path, w.Ref)
	assert.Equal(t, source.KindSpec, w.Kind)
	assert.Equal(t, "auto", w.Clock)
	assert.Equal(t, tinySpec, w.Spec, "a spec's text is stored for workers without the file")
	assert.True(t, strings.HasPrefix(w.Fingerprint, "sha256:"), w.Fingerprint)
	require.Len(t, p.Opened, 1)
	assert.Equal(t, path, p.Opened[0].Ref)
	assert.Equal(t, "test", p.Version)
	assert.Empty(t, WithoutSpecs(p.Workloads)[0].Spec)
	assert.Equal(t, tinySpec, p.Workloads[0].Spec, "WithoutSpecs copies")
}

func TestReopenChecksFingerprints(t *testing.T) {
	path := writeSpec(t, "")
	p := newTiny(t, path)
	ro := ReopenOptions{LongLivedThreshold: profile.DefaultLongLivedThreshold}
	prob, err := p.ReopenObjective(ro)
	require.NoError(t, err)
	assert.Equal(t, p.DefaultValue, prob.DefaultValue())
	require.Len(t, p.Opened, 1)

	// The file changes: refused, unless forced; a worker is told what every worker needs.
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(tinySpec, "1MB", "2MB", 1)), 0o600))
	_, err = ReopenWorkloads(p, ro)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrWorkloadChanged) && errors.Is(err, ErrInput), "%v", err)
	assert.Contains(t, err.Error(), "changed since the study began")
	assert.Contains(t, err.Error(), "pass --force to use it anyway")
	ro.Force = true
	_, err = ReopenWorkloads(p, ro)
	require.NoError(t, err)
	_, err = ReopenWorkloads(p, ReopenOptions{Worker: true, PreferStored: false})
	require.ErrorIs(t, err, ErrWorkloadChanged)
	assert.Contains(t, err.Error(), "every worker needs the same workload")

	// A worker prefers the stored text, which still gives the study's profile.
	lw, err := ReopenWorkloads(p, ReopenOptions{Worker: true, PreferStored: true})
	require.NoError(t, err)
	assert.Equal(t, path, lw.Opened[0].Ref, "named by its reference, not the temporary copy")

	// The file gone: the stored text is used.
	require.NoError(t, os.Remove(path))
	_, err = ReopenWorkloads(p, ReopenOptions{})
	require.NoError(t, err)
}

func TestReopenMissingFileIsInput(t *testing.T) {
	p := &Problem{Workloads: []WorkloadRef{{Ref: filepath.Join(t.TempDir(), "gone.gcprof"), Kind: source.KindGCProf, Clock: "auto", Fingerprint: "sha256:00"}}}
	_, err := ReopenWorkloads(p, ReopenOptions{Worker: true})
	require.ErrorIs(t, err, ErrInput)
	assert.Contains(t, err.Error(), "(a worker needs the same file at the same path)")
}

func TestOpenErrors(t *testing.T) {
	_, err := OpenWorkloads([]string{"no-such-workload"}, openSettings())
	require.ErrorIs(t, err, ErrInput)
	require.ErrorIs(t, err, source.ErrUnknownWorkload, "the reader's error is kept")

	s := openSettings()
	s.Open.FiLiPJSONPath = "run.json"
	_, err = OpenWorkloads([]string{"a.csv", "b.csv"}, s)
	require.ErrorIs(t, err, ErrMetaForMany)
	assert.Equal(t, "--meta run.json names one export's metadata, and there are 2 workloads: give each export its .json beside it", err.Error())

	s = openSettings()
	refused := errors.New("refused")
	s.Check = func(string, source.Options) error { return refused }
	_, err = OpenWorkloads([]string{writeSpec(t, "")}, s)
	require.ErrorIs(t, err, refused)
}

func TestCheckClock(t *testing.T) {
	p := &Problem{Workloads: []WorkloadRef{{Ref: "run.csv", Kind: source.KindFiLiP, Clock: "bytes"}, {Ref: "gcdemo", Kind: source.KindWorkload, Clock: "auto"}}}
	clock := func(c filip.Clock) *filip.Clock { return &c }
	require.NoError(t, p.CheckClock(nil))
	require.NoError(t, p.CheckClock(clock(filip.ClockBytes)))
	err := p.CheckClock(clock(filip.ClockAuto))
	require.ErrorIs(t, err, ErrClockMismatch, "auto given is not the study's bytes")
	err = p.CheckClock(clock(filip.ClockMicros))
	require.ErrorIs(t, err, ErrClockMismatch)
	require.ErrorIs(t, err, ErrInput)
	assert.Equal(t, `--clock us: study reads workload "run.csv" with --clock bytes, and its trials were simulated so; create a new study to read it on another clock`, err.Error())
}

func TestCreateLoadAndRecommend(t *testing.T) {
	ctx := context.Background()
	store, err := trialstore.Open(ctx, filepath.Join(t.TempDir(), "s.db"), trialstore.OpenOptions{})
	require.NoError(t, err)
	defer store.Close()

	p := newTiny(t, writeSpec(t, ""))
	st, err := Create(ctx, store, "tiny", p)
	require.NoError(t, err)
	_, err = Create(ctx, store, "tiny", p)
	require.ErrorIs(t, err, trialstore.ErrStudyExists)

	id, loaded, err := Load(store, "tiny")
	require.NoError(t, err)
	assert.Equal(t, st.ID, id)
	assert.Equal(t, p.Workloads, loaded.Workloads)
	assert.Equal(t, p.Plan, loaded.Plan)
	assert.Nil(t, loaded.Opened, "not stored")

	_, _, err = Load(store, "other")
	require.ErrorIs(t, err, ErrInput)
	require.ErrorIs(t, err, trialstore.ErrNoStudy)

	// A study without a problem (not made by gctune).
	_, err = trialstore.CreateStudy(ctx, store, "bare", trialstore.NewStudy{Version: "test"})
	require.NoError(t, err)
	_, _, err = Load(store, "bare")
	require.ErrorIs(t, err, ErrNoProblem)
	assert.Equal(t, `study "bare" was not created by gctune optimize (no problem stored)`, err.Error())

	// No trial: no candidate.
	prob, err := loaded.ReopenObjective(ReopenOptions{LongLivedThreshold: profile.DefaultLongLivedThreshold})
	require.NoError(t, err)
	rs := RecommendationSettings{Tolerance: 0.01, Save: true, Version: "test"}
	_, err = Recommendation(ctx, store, id, "tiny", prob, nil, rs)
	require.ErrorIs(t, err, ErrNoCandidate)
	assert.Equal(t, `study "tiny" has no completed feasible trial yet`, err.Error())

	// A few trials: recommended, stored under its key, read back.
	_, err = LoadRecommendation(store, id)
	require.ErrorIs(t, err, ErrNoDoc)
	_, err = search.Optimize(ctx, store.Storage(), "tiny", prob, search.Settings{Trials: 3, Workers: 1, Seed: 1, Sampler: "random"})
	require.NoError(t, err)
	trials, err := store.Storage().GetAllTrials(id)
	require.NoError(t, err)
	r, err := Recommendation(ctx, store, id, "tiny", prob, trials, rs)
	require.NoError(t, err)
	stored, err := LoadRecommendation(store, id)
	require.NoError(t, err)
	assert.Equal(t, RecommendationKey(prob, trials, 0.01, "test"), stored.Key)
	assert.Equal(t, r.Trial, stored.Recommendation.Trial)
	storedFor := func(store *trialstore.Store, trials []goptuna.FrozenTrial, rs RecommendationSettings) *recommend.Recommendation {
		r, err := StoredRecommendationFor(store, id, prob, trials, rs)
		require.NoError(t, err)
		return r
	}
	assert.Equal(t, stored.Recommendation, storedFor(store, trials, rs))
	assert.Nil(t, storedFor(store, trials, RecommendationSettings{Tolerance: 0.02, Version: "test"}))
	assert.Nil(t, storedFor(store, trials[:1], rs), "other trials")
	assert.Nil(t, storedFor(nil, trials, rs))
	// Read back while nothing changed; made again (not stored) for another tolerance.
	again, err := Recommendation(ctx, store, id, "tiny", prob, trials, rs)
	require.NoError(t, err)
	assert.Equal(t, stored.Recommendation, again)
	other, err := Recommendation(ctx, store, id, "tiny", prob, trials, RecommendationSettings{Tolerance: 0.02, Version: "test"})
	require.NoError(t, err)
	assert.NotNil(t, other)
	stored2, err := LoadRecommendation(store, id)
	require.NoError(t, err)
	assert.Equal(t, stored.Key, stored2.Key, "not saved without Save")

	// The key changes with the version, the tolerance and the trials.
	k := RecommendationKey(prob, trials, 0.01, "test")
	assert.NotEqual(t, k, RecommendationKey(prob, trials, 0.01, "v2"))
	assert.NotEqual(t, k, RecommendationKey(prob, trials, 0.02, "test"))
	assert.NotEqual(t, k, RecommendationKey(prob, nil, 0.01, "test"))

	// A build with no identity (version ""): never reuses the stored recommendation, never
	// stores its own.
	assert.Empty(t, RecommendationKey(prob, trials, 0.01, ""))
	assert.Nil(t, storedFor(store, trials, RecommendationSettings{Tolerance: 0.01}))
	_, err = Recommendation(ctx, store, id, "tiny", prob, trials, RecommendationSettings{Tolerance: 0.01, Save: true})
	require.NoError(t, err)
	stored3, err := LoadRecommendation(store, id)
	require.NoError(t, err)
	assert.Equal(t, stored.Key, stored3.Key, "the stored recommendation is kept")
}
