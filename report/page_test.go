package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPublish: the page Publish renders is Render's, with every figure; with a folder, a PNG
// per figure is written there; a folder that cannot be made fails with no page returned.
func TestPublish(t *testing.T) {
	r := newTestReport(t)
	// The figures are drawn once a call (most of the time under the race detector): the page
	// with its PNGs, then a PNG folder that is a file.
	dir := filepath.Join(t.TempDir(), "png")
	p, err := Publish(r, dir)
	require.NoError(t, err)
	var want bytes.Buffer
	require.NoError(t, Render(&want, r, p.Figures))
	assert.Equal(t, want.String(), p.HTML.String())
	require.Len(t, p.PNGs, len(p.Figures))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, len(p.Figures))

	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	p, err = Publish(r, file)
	require.Error(t, err)
	assert.Nil(t, p)
}
