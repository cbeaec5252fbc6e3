package simulate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
)

// TestSample: the export's metadata carries the simulated default run's GC counts, the
// report says what was written, and a done context writes nothing.
func TestSample(t *testing.T) {
	p, _, err := source.Open("request-server", source.Options{Seed: 1, Resolution: 1e-3})
	require.NoError(t, err)
	st, err := heapsim.Run(p, heapsim.DefaultParams(), heapsim.DefaultCost(), heapsim.Options{})
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "rs.csv")
	// At 1/1000, as exports are sampled: the file holds one row per thousand of the run's
	// objects (a few hundred thousand rows), not one per record.
	opts := filip.SampleOptions{Every: 1000, Seed: 3, StartBytes: filip.DefaultSampleStartBytes}
	r, err := Sample(context.Background(), "request-server", p, out, heapsim.DefaultParams(), opts)
	require.NoError(t, err)
	assert.Equal(t, st.Scavenges, r.TotalScavenges)
	assert.Equal(t, st.FullGCs, r.TotalFullGCs)
	assert.Equal(t, filip.SampleMetaPath(out), r.Meta)
	assert.Equal(t, uint64(1000), r.Every)
	assert.Equal(t, 0.001, r.SamplingRate)

	q, info, err := source.Open(out, source.Options{Rebuild: filip.HypothesisOff})
	require.NoError(t, err)
	require.NotNil(t, info.FiLiP.GCCounts)
	assert.Equal(t, st.Scavenges, info.FiLiP.GCCounts.Scavenges)
	assert.Equal(t, int(r.Rows), q.Len())

	var b bytes.Buffer
	require.NoError(t, r.WriteText(&b))
	assert.Contains(t, b.String(), "wrote "+out+" and "+r.Meta+": ")
	assert.Contains(t, b.String(), "(1/1000, phase 0, seed 3)")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	other := filepath.Join(t.TempDir(), "no.csv")
	_, err = Sample(ctx, "request-server", p, other, heapsim.DefaultParams(), opts)
	require.ErrorIs(t, err, context.Canceled)
	_, err = os.Stat(other)
	assert.True(t, os.IsNotExist(err))
}
