package trialstore

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrBadName is matched (errors.Is) by the errors of ValidateName.
var ErrBadName = errors.New("trialstore: bad study name")

// MaxNameBytes bounds a study name: it is printed on one line and stored in an indexed column.
const MaxNameBytes = 512

// ValidateName checks a new study's name: valid UTF-8, not blank, on one line, with no control
// or format character (a newline, a tab, an escape, U+2028, a bidirectional override...) and
// at most MaxNameBytes long. Such characters would let a name reshape what prints it (a
// terminal, a script comment, a YAML comment). Existing studies are not checked: a name that
// is already stored is printed escaped instead.
func ValidateName(name string) error {
	bad := func(why string) error {
		return fmt.Errorf("%w %s: %s", ErrBadName, strconv.Quote(name), why)
	}
	switch {
	case !utf8.ValidString(name):
		return bad("not valid UTF-8")
	case strings.TrimSpace(name) == "":
		return bad("blank")
	case len(name) > MaxNameBytes:
		return bad(fmt.Sprintf("longer than %d bytes", MaxNameBytes))
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
			return bad(fmt.Sprintf("holds the control character %U", r))
		}
	}
	return nil
}
