package main

import (
	"io"

	"github.com/gctune/gctune/internal/cmdutil"
)

// isTerminal is cmdutil.IsTerminal.
func isTerminal(w io.Writer) bool { return cmdutil.IsTerminal(w) }
