//go:build unix

package outfile

import (
	"errors"
	"fmt"
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
	"golang.org/x/sys/unix"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// entries lists dir's file names.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, d := range des {
		names = append(names, d.Name())
	}
	return names
}

func TestWriteNewAndReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	require.NoError(t, Check(path))
	require.NoError(t, Write(path, writeString("one")))
	require.NoError(t, Write(path, writeString("two")))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "two", string(b))
	assert.Equal(t, []string{"out.txt"}, entries(t, dir))
}

// An existing file keeps its permission bits (the old helper forced 0644).
func TestWriteKeepsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "secret.yaml")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
	require.NoError(t, os.Chmod(path, 0o600))
	require.NoError(t, Write(path, writeString("new")))
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), st.Mode().Perm())
}

// A symbolic link stays a link; its target gets the content.
func TestWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.txt")
	require.NoError(t, os.WriteFile(real, []byte("old"), 0o640))
	link := filepath.Join(dir, "link.txt")
	require.NoError(t, os.Symlink("real.txt", link))
	require.NoError(t, Check(link))
	require.NoError(t, Write(link, writeString("new")))
	st, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, st.Mode()&fs.ModeSymlink, "the link was replaced")
	b, err := os.ReadFile(real)
	require.NoError(t, err)
	assert.Equal(t, "new", string(b))
	st, err = os.Stat(real)
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o640), st.Mode().Perm())

	// A dangling link creates its target.
	dangling := filepath.Join(dir, "dangling.txt")
	require.NoError(t, os.Symlink("created.txt", dangling))
	require.NoError(t, Write(dangling, writeString("x")))
	b, err = os.ReadFile(filepath.Join(dir, "created.txt"))
	require.NoError(t, err)
	assert.Equal(t, "x", string(b))
	assert.ElementsMatch(t, []string{"real.txt", "link.txt", "dangling.txt", "created.txt"}, entries(t, dir))
}

// A FIFO is written in place: its reader gets the content and the FIFO stays a FIFO.
func TestWriteFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	require.NoError(t, Check(fifo)) // must not block: no reader yet
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- "open: " + err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	require.NoError(t, Write(fifo, writeString("through the pipe")))
	select {
	case s := <-got:
		assert.Equal(t, "through the pipe", s)
	case <-time.After(10 * time.Second):
		t.Fatal("the FIFO's reader never got a writer: the FIFO was replaced")
	}
	st, err := os.Lstat(fifo)
	require.NoError(t, err)
	assert.NotZero(t, st.Mode()&fs.ModeNamedPipe, "the FIFO was replaced")
	assert.Equal(t, []string{"pipe"}, entries(t, dir))
}

// A device stays a device. Only root can replace /dev/null, so only root can see the bug; the
// test writes a copy of /dev/null made in a temporary directory (mknod, root only), so that a
// regression cannot break the machine's.
func TestWriteDevice(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can replace /dev/null (and make a copy of it)")
	}
	null := filepath.Join(t.TempDir(), "null")
	require.NoError(t, syscall.Mknod(null, syscall.S_IFCHR|0o666, int(unix.Mkdev(1, 3))))
	require.NoError(t, Check(null))
	require.NoError(t, Write(null, writeString("discarded")))
	st, err := os.Lstat(null)
	require.NoError(t, err)
	assert.NotZero(t, st.Mode()&fs.ModeCharDevice, "the device is no longer a device")
}

// A failing or panicking writer leaves the target untouched and no temporary file, and the
// error names the output, never the temporary file.
func TestWriteFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error { _, _ = io.WriteString(w, "half"); return boom })
	require.ErrorIs(t, err, boom)
	var oe *Error
	require.ErrorAs(t, err, &oe)
	assert.Equal(t, "cannot write "+path+": boom", err.Error())
	assert.Panics(t, func() {
		_ = Write(path, func(w io.Writer) error { _, _ = io.WriteString(w, "half"); panic("writer panics") })
	})
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "old", string(b))
	assert.Equal(t, []string{"out.txt"}, entries(t, dir))
}

func TestCheckRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		path, want string
	}{
		{dir, "is a directory"},
		{filepath.Join(dir, "missing", "out.txt"), "directory " + filepath.Join(dir, "missing") + " does not exist"},
		{"", "empty file name"},
	} {
		err := Check(tc.path)
		require.Error(t, err, tc.path)
		assert.Contains(t, err.Error(), tc.want)
		assert.Error(t, Write(tc.path, writeString("x")))
	}
	loop := filepath.Join(dir, "loop")
	require.NoError(t, os.Symlink("loop", loop))
	assert.ErrorContains(t, Check(loop), "too many levels of symbolic links")
}

// A read-only directory is found by Check, and Write's error names no temporary file.
func TestReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o555))
	t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
	path := filepath.Join(dir, "out.txt")
	err := Check(path)
	require.ErrorIs(t, err, fs.ErrPermission)
	err = Write(path, writeString("x"))
	require.ErrorIs(t, err, fs.ErrPermission)
	assert.NotContains(t, err.Error(), tempPrefix)
	assert.False(t, strings.Contains(err.Error(), ".tmp"), err.Error())
	assert.Empty(t, entries(t, dir))
}

// A writer's own message that quotes the temporary file's name gets the output's instead.
func TestWriteErrorNamesNoTemp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	err := Write(path, func(w io.Writer) error {
		return fmt.Errorf("writing %s: disk full", w.(*os.File).Name())
	})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), tempPrefix)
	assert.Equal(t, "cannot write "+path+": writing "+path+": disk full", err.Error())
}

// A read-only file in a writable directory is not replaced (the rename would allow it).
func TestReadOnlyFileNotReplaced(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write read-only files")
	}
	path := filepath.Join(t.TempDir(), "keep.txt")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o444))
	require.ErrorIs(t, Check(path), fs.ErrPermission)
	require.ErrorIs(t, Write(path, writeString("new")), fs.ErrPermission)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "old", string(b))
}

// An output that is one of the inputs, under any name, is refused; distinct files, missing
// ones and devices are not.
func TestCheckNotInputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "r.db")
	require.NoError(t, os.WriteFile(in, []byte("db"), 0o644))
	link := filepath.Join(dir, "link.html")
	require.NoError(t, os.Symlink("r.db", link))
	hard := filepath.Join(dir, "hard.html")
	require.NoError(t, os.Link(in, hard))
	other := filepath.Join(dir, "other.html")
	require.NoError(t, os.WriteFile(other, nil, 0o644))
	for _, out := range []string{in, link, hard, "./" + filepath.Base(in)} {
		if out[0] == '.' {
			t.Chdir(dir)
		}
		err := CheckNotInputs([]string{filepath.Join(dir, "new.html"), out}, []string{"missing", in})
		var oe *Error
		require.ErrorAs(t, err, &oe, out)
		assert.Equal(t, "cannot write "+out+": is the input "+in+": not writing over it", err.Error())
	}
	require.NoError(t, CheckNotInputs([]string{other, filepath.Join(dir, "new.html"), ""}, []string{in, "", "missing"}))
	require.NoError(t, CheckNotInputs([]string{"/dev/null"}, []string{"/dev/null"}))
}
