package termtext

import (
	"strings"
	"unicode/utf8"
)

// PadRight pads s with spaces on the right to width runes (tabwriter counts bytes, so cells
// holding bars or non-ASCII text are padded by hand).
func PadRight(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

// PadLeft pads s with spaces on the left to width runes.
func PadLeft(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return strings.Repeat(" ", width-n) + s
	}
	return s
}
