package trialstore

import (
	"net/url"
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

// redactedPassword replaces passwords in RedactURL's output.
const redactedPassword = "xxxxx"

// keywordPassword matches password=... (and sslpassword=...) in a libpq keyword/value string,
// quoted or not.
var keywordPassword = regexp.MustCompile(`(?i)((?:^|\s)(?:ssl)?password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`)

// urlScheme matches a URL's scheme and its colon ("postgres:", "sqlite:").
var urlScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// isPostgresScheme reports whether s starts with postgres: or postgresql: (any case), with or
// without the slashes.
func isPostgresScheme(s string) bool {
	lower := strings.ToLower(s)
	return strings.HasPrefix(lower, "postgres:") || strings.HasPrefix(lower, "postgresql:")
}

// passwordSpan returns where the password of a URL's user info lies in rawURL, found by
// position alone, without parsing (a password that is not percent-encoded makes the URL
// unparseable, and then a parser's error would quote it). The user info runs from after
// "scheme:" and its slashes (none, one or two: "postgres:/u:pw@h" is masked too) to the last
// '@', the password from its first ':'. A password holding '/', '?', '#' or '@' is thus masked
// whole; an '@' later in the URL (in a query) makes the mask longer, never shorter.
//
// A PostgreSQL URL without '@' ("postgres://u:pw", "postgres:u:pw") has no user info, but
// what follows the host's ':' is a password when it is not a port: then everything from that
// ':' to the end of the URL is the span.
func passwordSpan(rawURL string) (start, end int, ok bool) {
	scheme := urlScheme.FindString(rawURL)
	if scheme == "" {
		return 0, 0, false
	}
	rest := len(scheme)
	for rest < len(rawURL) && rawURL[rest] == '/' {
		rest++
	}
	if at := strings.LastIndex(rawURL[rest:], "@"); at >= 0 {
		colon := strings.Index(rawURL[rest:rest+at], ":")
		if colon < 0 {
			return 0, 0, false
		}
		return rest + colon + 1, rest + at, true
	}
	if !isPostgresScheme(rawURL) {
		return 0, 0, false
	}
	authority := rawURL[rest:]
	if i := strings.IndexAny(authority, "/?#"); i >= 0 {
		authority = authority[:i]
	}
	hostEnd := 0
	if strings.HasPrefix(authority, "[") { // [::1]:5432
		if i := strings.Index(authority, "]"); i >= 0 {
			hostEnd = i + 1
		}
	}
	colon := strings.Index(authority[hostEnd:], ":")
	if colon < 0 {
		return 0, 0, false
	}
	port := authority[hostEnd+colon+1:]
	if strings.Trim(port, "0123456789") == "" {
		return 0, 0, false
	}
	return rest + hostEnd + colon + 1, len(rawURL), true
}

// querySecretKey reports whether a URL query key (as written, percent-encoded or not) may
// name a password: one that decodes to a key holding "pass" (password, sslpassword, and
// "pass%77ord", which the driver decodes to password), or one that does not decode.
func querySecretKey(key string) bool {
	decoded, err := url.QueryUnescape(key)
	return err != nil || strings.Contains(strings.ToLower(decoded), "pass")
}

// redactQuery masks the values of rawURL's query parameters that may hold a password
// (querySecretKey). A value runs from its '=' to the next '&' or the end of the URL, so a
// value with a space, '#' or '?' is masked whole. The query starts at the first '?' after
// from.
func redactQuery(rawURL string, from int) string {
	q := strings.Index(rawURL[from:], "?")
	if q < 0 {
		return rawURL
	}
	q += from + 1
	params := strings.Split(rawURL[q:], "&")
	for i, p := range params {
		if k, _, ok := strings.Cut(p, "="); ok && querySecretKey(k) {
			params[i] = k + "=" + redactedPassword
		}
	}
	return rawURL[:q] + strings.Join(params, "&")
}

// RedactURL returns rawURL with any password replaced by "xxxxx", found by position: the
// user-info password of a URL (passwordSpan, also for "postgres:/u:pw@h" and "postgres://u:pw"),
// the value of a query parameter whose key names a password (password, sslpassword, a key
// that percent-decodes to one, or a key that does not decode), or password=... in a libpq
// keyword/value string. Other strings, such as SQLite paths, come back unchanged. Use it
// wherever a storage URL is printed, logged or stored.
//
// Leading white space is kept as it is and the URL after it masked (" postgres://u:pw@h" is
// masked as "postgres://u:pw@h" is), and so is anything before a "scheme://" (urlStart); any
// URL user info elsewhere is masked by RedactText.
func RedactURL(rawURL string) string {
	if at := urlStart(rawURL); at >= 0 {
		lead, trimmed := rawURL[:at], rawURL[at:]
		out, from := trimmed, 0
		if start, end, ok := passwordSpan(trimmed); ok {
			out = trimmed[:start] + redactedPassword + trimmed[end:]
			from = start + len(redactedPassword)
		}
		return lead + redactQuery(out, from)
	}
	return RedactText(keywordPassword.ReplaceAllString(rawURL, "${1}"+redactedPassword))
}

// urlSecrets returns the passwords rawURL holds as written and percent-decoded: what
// RedactURL masks.
func urlSecrets(rawURL string) []string {
	var out []string
	add := func(s string) {
		if s == "" {
			return
		}
		out = append(out, s)
		if d, err := url.QueryUnescape(s); err == nil && d != s && d != "" {
			out = append(out, d)
		}
	}
	from := 0
	if start, end, ok := passwordSpan(rawURL); ok {
		add(rawURL[start:end])
		from = end
	}
	if q := strings.Index(rawURL[from:], "?"); q >= 0 {
		for _, p := range strings.Split(rawURL[from+q+1:], "&") {
			if k, v, ok := strings.Cut(p, "="); ok && querySecretKey(k) {
				add(v)
			}
		}
	}
	return out
}
