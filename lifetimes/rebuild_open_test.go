package lifetimes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenRebuildsSampledBytesExports: Open rebuilds a sampled export on the bytes clock (with
// a report), not with HypothesisOff, and warns instead on the microsecond clock.
func TestOpenRebuildsSampledBytesExports(t *testing.T) {
	dir := t.TempDir()
	p := largeTestProfile(t, 20_000, map[int]uint32{5000: 8 << 20, 12000: 3 << 20}, 11)
	csv, meta, _ := writeSample(t, p, SampleOptions{Every: 100, Phase: 4, OverheadBytes: DefaultSampleOverheadBytes})
	path := filepath.Join(dir, "run.csv")
	require.NoError(t, os.WriteFile(path, []byte(csv), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "run.json"), []byte(meta), 0o644))

	q, info, err := Open(path, OpenOptions{Clock: ClockBytes})
	require.NoError(t, err)
	require.NotNil(t, info.Rebuild)
	assert.Equal(t, 2, info.Rebuild.InferredLarge+info.Rebuild.SampledLarge)
	assert.Contains(t, info.Rebuild.String(), "rebuilt from 1/100 sampling")
	assert.Equal(t, q.Len(), info.FiLiP.Rows+info.Rebuild.InferredLarge)

	raw, info, err := Open(path, OpenOptions{Clock: ClockBytes, Rebuild: HypothesisOff})
	require.NoError(t, err)
	assert.Nil(t, info.Rebuild)
	assert.Equal(t, info.FiLiP.Rows, raw.Len())

	a, err := Fingerprint(path, OpenOptions{Clock: ClockBytes})
	require.NoError(t, err)
	b, err := Fingerprint(path, OpenOptions{Clock: ClockBytes, Rebuild: HypothesisLong})
	require.NoError(t, err)
	assert.NotEqual(t, a, b, "the rebuild mode changes the profile: it must change the fingerprint")

	// The same export on the microsecond clock: not rebuilt, and said so.
	_, info, err = Open(path, OpenOptions{Clock: ClockMicros})
	require.NoError(t, err)
	assert.Nil(t, info.Rebuild)
	warned := false
	for _, w := range info.FiLiP.Warnings {
		warned = warned || strings.Contains(w, "cannot be rebuilt")
	}
	assert.True(t, warned, "warnings: %q", info.FiLiP.Warnings)
}
