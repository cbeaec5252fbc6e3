// Package quote writes names for messages and for a shell: a study's or a workload's name as
// a message states it (Name) and as a command line a user may paste takes it (Shell). export
// (Quote, ShellQuote), the study layer's texts and the command line all quote through it.
package quote

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Name writes a name on one line with its special characters escaped (strconv.Quote's
// escapes), without the quotes when it is plain: valid UTF-8, printable, no quote, backslash
// or '#', no leading or trailing space, not empty. For YAML comments, terminals and messages.
func Name(s string) string {
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
