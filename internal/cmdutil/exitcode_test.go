package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialstore"
)

// TestExitCode: nil is 0; the user's errors (a UsageError, an unwritable output, a damaged
// database, study's input errors) are 2 however wrapped; a signal's is 130; anything else 1.
func TestExitCode(t *testing.T) {
	for _, c := range []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{errors.New("boom"), ExitFailure},
		{Usagef("--trials %d: bad", 3), ExitUsage},
		{fmt.Errorf("run: %w", Usagef("bad")), ExitUsage},
		{&outfile.Error{Path: "x", Err: errors.New("read-only")}, ExitUsage},
		{fmt.Errorf("open: %w", trialstore.ErrCorrupt), ExitUsage},
		{fmt.Errorf("load: %w", study.ErrInput), ExitUsage},
		{Interruptedf("study %s holds %d trials", "s", 3), ExitInterrupted},
		{context.Canceled, ExitInterrupted},
		{errors.Join(errors.New("report"), context.Canceled), ExitInterrupted},
		{&UsageError{Err: context.Canceled}, ExitInterrupted},
	} {
		assert.Equal(t, c.want, ExitCode(c.err), "%v", c.err)
	}
}

// TestUsageError: Usagef wraps with %w, AsUsage wraps once and leaves nil alone.
func TestUsageError(t *testing.T) {
	base := errors.New("base")
	err := Usagef("config %s: %w", "c.yaml", base)
	assert.Equal(t, "config c.yaml: base", err.Error())
	assert.ErrorIs(t, err, base)
	assert.True(t, IsUsage(err))
	assert.Same(t, err, AsUsage(err))
	assert.NoError(t, AsUsage(nil))
	wrapped := AsUsage(base)
	assert.True(t, IsUsage(wrapped))
	assert.ErrorIs(t, wrapped, base)
	assert.False(t, IsUsage(base))
}

// TestInterrupted: the message says what was kept; a cancelled context alone is interrupted
// too, and its message is the generic one.
func TestInterrupted(t *testing.T) {
	err := Interruptedf("study %s holds %d of %d trials", "s", 3, 5)
	assert.Equal(t, "interrupted: study s holds 3 of 5 trials", err.Error())
	assert.True(t, IsInterrupted(err))
	assert.True(t, IsInterrupted(fmt.Errorf("x: %w", context.Canceled)))
	assert.False(t, IsInterrupted(context.DeadlineExceeded))
	assert.Equal(t, "interrupted: study s holds 3 of 5 trials", UserMessage(err))
	assert.Equal(t, "interrupted: stopped before the work was done", UserMessage(fmt.Errorf("report: %w", context.Canceled)))
}
