package report

import "strings"

// lowerFirst puts a label in the middle of a sentence: its first letter in lower case, unless
// it opens an acronym ("GC ratio" stays as it is).
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	if len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z' {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// upperFirst capitalises s's first letter (ASCII): a colour word opening a sentence.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
