package main

import (
	"context"
	"io"
)

// runFunc is a command's run function: what its RunE calls with the configuration and the
// options struct it built from the arguments and flags, writing the result to w and progress
// and notes to ew. A command's constructor takes one (nil: the command's own, runOptimize,
// runSimulate...), so that a test sees the options the flags give without running the
// command, as cli/cli's runF.
type runFunc[O any] func(ctx context.Context, w, ew io.Writer, cfg Config, o O) error

// orRun returns runF, or run when runF is nil.
func orRun[O any](runF, run runFunc[O]) runFunc[O] {
	if runF != nil {
		return runF
	}
	return run
}
