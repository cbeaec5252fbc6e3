package cmdutil

import (
	"errors"

	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialstore"
)

// Exit codes main returns.
const (
	ExitOK      = 0
	ExitFailure = 1 // anything else: a bug, a database server that fails mid-run, ...
	ExitUsage   = 2 // bad input or usage: flags, arguments, config, unknown workload, unreadable or malformed input file, unwritable output, corrupt database
	// ExitInterrupted is the exit code after SIGINT or SIGTERM stopped a command's work short:
	// 128 + SIGINT's number, as a shell reports a process that Ctrl-C ended, so that a script
	// can tell a run that stopped short from one that finished. A command whose work finished
	// anyway (the signal came as the last trial was stored) exits 0.
	ExitInterrupted = 130
)

// ExitCode maps an error returned by a command to the process's exit code.
func ExitCode(err error) int {
	var o *outfile.Error
	switch {
	case err == nil:
		return ExitOK
	case IsInterrupted(err): // a signal stopped the work short
		return ExitInterrupted
	// An output that cannot be written is the user's to fix, wherever it is found, and so is
	// a damaged study database or study, and what package study says is the input's fault.
	case IsUsage(err), errors.As(err, &o), trialstore.IsDamaged(err), errors.Is(err, study.ErrInput):
		return ExitUsage
	}
	return ExitFailure
}
