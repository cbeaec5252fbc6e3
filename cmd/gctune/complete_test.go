package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// completions runs cobra's hidden __complete command and returns the candidates and the
// directive line.
func completions(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	out, _, code := gctune(t, append([]string{"__complete"}, args...)...)
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[:len(lines)-1], lines[len(lines)-1]
}

// TestCompletionStudyAndWorkloadNames: study names come from the configured storage, quietly
// nothing when it cannot be opened; workload names are the bundled ones and profile files
// (issue 13.5).
func TestCompletionStudyAndWorkloadNames(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	optimizeTiny(t, db, "alpha", 1, "-q")
	for _, args := range [][]string{
		{"export", "--storage", db, "a"},
		{"studies", "show", "--storage", db, ""},
		{"report", "--storage", db, "al"},
		{"worker", "--storage", db, "--study", ""},
	} {
		got, directive := completions(t, args...)
		assert.Equal(t, []string{"alpha"}, got, args)
		assert.Equal(t, ":4", directive, args) // no file completion
	}
	got, _ := completions(t, "export", "--storage", filepath.Join(t.TempDir(), "missing.db"), "")
	assert.Empty(t, got, "a missing storage completes nothing")
	assert.NoFileExists(t, filepath.Join(filepath.Dir(db), "missing.db"))

	got, _ = completions(t, "lifetimes", "dataframe-")
	assert.Equal(t, []string{"dataframe-1.6gb", "dataframe-3.1gb", "dataframe-500mb"}, got)
	got, _ = completions(t, "optimize", "testdata/ti")
	assert.Equal(t, []string{"testdata/tiny.yaml"}, got)
	got, _ = completions(t, "study", "create", "x", "request")
	assert.Equal(t, []string{"request-server"}, got)
}
