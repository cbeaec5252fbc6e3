package cmdutil

import (
	"math"
	"strings"
	"unicode/utf8"
)

// Bar draws share/full as a horizontal bar of up to width cells with eighth-cell resolution;
// "" when either is not positive, one eighth for a share too small to see.
func Bar(share, full float64, width int) string {
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

// PadRight pads s with spaces to width runes (tabwriter counts bytes, so bars are padded by
// hand).
func PadRight(s string, width int) string {
	n := len([]rune(s))
	if n >= width {
		return s
	}
	return s + strings.Repeat(" ", width-n)
}

// ColumnWidths is the width in runes of each column of a four-column text table.
func ColumnWidths(rows [][4]string) [4]int {
	var wid [4]int
	for _, r := range rows {
		for i, c := range r {
			wid[i] = max(wid[i], utf8.RuneCountInString(c))
		}
	}
	return wid
}
