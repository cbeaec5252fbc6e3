package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStudyErrorsAreOneLine: a command that opens a study database and then fails prints one
// line, the error, never "study database: PATH" before it (issue 35: a worker joining with
// another --clock, and a bad cost file, printed the path first).
func TestStudyErrorsAreOneLine(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	csv, err := os.ReadFile("testdata/run.csv")
	require.NoError(t, err)
	meta, err := os.ReadFile("testdata/run.json")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "run.csv"), csv, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "run.json"), meta, 0o644))
	gctuneOK(t, "study", "create", "w", filepath.Join(dir, "run.csv"), "--storage", db, "--trials", "2")
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("kind: gctune-cost\nscales: {mutator: .nan}\n"), 0o644))
	for _, args := range [][]string{
		{"worker", "--study", "w", "--clock", "us"},
		{"resume", "w", "--clock", "us"},
		{"resume", "w", "--cost", bad},
		{"worker", "--study", "w", "--cost", bad},
		{"report", "w", "--cost", bad, "-o", filepath.Join(dir, "r.html")},
	} {
		_, errOut, code := gctune(t, append(args, "--storage", db)...)
		assert.Equal(t, cmdutil.ExitUsage, code, "%v: %s", args, errOut)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%v: one line: %q", args, errOut)
		assert.True(t, strings.HasPrefix(errOut, "gctune: "), "%v: %q", args, errOut)
	}
}
