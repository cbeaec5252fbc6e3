package suggest

import (
	"slices"
	"strings"
)

// DidYouMean is " (did you mean a or b?)" for the suggestions, quoted with quote when it is
// not nil, or "" when there are none.
func DidYouMean(suggestions []string, quote func(string) string) string {
	if len(suggestions) == 0 {
		return ""
	}
	q := slices.Clone(suggestions)
	if quote != nil {
		for i, s := range q {
			q[i] = quote(s)
		}
	}
	return " (did you mean " + strings.Join(q, " or ") + "?)"
}
