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

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestOutputsKeepWhatTheyWriteTo: every command's output keeps an existing file's mode, writes
// through a symbolic link and into a FIFO in place, and leaves no temporary file (issue 11.1;
// the old helper renamed a fresh 0644 file over all three).
func TestOutputsKeepWhatTheyWriteTo(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	optimizeTiny(t, db, "tiny", 3)
	commands := map[string]func(out string) []string{
		"export":    func(out string) []string { return []string{"export", "tiny", "--storage", db, "-o", out} },
		"simulate":  func(out string) []string { return []string{"simulate", "testdata/tiny.yaml", "--events", out} },
		"lifetimes": func(out string) []string { return []string{"lifetimes", "testdata/tiny.yaml", "--plot", out + ".svg"} },
	}
	for name, args := range commands {
		t.Run(name, func(t *testing.T) {
			sub := t.TempDir()
			// Mode 0600 kept.
			private := filepath.Join(sub, "private")
			require.NoError(t, os.WriteFile(private+".svg", []byte("old"), 0o600))
			require.NoError(t, os.WriteFile(private, []byte("old"), 0o600))
			gctuneOK(t, args(private)...)
			st, err := os.Stat(private)
			if name == "lifetimes" {
				st, err = os.Stat(private + ".svg")
			}
			require.NoError(t, err)
			assert.Equal(t, fs.FileMode(0o600), st.Mode().Perm(), "mode")

			// A symbolic link stays one.
			target := filepath.Join(sub, "target")
			link := filepath.Join(sub, "link")
			require.NoError(t, os.WriteFile(target, nil, 0o644))
			require.NoError(t, os.Symlink("target", link))
			require.NoError(t, os.Symlink("target.svg", link+".svg"))
			gctuneOK(t, args(link)...)
			written := link
			if name == "lifetimes" {
				written = link + ".svg"
			}
			lst, err := os.Lstat(written)
			require.NoError(t, err)
			assert.NotZero(t, lst.Mode()&fs.ModeSymlink, "the link was replaced by a file")
			b, err := os.ReadFile(written)
			require.NoError(t, err)
			assert.NotEmpty(t, b, "the link's target was not written")

			// A FIFO is written in place, read by its reader.
			fifo := filepath.Join(sub, "fifo")
			fifoPath := fifo
			if name == "lifetimes" {
				fifoPath = fifo + ".svg"
			}
			require.NoError(t, syscall.Mkfifo(fifoPath, 0o600))
			got := make(chan int, 1)
			go func() {
				f, err := os.Open(fifoPath)
				if err != nil {
					got <- -1
					return
				}
				defer f.Close()
				b, _ := io.ReadAll(f)
				got <- len(b)
			}()
			gctuneOK(t, args(fifo)...)
			select {
			case n := <-got:
				assert.Positive(t, n, "the FIFO's reader got nothing")
			case <-time.After(10 * time.Second):
				t.Error("the FIFO's reader never got a writer: the FIFO was replaced")
			}
			lst, err = os.Lstat(fifoPath)
			require.NoError(t, err)
			assert.NotZero(t, lst.Mode()&fs.ModeNamedPipe, "the FIFO was replaced by a file")

			// No temporary file left.
			des, err := os.ReadDir(sub)
			require.NoError(t, err)
			for _, d := range des {
				assert.NotContains(t, d.Name(), "tmp", "temporary file left behind")
			}
		})
	}
}

// TestOutputsDevNull: a device stays a device. Only root can replace /dev/null, so only root
// can see the bug this guards against; the test writes a copy of /dev/null made in a temporary
// directory (mknod, root only), so that a regression cannot break the machine's.
func TestOutputsDevNull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can replace /dev/null (and make a copy of it)")
	}
	null := filepath.Join(t.TempDir(), "null")
	require.NoError(t, syscall.Mknod(null, syscall.S_IFCHR|0o666, int(unix.Mkdev(1, 3))))
	gctuneOK(t, "simulate", "testdata/tiny.yaml", "--events", null)
	st, err := os.Lstat(null)
	require.NoError(t, err)
	assert.NotZero(t, st.Mode()&fs.ModeCharDevice, "the device is no longer a device")
}

// TestUnwritableOutputBeforeWork: an output that cannot be written is one line and exit 2, found
// before anything else is read: each command here is also given an input that does not exist,
// and the error is about the output.
func TestUnwritableOutputBeforeWork(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, "plain", "x")
	isDir := filepath.Join(dir, "d.svg")
	require.NoError(t, os.Mkdir(isDir, 0o755))
	unwritable := []struct{ path, want string }{
		{filepath.Join(dir, "no", "out.svg"), "does not exist"},
		{filepath.Join(file, "out.svg"), "not a directory"},
		{isDir, "is a directory"},
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		require.NoError(t, os.Mkdir(ro, 0o555))
		unwritable = append(unwritable, struct{ path, want string }{filepath.Join(ro, "out.svg"), "permission denied"})
	}
	missing := filepath.Join(dir, "missing.db")
	for _, u := range unwritable {
		cases := [][]string{
			{"export", "ghost", "--storage", missing, "-o", u.path},
			{"report", "ghost", "--storage", missing, "-o", u.path},
			{"simulate", "ghost-workload", "--events", u.path},
			{"lifetimes", "ghost-workload", "--plot", u.path},
		}
		if u.path != isDir {
			cases = append(cases, []string{"report", "ghost", "--storage", missing, "-o", filepath.Join(t.TempDir(), "r.html"), "--png", filepath.Join(filepath.Dir(u.path), "figs")})
		}
		for _, args := range cases {
			_, errOut, code := gctune(t, args...)
			assert.Equal(t, cmdutil.ExitUsage, code, "%v: %s", args, errOut)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
			assert.Contains(t, errOut, "cannot write", args)
			assert.Contains(t, errOut, u.want, args)
			assert.NotContains(t, errOut, "ghost", "the output is checked first")
		}
	}
	assert.NoFileExists(t, missing)
}

// TestSecondInterruptStops: the first SIGINT asks for a graceful stop, the second ends the
// process at once, even one blocked writing to a FIFO that nobody reads (both were caught and
// ignored before), and the FIFO stays a FIFO.
func TestSecondInterruptStops(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "events")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	cmd, out := gctuneProcess(t, nil, "simulate", "testdata/tiny.yaml", "--events", fifo)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	time.Sleep(time.Second) // let it reach the FIFO's open
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	time.Sleep(200 * time.Millisecond)
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	select {
	case err := <-done:
		require.Error(t, err, "the process ended normally: %s", out)
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatal("two interrupts did not stop gctune")
	}
	st, err := os.Lstat(fifo)
	require.NoError(t, err)
	assert.NotZero(t, st.Mode()&fs.ModeNamedPipe)
}
