package export

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gctune/gctune/internal/units"
)

// MiB writes a byte count in MiB, exactly: whole MiB with digit groups ("2,089 MiB"), else
// with as many decimals as it takes, up to 6 ("139.9375 MiB"), and the bytes when that is not
// exact ("0.50 MiB (524,289 bytes)").
func MiB(n uint64) string {
	const mib = 1 << 20
	whole, frac := n/mib, n%mib
	if frac == 0 {
		return units.FormatCount(whole) + " MiB"
	}
	scale := uint64(1)
	for d := 1; d <= 6; d++ {
		scale *= 10
		if frac*scale%mib == 0 {
			return fmt.Sprintf("%s.%0*d MiB", units.FormatCount(whole), d, frac*scale/mib)
		}
	}
	f := strconv.FormatFloat(float64(n)/mib, 'f', 2, 64)
	i := strings.IndexByte(f, '.')
	w, _ := strconv.ParseUint(f[:i], 10, 64)
	return units.FormatCount(w) + f[i:] + " MiB (" + units.FormatCount(n) + " bytes)"
}

// StComment escapes text for inside a Smalltalk comment: a comment ends at the first '"', and
// '""' stands for one, so every '"' is doubled. Nothing else ends a comment.
func StComment(s string) string { return strings.ReplaceAll(s, `"`, `""`) }

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

// ShellQuote quotes a word for a POSIX shell: unchanged when it holds only characters no
// shell treats specially, else in single quotes (a ' inside written '\”).
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:+,=@%", r)))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// EdenFlag writes a size for the VM's --edenSize= flag, which takes k/m/g suffixes (binary).
func EdenFlag(n uint64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%dm", n>>20)
	}
	return strconv.FormatUint(n, 10)
}

// SmalltalkFloat writes a float as a Smalltalk literal (always with a decimal point).
func SmalltalkFloat(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
