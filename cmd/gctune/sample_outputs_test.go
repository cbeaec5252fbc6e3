//go:build unix

package main

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 22, "sample -o does not use internal/outfile": each probe as it was written.
func TestSampleOutputsKeepWhatTheyWriteTo(t *testing.T) {
	sample := func(out string, extra ...string) (string, int) {
		_, errOut, code := gctune(t, append([]string{"sample", "testdata/tiny.yaml", "--rate", "1/5", "-o", out}, extra...)...)
		return errOut, code
	}
	t.Run("symlink written through", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "real.csv"), []byte("old"), 0o644))
		require.NoError(t, os.Symlink("real.csv", filepath.Join(dir, "s.csv")))
		errOut, code := sample(filepath.Join(dir, "s.csv"), "--force")
		require.Equal(t, 0, code, errOut)
		st, err := os.Lstat(filepath.Join(dir, "s.csv"))
		require.NoError(t, err)
		assert.NotZero(t, st.Mode()&fs.ModeSymlink, "the link was replaced")
		b, _ := os.ReadFile(filepath.Join(dir, "real.csv"))
		assert.True(t, strings.HasPrefix(string(b), `"finalizationTimeInMicroSeconds"`), "the target was not written")
		// Without --force an existing target is not replaced.
		errOut, code = sample(filepath.Join(dir, "s.csv"))
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, errOut, "exists: not replaced")
	})
	t.Run("dangling link creates its target", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.Symlink("made.csv", filepath.Join(dir, "s.csv")))
		errOut, code := sample(filepath.Join(dir, "s.csv"))
		require.Equal(t, 0, code, errOut)
		st, err := os.Lstat(filepath.Join(dir, "s.csv"))
		require.NoError(t, err)
		assert.NotZero(t, st.Mode()&fs.ModeSymlink)
		assert.FileExists(t, filepath.Join(dir, "made.csv"))
	})
	t.Run("mode kept", func(t *testing.T) {
		dir := t.TempDir()
		out := filepath.Join(dir, "s.csv")
		require.NoError(t, os.WriteFile(out, nil, 0o600))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "s.json"), nil, 0o640))
		require.NoError(t, os.Chmod(out, 0o600))
		require.NoError(t, os.Chmod(filepath.Join(dir, "s.json"), 0o640))
		errOut, code := sample(out, "--force")
		require.Equal(t, 0, code, errOut)
		for name, mode := range map[string]fs.FileMode{"s.csv": 0o600, "s.json": 0o640} {
			st, err := os.Stat(filepath.Join(dir, name))
			require.NoError(t, err)
			assert.Equal(t, mode, st.Mode().Perm(), name)
		}
		assertNoTemp(t, dir)
	})
	t.Run("FIFO and a link to /dev/full written in place", func(t *testing.T) {
		dir := t.TempDir()
		fifo := filepath.Join(dir, "s.csv")
		require.NoError(t, syscall.Mkfifo(fifo, 0o600))
		require.NoError(t, os.Symlink("/dev/null", filepath.Join(dir, "s.json")))
		got := make(chan int, 1)
		go func() {
			f, err := os.Open(fifo)
			if err != nil {
				got <- -1
				return
			}
			defer f.Close()
			b, _ := io.ReadAll(f)
			got <- len(b)
		}()
		errOut, code := sample(fifo)
		require.Equal(t, 0, code, errOut)
		select {
		case n := <-got:
			assert.Positive(t, n)
		case <-time.After(20 * time.Second):
			t.Fatal("the FIFO's reader got nothing")
		}
		st, err := os.Lstat(fifo)
		require.NoError(t, err)
		assert.NotZero(t, st.Mode()&fs.ModeNamedPipe, "the FIFO was replaced")

		full := filepath.Join(dir, "full.csv")
		require.NoError(t, os.Symlink("/dev/full", full))
		errOut, code = sample(full)
		assert.Equal(t, exitUsage, code)
		assert.Equal(t, "gctune: cannot write "+full+": no space left on device\n", errOut)
		st, err = os.Lstat(full)
		require.NoError(t, err)
		assert.NotZero(t, st.Mode()&fs.ModeSymlink, "the link to /dev/full was replaced")
		assertNoTemp(t, dir)
	})
	t.Run("a .json that is a folder: before any work", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.Mkdir(filepath.Join(dir, "s.json"), 0o755))
		_, errOut, code := gctune(t, "sample", "ghost-workload", "--rate", "1/5", "-o", filepath.Join(dir, "s.csv"))
		assert.Equal(t, exitUsage, code)
		assert.Equal(t, "gctune: --output: cannot write "+filepath.Join(dir, "s.json")+": is a directory\n", errOut)
		assert.NoFileExists(t, filepath.Join(dir, "s.csv"))
	})
	t.Run("a read-only .json is not replaced", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root may write read-only files")
		}
		dir := t.TempDir()
		meta := filepath.Join(dir, "s.json")
		require.NoError(t, os.WriteFile(meta, []byte("old"), 0o444))
		errOut, code := sample(filepath.Join(dir, "s.csv"), "--force")
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, errOut, "permission denied")
		b, _ := os.ReadFile(meta)
		assert.Equal(t, "old", string(b))
	})
}

// assertNoTemp fails when dir holds a temporary file.
func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	des, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, d := range des {
		assert.NotContains(t, d.Name(), "tmp", "temporary file left behind")
	}
}
