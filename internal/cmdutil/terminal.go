package cmdutil

import (
	"io"

	"golang.org/x/term"
)

// IsTerminal reports whether w is a terminal (a file descriptor term.IsTerminal accepts). The
// progress bar is drawn only there: elsewhere (a log file, a pipe, CI) its carriage returns
// would fill the log with redrawn lines.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}
