//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gctuneLimited runs gctune as a child process with its file size limit at one block (ulimit -f
// 1: every write past 512 bytes fails, as on a full disk) and returns its output and exit code.
func gctuneLimited(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("sh", append([]string{"-c", `ulimit -f 1 && exec "$0" "$@"`, os.Args[0]}, args...)...)
	cmd.Env = append(os.Environ(), "GCTUNETEST_MAIN=1")
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		require.NoError(t, err)
	}
	return string(out), cmd.ProcessState.ExitCode()
}

// TestReadOnlyCommandsOnAFullDisk: the read-only commands open a study database without a
// -wal file without creating -wal or -shm, so they work on a full disk and leave nothing beside
// it; when SQLite must create them (a -wal is there) and cannot, the error is in words, one
// line, exit 2 (issue 35: "disk I/O error (4874)", and the files left behind).
func TestReadOnlyCommandsOnAFullDisk(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	optimizeTiny(t, db, "s", 3)
	for _, args := range [][]string{
		{"studies", "list"},
		{"studies", "show", "s"},
		{"export", "s"},
	} {
		out, code := gctuneLimited(t, append(args, "--storage", db)...)
		assert.Equal(t, 0, code, "%v: %s", args, out)
		des, err := os.ReadDir(dir)
		require.NoError(t, err)
		assert.Len(t, des, 1, "%v: nothing beside the database", args)
	}
	// A -wal file (a writer's, or one a crash left): SQLite needs the -shm, which the full disk
	// refuses.
	require.NoError(t, os.WriteFile(db+"-wal", nil, 0o644))
	out, code := gctuneLimited(t, "studies", "list", "--storage", db)
	assert.Equal(t, cmdutil.ExitUsage, code, out)
	assert.Equal(t, 1, strings.Count(out, "\n"), "one line: %q", out)
	assert.Contains(t, out, "the disk refused a read or write (is it full, or a file size limit, ulimit -f, reached?)")
	assert.NotContains(t, out, "disk I/O error")
}
