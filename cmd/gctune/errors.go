package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialstore"
)

// Exit codes main returns.
const (
	exitOK      = 0
	exitFailure = 1 // anything else: a bug, a database server that fails mid-run, ...
	exitUsage   = 2 // bad input or usage: flags, arguments, config, unknown workload, unreadable or malformed input file, unwritable output, corrupt database
)

// UsageError marks an error as the user's to fix (bad flags, arguments, configuration or input
// files): main exits with code 2 for it, 1 for any other error.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *UsageError) Unwrap() error { return e.Err }

// usageErrorf formats a UsageError (%w wraps as in fmt.Errorf).
func usageErrorf(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// isUsage reports whether err is, or wraps, a UsageError.
func isUsage(err error) bool {
	var u *UsageError
	return errors.As(err, &u)
}

// asUsage wraps err as a UsageError (nil, and a UsageError, stay as they are).
func asUsage(err error) error {
	if err == nil || isUsage(err) {
		return err
	}
	return &UsageError{Err: err}
}

// exitCode maps an error returned by a command to the process's exit code.
func exitCode(err error) int {
	var o *outfile.Error
	switch {
	case err == nil:
		return exitOK
	case isInterrupted(err): // a signal stopped the work short (interrupt.go)
		return exitInterrupted
	// An output that cannot be written is the user's to fix, wherever it is found, and so is
	// a damaged study database or study, and what package study says is the input's fault.
	case isUsage(err), errors.As(err, &o), trialstore.IsDamaged(err), errors.Is(err, study.ErrInput):
		return exitUsage
	}
	return exitFailure
}

// oneLine flattens a (possibly multi-line, as mapstructure's) error message to one line and
// drops a leading "gctune: ", which main adds itself.
func oneLine(err error) string {
	var parts []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.TrimPrefix(strings.Join(parts, " "), "gctune: ")
}
