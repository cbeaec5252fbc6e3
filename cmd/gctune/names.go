package main

import "github.com/gctune/gctune/internal/cmdutil"

// terminalSafe is cmdutil.TerminalSafe.
func terminalSafe(s string) string { return cmdutil.TerminalSafe(s) }
