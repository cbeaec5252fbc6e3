package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLongInterruptExits130: SIGINT (or SIGTERM) that stops optimize short of its target exits 130,
// with one line saying it was interrupted and how to go on; the finished trials are stored
// (issue 21: it exited 0, and a script could not tell).
func TestLongInterruptExits130(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		db := filepath.Join(t.TempDir(), "s.db")
		p := startProc(t, nil, "optimize", gcdemo, "--study", "stop", "--trials", "100000", "--workers", "1", "--storage", db)
		waitComplete(t, db, "stop", 2, p)
		require.NoError(t, p.cmd.Process.Signal(sig))
		require.Equal(t, cmdutil.ExitInterrupted, p.wait(t, 60*time.Second), "%v; stderr: %s", sig, p.stderr)
		last := lastLine(p.stderr.String())
		assert.True(t, strings.HasPrefix(last, `gctune: interrupted: study stop holds `), last)
		assert.True(t, strings.HasSuffix(last, " of 100000 trials, each finished one stored: go on with gctune resume stop"), last)
		assert.Contains(t, p.stdout.String(), ", interrupted")
	}
}

// TestStoppedShort: a session that a signal interrupted after it reached its target finished
// anyway (exit 0); one short of it did not (exit 130).
func TestStoppedShort(t *testing.T) {
	assert.NoError(t, stoppedShort(sessionDoc{Report: session.Report{Study: "s", Interrupted: true, Finished: 5, Target: 5}}))
	assert.NoError(t, stoppedShort(sessionDoc{Report: session.Report{Study: "s", Finished: 3, Target: 5}}))
	err := stoppedShort(sessionDoc{Report: session.Report{Study: "s", Interrupted: true, Finished: 3, Target: 5}})
	assert.Equal(t, cmdutil.ExitInterrupted, cmdutil.ExitCode(err))
	assert.Equal(t, "interrupted: study s holds 3 of 5 trials, each finished one stored: go on with gctune resume s", cmdutil.UserMessage(err))

	// A command that stops on its cancelled context (report, explain) exits 130 too.
	assert.Equal(t, cmdutil.ExitInterrupted, cmdutil.ExitCode(context.Canceled))
	assert.Equal(t, cmdutil.ExitInterrupted, cmdutil.ExitCode(errors.Join(errors.New("report"), context.Canceled)))
	assert.Equal(t, "interrupted: stopped before the work was done", cmdutil.UserMessage(context.Canceled))
}

// TestInterruptedBeforeStartExits130: a command whose context is cancelled before it starts
// its work exits 130 with one line.
func TestInterruptedBeforeStartExits130(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	db := filepath.Join(t.TempDir(), "s.db")
	var out, errb strings.Builder
	code := runContext(ctx, []string{"optimize", "testdata/tiny.yaml", "--trials", "3", "--workers", "1", "--storage", db, "-q"}, &out, &errb)
	assert.Equal(t, cmdutil.ExitInterrupted, code, errb.String())
	assert.Equal(t, 1, strings.Count(errb.String(), "\n"), errb.String())
	assert.True(t, strings.HasPrefix(errb.String(), "gctune: interrupted: "), errb.String())
}
