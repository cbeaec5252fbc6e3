package termtext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote writes a name on one line with its special characters escaped (strconv.Quote's
// escapes), without the quotes when it is plain: valid UTF-8, printable, no quote, backslash
// or '#', no leading or trailing space, not empty. For YAML comments, terminals and messages.
func Quote(s string) string {
	if s != "" && utf8.ValidString(s) && strings.TrimSpace(s) == s && !strings.ContainsAny(s, "\"\\`'#") {
		plain := true
		for _, r := range s {
			if !unicode.IsPrint(r) {
				plain = false
				break
			}
		}
		if plain {
			return s
		}
	}
	return strconv.Quote(s)
}

// Safe is s with what a terminal would act on escaped as strconv.Quote escapes it (control
// characters, the line and paragraph separators, invalid UTF-8), the rest as it is: for a
// string printed inside a line, such as a file name or a study's source.
func Safe(s string) string {
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

// PadRight pads s with spaces on the right to width runes (text/tabwriter counts bytes, so a
// table with "×" or "—" in its cells is padded by hand).
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

// Shell quotes a word for a POSIX shell: unchanged when it holds only characters no shell
// treats specially, else in single quotes (a ' inside written '\”).
func Shell(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:+,=@%", r)))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
