package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoProgressBarOffTerminal: stderr that is not a terminal (a log, a pipe) gets no progress
// bar and no carriage returns (issue 13.5).
func TestNoProgressBarOffTerminal(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	assert.NotContains(t, optimizeTiny(t, db, "t", 3), "\r")

	// A real file, as a shell redirection gives.
	log, err := os.Create(filepath.Join(t.TempDir(), "log"))
	require.NoError(t, err)
	defer log.Close()
	assert.False(t, isTerminal(log))
	rec := newProgressRecorder(log, 1, true)
	rec.Start(3, 0)
	assert.Nil(t, rec.bar, "a bar was drawn into a file")
	b, err := os.ReadFile(log.Name())
	require.NoError(t, err)
	assert.False(t, strings.Contains(string(b), "\r"))
}
