//go:build unix

package outfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeBoth(a, b string) func(io.Writer, io.Writer) error {
	return func(x, y io.Writer) error {
		if _, err := io.WriteString(x, a); err != nil {
			return err
		}
		_, err := io.WriteString(y, b)
		return err
	}
}

// Issue 22: sample -o replaced a symbolic link by a file, turned a FIFO into a file, replaced a
// dangling link, lost the mode. WritePair does what Write does, for both files.
func TestWritePairKeepsWhatItWritesTo(t *testing.T) {
	dir := t.TempDir()
	csv, meta := filepath.Join(dir, "s.csv"), filepath.Join(dir, "s.json")
	require.NoError(t, WritePair([2]string{csv, meta}, writeBoth("rows", "{}")))
	assert.ElementsMatch(t, []string{"s.csv", "s.json"}, entries(t, dir))

	// Modes kept, content replaced.
	require.NoError(t, os.Chmod(csv, 0o600))
	require.NoError(t, os.Chmod(meta, 0o640))
	require.NoError(t, WritePair([2]string{csv, meta}, writeBoth("rows2", "{2}")))
	for path, mode := range map[string]fs.FileMode{csv: 0o600, meta: 0o640} {
		st, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, mode, st.Mode().Perm(), path)
	}
	b, _ := os.ReadFile(meta)
	assert.Equal(t, "{2}", string(b))

	// Links written through, a dangling one creating its target.
	sub := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(sub, "real.csv"), []byte("old"), 0o644))
	lcsv, lmeta := filepath.Join(sub, "l.csv"), filepath.Join(sub, "l.json")
	require.NoError(t, os.Symlink("real.csv", lcsv))
	require.NoError(t, os.Symlink("made.json", lmeta))
	replaces, err := Replaces(lcsv)
	require.NoError(t, err)
	assert.True(t, replaces)
	replaces, err = Replaces(lmeta)
	require.NoError(t, err)
	assert.False(t, replaces, "a dangling link replaces nothing")
	require.NoError(t, WritePair([2]string{lcsv, lmeta}, writeBoth("new", "{m}")))
	for _, l := range []string{lcsv, lmeta} {
		st, err := os.Lstat(l)
		require.NoError(t, err)
		assert.NotZero(t, st.Mode()&fs.ModeSymlink, "%s replaced", l)
	}
	b, _ = os.ReadFile(filepath.Join(sub, "real.csv"))
	assert.Equal(t, "new", string(b))
	b, _ = os.ReadFile(filepath.Join(sub, "made.json"))
	assert.Equal(t, "{m}", string(b))
	assert.ElementsMatch(t, []string{"real.csv", "l.csv", "l.json", "made.json"}, entries(t, sub))
}

// A FIFO (and a link to a device) is written in place.
func TestWritePairFIFOAndDevice(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "p.csv")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	null := filepath.Join(dir, "p.json")
	require.NoError(t, os.Symlink("/dev/null", null))
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	require.NoError(t, WritePair([2]string{fifo, null}, writeBoth("through", "gone")))
	select {
	case s := <-got:
		assert.Equal(t, "through", s)
	case <-time.After(10 * time.Second):
		t.Fatal("the FIFO's reader got nothing")
	}
	st, err := os.Lstat(fifo)
	require.NoError(t, err)
	assert.NotZero(t, st.Mode()&fs.ModeNamedPipe)
	st, err = os.Lstat(null)
	require.NoError(t, err)
	assert.NotZero(t, st.Mode()&fs.ModeSymlink)
	assert.ElementsMatch(t, []string{"p.csv", "p.json"}, entries(t, dir))
	replaces, err := Replaces(fifo)
	require.NoError(t, err)
	assert.False(t, replaces)

	// /dev/full: the write fails, one error naming the output.
	err = WritePair([2]string{filepath.Join(dir, "x.csv"), "/dev/full"}, writeBoth("a", "b"))
	var oe *Error
	require.ErrorAs(t, err, &oe)
	assert.ErrorIs(t, err, syscall.ENOSPC)
	assert.Equal(t, "cannot write /dev/full: no space left on device", err.Error())
	assert.ElementsMatch(t, []string{"p.csv", "p.json"}, entries(t, dir), "no temporary file left")
}

// A failure or a panic leaves both files as they were and no temporary file; while the
// writer runs, the temporary files have the documented names.
func TestWritePairFailureLeavesBoth(t *testing.T) {
	dir := t.TempDir()
	csv, meta := filepath.Join(dir, "s.csv"), filepath.Join(dir, "s.json")
	require.NoError(t, os.WriteFile(csv, []byte("old"), 0o644))
	require.NoError(t, os.WriteFile(meta, []byte("old"), 0o644))
	boom := errors.New("boom")
	err := WritePair([2]string{csv, meta}, func(a, b io.Writer) error {
		names := entries(t, dir)
		assert.Len(t, names, 4)
		for _, n := range names {
			if n != "s.csv" && n != "s.json" {
				assert.Regexp(t, `^\.s\.(csv|json)\.gctune-tmp-[0-9a-f]{12}$`, n)
			}
		}
		_, _ = io.WriteString(a, "half")
		return boom
	})
	require.ErrorIs(t, err, boom)
	assert.Equal(t, "cannot write "+csv+": boom", err.Error())
	assert.Panics(t, func() {
		_ = WritePair([2]string{csv, meta}, func(io.Writer, io.Writer) error { panic("writer panics") })
	})
	for _, p := range []string{csv, meta} {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, "old", string(b))
	}
	assert.ElementsMatch(t, []string{"s.csv", "s.json"}, entries(t, dir))
	// A .json that is a directory.
	require.NoError(t, os.Remove(meta))
	require.NoError(t, os.Mkdir(meta, 0o755))
	err = WritePair([2]string{csv, meta}, writeBoth("a", "b"))
	assert.EqualError(t, err, "cannot write "+meta+": is a directory")
}
