package trialstore

import (
	"regexp"
	"strings"
	"unicode"
)

// embeddedUserInfo matches the user info of a URL anywhere in a text: a scheme, its colon and
// slashes, a user and ":password@". The password runs to the last '@' before white space or a
// quote.
var embeddedUserInfo = regexp.MustCompile(`(?i)([a-z][a-z0-9+.-]*:/{0,2}[^\s/:@'"]*:)[^\s'"]*@`)

// RedactText masks the password of every URL user info in s ("scheme://user:PASSWORD@"), wherever
// it stands: in an error that echoes an input, in a line that quotes a value. It is the net
// under RedactURL, for text that is not one URL (main applies it to every error line).
func RedactText(s string) string {
	return embeddedUserInfo.ReplaceAllString(s, "${1}"+redactedPassword+"@")
}

// isSpaceOrControl reports whether r is white space or a control character: what may stand
// before a URL typed or pasted into a flag (" postgres://...").
func isSpaceOrControl(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }

// urlStart returns where the URL in rawURL starts: after leading white space or control
// characters when a scheme follows them, else at the scheme before the first "://"; -1 when
// there is no URL.
func urlStart(rawURL string) int {
	trimmed := strings.TrimLeftFunc(rawURL, isSpaceOrControl)
	if urlScheme.MatchString(trimmed) {
		return len(rawURL) - len(trimmed)
	}
	i := strings.Index(rawURL, "://")
	j := i
	for j > 0 && isSchemeByte(rawURL[j-1]) {
		j--
	}
	if i > 0 && urlScheme.MatchString(rawURL[j:]) {
		return j
	}
	return -1
}

// isSchemeByte reports whether b may be in a URL scheme.
func isSchemeByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '+' || b == '-' || b == '.'
}
