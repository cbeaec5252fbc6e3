package cmdutil

import (
	"context"
	"errors"
	"fmt"
)

// InterruptedError says that a signal stopped a command before its work was done, and what was
// kept. ExitCode gives ExitInterrupted for it.
type InterruptedError struct{ What string }

// Error is "interrupted: " and what was kept.
func (e *InterruptedError) Error() string { return "interrupted: " + e.What }

// Interruptedf formats an InterruptedError.
func Interruptedf(format string, args ...any) error {
	return &InterruptedError{What: fmt.Sprintf(format, args...)}
}

// IsInterrupted reports whether err is, or wraps, an InterruptedError, or is the cancellation
// of the command's context by a signal (a command that stops on ctx.Err()).
func IsInterrupted(err error) bool {
	var ie *InterruptedError
	return errors.As(err, &ie) || errors.Is(err, context.Canceled)
}
