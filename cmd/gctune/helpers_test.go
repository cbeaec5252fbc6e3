package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/glebarez/sqlite"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/gctune/gctune/internal/buildinfo"
	"github.com/gctune/gctune/trialstore"
)

// The helpers the tests of package main share: gctune run in-process or as a child process,
// a tiny study to work on, and ways to look into (and damage) a study database.

// TestMain lets the tests run the gctune command as a real process: the test binary re-executed
// with GCTUNETEST_MAIN=1 behaves as gctune (the variable is not GCTUNE_-prefixed, which the
// configuration would refuse).
//
// The tests' default study database is in a data folder of their own (XDG_DATA_HOME set to a
// temporary folder), never the user's.
func TestMain(m *testing.M) {
	if os.Getenv("GCTUNETEST_MAIN") == "1" {
		main()
	}
	data, err := os.MkdirTemp("", "gctune-test-data-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_DATA_HOME", data)
	code := m.Run()
	os.RemoveAll(data)
	os.Exit(code)
}

// gctune runs the command line in-process and returns stdout, stderr and the exit code.
func gctune(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return out.String(), errb.String(), code
}

// gctuneOK runs the command line in-process (gctune), requires exit code 0 and returns stdout
// and stderr.
func gctuneOK(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	out, errOut, code := gctune(t, args...)
	require.Equal(t, 0, code, "stderr: %s", errOut)
	return out, errOut
}

// gctuneJSON runs the command line with --json, requires success and decodes stdout into v.
func gctuneJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	out, _ := gctuneOK(t, append([]string{"--json"}, args...)...)
	require.NoError(t, json.Unmarshal([]byte(out), v), "stdout: %s", out)
}

// gctuneIn runs the root command in-process with stdin and returns stdout, stderr and 0 or 1.
func gctuneIn(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	root := NewRootCmd(buildinfo.Build{})
	root.SetArgs(args)
	root.SetIn(strings.NewReader(stdin))
	root.SetOut(&out)
	root.SetErr(&errb)
	if root.Execute() != nil {
		code = 1
	}
	return out.String(), errb.String(), code
}

// gctuneCommand is gctune as a child process (see TestMain), with env added to the test's
// environment; the caller sets its outputs and starts it.
func gctuneCommand(env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "GCTUNETEST_MAIN=1"), env...)
	return cmd
}

// gctuneProcess starts gctune as a child process, its stdout and stderr in one buffer.
func gctuneProcess(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := gctuneCommand(env, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	return cmd, &out
}

// optimizeTiny runs `optimize testdata/tiny.yaml` on one worker into study of the database db,
// with trials trials and the extra arguments, requires success and returns its stderr.
func optimizeTiny(t *testing.T, db, study string, trials int, extra ...string) (stderr string) {
	t.Helper()
	args := append([]string{"optimize", "testdata/tiny.yaml", "--trials", itoa(trials), "--workers", "1", "--storage", db, "--study", study}, extra...)
	_, errOut := gctuneOK(t, args...)
	return errOut
}

// execSQL runs statements on the SQLite database at path, as another program (or a damaged
// disk) would change it behind gctune's back.
func execSQL(t *testing.T, path string, statements ...string) {
	t.Helper()
	g, err := gorm.Open(sqlite.Open(path), &gorm.Config{})
	require.NoError(t, err)
	for _, s := range statements {
		require.NoError(t, g.Exec(s).Error, s)
	}
	sqlDB, err := g.DB()
	require.NoError(t, err)
	require.NoError(t, sqlDB.Close())
}

// openTrials opens the database without any cache and returns the study's trials.
func openTrials(db, study string) ([]goptuna.FrozenTrial, error) {
	store, err := trialstore.Open(context.Background(), db, trialstore.OpenOptions{MustExist: true, NoCache: true})
	if err != nil {
		return nil, err
	}
	defer store.Close()
	s, err := trialstore.LoadStudy(store, study)
	if err != nil {
		return nil, err
	}
	return s.GetTrials()
}

// readTrials returns the study's trials (openTrials), requiring that it can.
func readTrials(t *testing.T, db, study string) []goptuna.FrozenTrial {
	t.Helper()
	trials, err := openTrials(db, study)
	require.NoError(t, err)
	return trials
}

// readTrialsIfAny is readTrials that returns nothing while the study does not exist yet.
func readTrialsIfAny(t *testing.T, db, study string) []goptuna.FrozenTrial {
	t.Helper()
	trials, err := openTrials(db, study)
	if err != nil {
		return nil
	}
	return trials
}

// writeFile writes content to name in a fresh temporary directory and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

// withEnv runs f with the environment variables of env ("KEY=value") set.
func withEnv(t *testing.T, env []string, f func()) {
	t.Helper()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	f()
}

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func itoa(n int) string { return strconv.Itoa(n) }

// dropStoreLine removes the "study database: PATH" line that a command which opens a study
// prints first on standard error.
func dropStoreLine(stderr string) string {
	if strings.HasPrefix(stderr, "study database: ") {
		_, rest, _ := strings.Cut(stderr, "\n")
		return rest
	}
	return stderr
}
