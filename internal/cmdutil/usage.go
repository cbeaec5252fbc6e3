package cmdutil

import (
	"errors"
	"fmt"
)

// UsageError marks an error as the user's to fix (bad flags, arguments, configuration or input
// files): ExitCode gives ExitUsage (2) for it.
type UsageError struct{ Err error }

// Error is the wrapped error's message.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef formats a UsageError (%w wraps as in fmt.Errorf).
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// IsUsage reports whether err is, or wraps, a UsageError.
func IsUsage(err error) bool {
	var u *UsageError
	return errors.As(err, &u)
}

// AsUsage wraps err as a UsageError (nil, and a UsageError, stay as they are).
func AsUsage(err error) error {
	if err == nil || IsUsage(err) {
		return err
	}
	return &UsageError{Err: err}
}
