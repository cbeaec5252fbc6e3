package profilereport

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
)

func analyze(t *testing.T, ref string, o Options) (*Lifetimes, *profile.Profile) {
	t.Helper()
	open := source.Options{Seed: 1, Resolution: 1e-2}
	p, info, err := source.Open(ref, open)
	require.NoError(t, err)
	if o.Bins == 0 {
		o.Bins = 10
	}
	d, err := Analyze(p, info, open, o)
	require.NoError(t, err)
	return d, p
}

func TestAnalyzeAndWriteText(t *testing.T) {
	d, p := analyze(t, "dataframe-500mb", Options{Analysis: lifetimes.AnalysisOptions{LongLivedThreshold: 0.05, TopObjects: 3}})
	assert.Equal(t, p.Len(), d.Summary.Records)
	assert.Equal(t, lifetimes.LogScale, d.Histograms.Log.Scale)
	assert.Equal(t, lifetimes.LinearScale, d.Histograms.Linear.Scale)
	require.NotNil(t, d.Sites, "the bundled dataframe workloads name their sites")
	assert.False(t, d.Sites.Sampled)
	assert.Nil(t, d.Wall, "no bucket asked")
	assert.Nil(t, d.Stored, "not a sampled export")

	var b bytes.Buffer
	require.NoError(t, d.WriteText(&b, TextOptions{Histogram: d.Histograms.Log, Classes: 2, Sites: 3}))
	text := b.String()
	assert.True(t, strings.HasPrefix(text, "dataframe-500mb (workload dataframe-500mb, seed 1, resolution 0.01)\n\n"), text[:80])
	assert.Contains(t, text, "\nlargest objects\n")
	assert.Contains(t, text, "\nclasses by allocations (2 of ")
	assert.Contains(t, text, "at the defaults (3 of ")
	assert.Contains(t, text, "\nlifetime histogram (log-spaced bins")
	assert.NotContains(t, text, "\nwrote ")
	// The sites table comes before the histogram.
	assert.Less(t, strings.Index(text, "allocation sites"), strings.Index(text, "lifetime histogram"))
}

func TestAnalyzeWallShare(t *testing.T) {
	d, _ := analyze(t, "request-server", Options{BucketSeconds: 1})
	require.NotNil(t, d.Wall)
	assert.Equal(t, 1.0, d.Wall.BucketSeconds)
	assert.Positive(t, d.Wall.RunSeconds)
	assert.Nil(t, d.Sites, "request-server names no sites")
	var b bytes.Buffer
	require.NoError(t, d.Sites.WriteText(&b, 0))
	assert.Empty(t, b.String(), "a nil table writes nothing")
}

// TestAnalyzeStoredHypothesis: a sampled export whose rebuild inferred large objects is also
// read under the stored hypothesis, through Reopen, and its containers reported; without
// Reopen it is not.
func TestAnalyzeStoredHypothesis(t *testing.T) {
	p, _, err := source.Open("dataframe-500mb", source.Options{Seed: 1, Resolution: 1e-2})
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "df.csv")
	_, err = filip.WriteSampleFiles(context.Background(), p, out, filip.SampleOptions{Every: 100, Seed: 1, StartBytes: filip.DefaultSampleStartBytes})
	require.NoError(t, err)
	open := source.Options{}
	q, info, err := source.Open(out, open)
	require.NoError(t, err)
	require.NotNil(t, info.Rebuild)
	require.Positive(t, info.Rebuild.InferredLarge, "the sample missed large objects")

	reopened := 0
	reopen := func(o source.Options) (*profile.Profile, *source.Info, error) {
		reopened++
		assert.Equal(t, filip.HypothesisStored, o.Rebuild)
		return source.Open(out, o)
	}
	d, err := Analyze(q, info, open, Options{Bins: 10, Reopen: reopen})
	require.NoError(t, err)
	assert.Equal(t, 1, reopened)
	require.NotNil(t, d.Stored)
	assert.Positive(t, d.Stored.Containers.Count)
	var b bytes.Buffer
	require.NoError(t, d.WriteText(&b, TextOptions{Histogram: d.Histograms.Log}))
	assert.Contains(t, b.String(), lifetimes.ContainersText(d.Stored.Containers)+" "+d.Stored.Hypothesis+" (optimize weighs both)")

	d, err = Analyze(q, info, open, Options{Bins: 10})
	require.NoError(t, err)
	assert.Nil(t, d.Stored)

	// Standard input was read once: the second hypothesis is not attempted (it would find
	// the input consumed), as for a pipe.
	piped := *info
	piped.Ref = source.StdinRef
	d, err = Analyze(q, &piped, source.Options{FiLiPJSONPath: strings.TrimSuffix(out, ".csv") + ".json"}, Options{Bins: 10, Reopen: reopen})
	require.NoError(t, err)
	assert.Equal(t, 1, reopened, "standard input reopened")
	assert.Nil(t, d.Stored)
}
