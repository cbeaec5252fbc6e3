package cmdutil

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/outfile"
)

// TestCheckOutputDir: an existing directory, or a new one in an existing directory, passes; a
// file, or a directory under a missing one, is an *outfile.Error naming it.
func TestCheckOutputDir(t *testing.T) {
	dir := t.TempDir()
	assert.NoError(t, CheckOutputDir(dir))
	assert.NoError(t, CheckOutputDir(filepath.Join(dir, "new")))
	file := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	err := CheckOutputDir(file)
	var oe *outfile.Error
	require.True(t, errors.As(err, &oe), "%v", err)
	assert.Equal(t, file, oe.Path)
	assert.Contains(t, err.Error(), "not a directory")
	assert.Error(t, CheckOutputDir(filepath.Join(dir, "missing", "new")))
}
