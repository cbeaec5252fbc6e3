package main

import "github.com/gctune/gctune/internal/cmdutil"

// exitInterrupted is cmdutil.ExitInterrupted (130), after a signal stopped a command short.
const exitInterrupted = cmdutil.ExitInterrupted

// InterruptedError is cmdutil.InterruptedError.
type InterruptedError = cmdutil.InterruptedError

// interruptedf is cmdutil.Interruptedf.
func interruptedf(format string, args ...any) error { return cmdutil.Interruptedf(format, args...) }
