//go:build unix

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gctune/gctune/internal/cmdutil"
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
		assert.Equal(t, cmdutil.ExitUsage, code)
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
	// Issue 35: a FIFO X.json hung sample past a minute and left the temporary CSV when
	// killed. Both files of the pair must be files: a FIFO, a device (through a link too) is
	// refused before any work, in one line naming it.
	t.Run("FIFO or device refused, for either file", func(t *testing.T) {
		for _, c := range []struct{ csv, json, bad, kind string }{
			{"fifo", "", "s.csv", "named pipe"},
			{"", "fifo", "s.json", "named pipe"},
			{"/dev/full", "", "s.csv", "device"},
			{"", "/dev/null", "s.json", "device"},
		} {
			dir := t.TempDir()
			for name, what := range map[string]string{"s.csv": c.csv, "s.json": c.json} {
				p := filepath.Join(dir, name)
				switch what {
				case "fifo":
					require.NoError(t, syscall.Mkfifo(p, 0o600))
				case "":
				default:
					require.NoError(t, os.Symlink(what, p))
				}
			}
			csv := filepath.Join(dir, "s.csv")
			bad := filepath.Join(dir, c.bad)
			errOut, code := sample(csv)
			assert.Equal(t, cmdutil.ExitUsage, code, c)
			want := "gctune: --output: cannot write " + bad + ": is a " + c.kind + ": sample writes regular files only, " + csv + " and " + filepath.Join(dir, "s.json") + "\n"
			assert.Equal(t, want, errOut, c)
			des, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Len(t, des, 1, "nothing written beside it")
		}
	})
	t.Run("a .json that is a folder: before any work", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.Mkdir(filepath.Join(dir, "s.json"), 0o755))
		_, errOut, code := gctune(t, "sample", "ghost-workload", "--rate", "1/5", "-o", filepath.Join(dir, "s.csv"))
		assert.Equal(t, cmdutil.ExitUsage, code)
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
		assert.Equal(t, cmdutil.ExitUsage, code)
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
