package main

import (
	"io"
	"math"
	"strings"
	"unicode/utf8"

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

// bar draws share/full as a horizontal bar of up to width cells with eighth-cell resolution.
func bar(share, full float64, width int) string {
	if full <= 0 || share <= 0 {
		return ""
	}
	eighths := int(math.Round(share / full * float64(width*8)))
	if eighths == 0 {
		eighths = 1 // visible, however small
	}
	partial := []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}
	return strings.Repeat("█", eighths/8) + partial[eighths%8]
}

// padRight pads s with spaces to width runes (tabwriter counts bytes, so bars are padded by
// hand).
func padRight(s string, width int) string {
	n := len([]rune(s))
	if n >= width {
		return s
	}
	return s + strings.Repeat(" ", width-n)
}

// columnWidths is the width in runes of each column of a four-column text table.
func columnWidths(rows [][4]string) [4]int {
	var wid [4]int
	for _, r := range rows {
		for i, c := range r {
			wid[i] = max(wid[i], utf8.RuneCountInString(c))
		}
	}
	return wid
}
