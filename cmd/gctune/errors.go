package main

import "github.com/gctune/gctune/internal/cmdutil"

// Exit codes main returns (cmdutil.ExitCode).
const (
	exitFailure = cmdutil.ExitFailure
	exitUsage   = cmdutil.ExitUsage
)

// UsageError is cmdutil.UsageError: the user's error, exit code 2.
type UsageError = cmdutil.UsageError

// usageErrorf is cmdutil.Usagef.
func usageErrorf(format string, args ...any) error { return cmdutil.Usagef(format, args...) }

// asUsage is cmdutil.AsUsage.
func asUsage(err error) error { return cmdutil.AsUsage(err) }

// exitCode is cmdutil.ExitCode.
func exitCode(err error) int { return cmdutil.ExitCode(err) }

// oneLine is cmdutil.OneLine.
func oneLine(err error) string { return cmdutil.OneLine(err) }
