package study

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/uncertainty"
)

// TestShowListAndExport: a study with a few trials and no stored recommendation shows its
// fastest trial and says none is stored; once stored, shows it; the listing states the
// fastest trial's speedup; the export states the study's provenance, for its recommendation
// and for a trial as it is.
func TestShowListAndExport(t *testing.T) {
	ctx := context.Background()
	store, err := trialstore.Open(ctx, filepath.Join(t.TempDir(), "s.db"), trialstore.OpenOptions{})
	require.NoError(t, err)
	defer store.Close()
	p := newTiny(t, writeSpec(t, ""))
	_, err = Create(ctx, store, "tiny", p)
	require.NoError(t, err)
	id, sp, err := Load(store, "tiny")
	require.NoError(t, err)

	sh, err := LoadShow(store, id, "tiny", sp)
	require.NoError(t, err)
	assert.Nil(t, sh.Best)
	var b bytes.Buffer
	require.NoError(t, sh.WriteText(&b))
	assert.Contains(t, b.String(), "study tiny in ")
	assert.Contains(t, b.String(), "0 of 10 trials finished (1 in all)", "the seed is queued")
	assert.NotContains(t, b.String(), "no recommendation stored", "nothing to recommend yet")

	prob, err := sp.ReopenObjective(ReopenOptions{LongLivedThreshold: profile.DefaultLongLivedThreshold})
	require.NoError(t, err)
	_, err = search.Optimize(ctx, store.Storage(), "tiny", prob, search.Settings{Trials: 3, Workers: 1, Seed: 1, Sampler: "random"})
	require.NoError(t, err)
	sh, err = LoadShow(store, id, "tiny", sp)
	require.NoError(t, err)
	require.NotNil(t, sh.Best)
	assert.Equal(t, 3, sh.Trials)
	assert.Equal(t, sh.BestTrial.Number, sh.Best.Number)
	assert.InEpsilon(t, sp.DefaultValue/sh.BestTrial.Value, sh.Best.Speedup, 1e-12)
	b.Reset()
	require.NoError(t, sh.WriteText(&b))
	assert.Contains(t, b.String(), "the search's fastest trial: trial ")
	assert.Contains(t, b.String(), "no recommendation stored with the study (optimize and resume store it; gctune export or explain tiny makes it without storing it)")

	trials, err := store.Storage().GetAllTrials(id)
	require.NoError(t, err)
	rs := RecommendationSettings{Tolerance: 0.01, Save: true, Version: "test"}
	r, err := Recommendation(ctx, store, id, "tiny", prob, trials, rs)
	require.NoError(t, err)
	sh, err = LoadShow(store, id, "tiny", sp)
	require.NoError(t, err)
	require.NotNil(t, sh.Recommendation)
	b.Reset()
	require.NoError(t, sh.WriteText(&b))
	assert.Contains(t, b.String(), "(as stored by optimize or resume): trial ")

	sums, err := trialstore.ListStudies(store)
	require.NoError(t, err)
	rows := ListRows(sums)
	require.Len(t, rows, 1)
	assert.Equal(t, "tiny", rows[0].Name)
	require.NotNil(t, rows[0].BestTrial)
	assert.Equal(t, sh.Best.Number, *rows[0].BestTrial)
	sp1 := FastestSpeedups(store, sums)
	assert.InEpsilon(t, sh.Best.Speedup, sp1[0], 1e-12)
	b.Reset()
	require.NoError(t, WriteList(&b, store.URL(), sums, sp1))
	assert.Regexp(t, `(?m)^tiny +\d+ +0 +\d+ +0  #\d+: \d\.\d\d×$`, b.String())

	meta := ExportMeta(store, id, "tiny", sp, "v9")
	names := Names(sp.Workloads)
	assert.Equal(t, names, meta.Workloads)
	assert.Equal(t, []string{sp.Workloads[0].Ref}, meta.Files)
	assert.Equal(t, "v9", meta.Provenance.ExportVersion)
	assert.NotEmpty(t, meta.Provenance.Created)
	assert.Equal(t, sp.Workloads[0].Fingerprint, meta.Provenance.Fingerprints[names[0]])
	c, err := ExportAnswer(ctx, store, id, "tiny", prob, trials, Choice{}, rs, meta)
	require.NoError(t, err)
	assert.Equal(t, r.Trial, c.Trial)
	c, err = ExportAnswer(ctx, store, id, "tiny", nil, trials, Choice{Trial: 1, HasTrial: true}, rs, meta)
	require.NoError(t, err)
	assert.Equal(t, 1, c.Trial)
	assert.Nil(t, c.Recommendation, "a trial as it is")
	_, err = ExportAnswer(ctx, store, id, "tiny", nil, trials, Choice{Trial: 99, HasTrial: true}, rs, meta)
	require.ErrorIs(t, err, ErrInput)
}

// TestListText: names are quoted, an unknown speedup leaves the trial alone, NaN best values
// are not listed, and an empty database says so.
func TestListText(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	sums := []trialstore.Summary{
		{Name: "a\nstorage: evil", HasBest: true, BestNumber: 4, Best: 2, Created: created},
		{Name: "nan", HasBest: true, BestNumber: 1, Best: math.NaN()},
		{Name: "none"},
	}
	var b bytes.Buffer
	require.NoError(t, WriteList(&b, "x.db", sums, []float64{1.5, math.NaN()}))
	lines := strings.Split(b.String(), "\n")
	assert.Contains(t, lines[1], `"a\nstorage: evil"`)
	assert.True(t, strings.HasSuffix(lines[1], "#4: 1.50×"), lines[1])
	assert.True(t, strings.HasSuffix(lines[2], "#1"), lines[2])
	assert.True(t, strings.HasSuffix(lines[3], "-"), lines[3])
	rows := ListRows(sums)
	assert.Equal(t, "2026-01-02T03:04:05Z", rows[0].Created)
	assert.Nil(t, rows[1].Best, "NaN is not JSON")
	b.Reset()
	require.NoError(t, WriteList(&b, "x.db", nil, nil))
	assert.Equal(t, "no studies in x.db\n", b.String())
}

// TestUncertaintyText: off, and a model with its perturbations and statistic.
func TestUncertaintyText(t *testing.T) {
	p := &Problem{}
	assert.Contains(t, p.UncertaintyText(), "uncertainty: off")
	p.Uncertainty = uncertainty.Default()
	s := p.UncertaintyText()
	assert.Contains(t, s, "perturbed runs")
	assert.Contains(t, s, "statistic mean")
}
