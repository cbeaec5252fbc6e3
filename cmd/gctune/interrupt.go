package main

import (
	"context"
	"errors"
	"fmt"
)

// exitInterrupted is the exit code after SIGINT or SIGTERM stopped a command's work short:
// 128 + SIGINT's number, as a shell reports a process that Ctrl-C ended, so that a script can
// tell a run that stopped short from one that finished. A command whose work finished anyway
// (the signal came as the last trial was stored) exits 0.
const exitInterrupted = 130

// InterruptedError says that a signal stopped a command before its work was done, and what was
// kept. main exits with exitInterrupted for it.
type InterruptedError struct{ What string }

func (e *InterruptedError) Error() string { return "interrupted: " + e.What }

// interruptedf formats an InterruptedError.
func interruptedf(format string, args ...any) error {
	return &InterruptedError{What: fmt.Sprintf(format, args...)}
}

// isInterrupted reports whether err is, or wraps, an InterruptedError, or is the cancellation of
// the command's context by a signal (a command that stops on ctx.Err()).
func isInterrupted(err error) bool {
	var ie *InterruptedError
	return errors.As(err, &ie) || errors.Is(err, context.Canceled)
}
