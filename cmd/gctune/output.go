package main

import (
	"io"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/internal/units"
)

// writeJSON is cmdutil.WriteJSON.
func writeJSON(w io.Writer, v any) error { return cmdutil.WriteJSON(w, v) }

// writeOutput writes path through write with outfile.Write: a regular or new file is
// replaced atomically keeping its mode, a symbolic link's target is written, a device or FIFO
// is written in place, and nothing half-written or temporary is left behind. Its errors are
// *outfile.Error, exit code 2.
func writeOutput(path string, write func(io.Writer) error) error {
	return outfile.Write(path, write)
}

// formatCount writes n with thousands separators: 86002607 → "86,002,607".
func formatCount(n uint64) string { return units.FormatCount(n) }

// bar is cmdutil.Bar.
func bar(share, full float64, width int) string { return cmdutil.Bar(share, full, width) }

// padRight is cmdutil.PadRight.
func padRight(s string, width int) string { return cmdutil.PadRight(s, width) }

// columnWidths is cmdutil.ColumnWidths.
func columnWidths(rows [][4]string) [4]int { return cmdutil.ColumnWidths(rows) }
