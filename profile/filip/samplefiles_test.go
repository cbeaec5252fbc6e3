package filip

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/internal/profiletest"
)

// TestWriteSampleFiles: the pair is what WriteSample writes; a done context and bad options
// leave the files that were there as they were, and no temporary file.
func TestWriteSampleFiles(t *testing.T) {
	p := profiletest.Dense(t, 300, func(i int) uint32 { return 16 + 8*uint32(i%7) }, func(int) int64 { return 10 })
	opts := SampleOptions{Every: 10, Seed: 1, ProfiledCode: "test"}
	var csv, meta bytes.Buffer
	want, err := WriteSample(p, &csv, &meta, opts)
	require.NoError(t, err)

	dir := t.TempDir()
	out := filepath.Join(dir, "run.csv")
	assert.Equal(t, filepath.Join(dir, "run.json"), SampleMetaPath(out))
	rep, err := WriteSampleFiles(context.Background(), p, out, opts)
	require.NoError(t, err)
	assert.Equal(t, want, rep)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, csv.String(), string(got))
	got, err = os.ReadFile(SampleMetaPath(out))
	require.NoError(t, err)
	assert.Equal(t, meta.String(), string(got))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = WriteSampleFiles(ctx, p, out, SampleOptions{Every: 3, Seed: 2})
	require.ErrorIs(t, err, context.Canceled)
	got, err = os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, csv.String(), string(got), "not replaced")

	_, err = WriteSampleFiles(context.Background(), p, out, SampleOptions{Every: 10, Phase: 10})
	require.ErrorIs(t, err, ErrBadSample)
	var oe *outfile.Error
	assert.NotErrorAs(t, err, &oe, "the options' fault, not the output's")

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no temporary file left")
}
