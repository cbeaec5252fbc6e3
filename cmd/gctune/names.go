package main

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// terminalSafe escapes, in a message that quotes its input (a reader's warning, a skipped
// row), the characters a terminal would act on: control characters (ESC starts the sequences
// that set a terminal's title and colours) and invalid UTF-8 are written as strconv.Quote
// writes them (\x1b, \a, \xff); the rest is left as it is. Names printed alone go through
// termtext.Quote instead.
func terminalSafe(s string) string {
	if utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' }) < 0 {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1, unicode.IsControl(r), r == '\u2028', r == '\u2029':
			q := strconv.Quote(s[:n])
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}
