package report

import "strings"

// The text of gctune explain uses the HTML page's number formats, with plain spaces.

// plain turns the page's no-break spaces into spaces.
func plain(s string) string { return strings.ReplaceAll(s, htmlNBSP, " ") }

// count formats a count with thousands separators: 12,345.
func count(n int) string { return htmlCount(uint64(max(n, 0))) }

func count64(n uint64) string { return htmlCount(n) }

// secs formats seconds: "4,583 s", "57.6 s", "3.52 s", "458 ms".
func secs(s float64) string { return plain(htmlSeconds(s)) }

// pct formats a share as a percentage: "88.1 %", "0.42 %", "25 %" (a trailing ".0" dropped).
func pct(f float64) string { return strings.Replace(plain(htmlPercent(f)), ".0 %", " %", 1) }

// times formats a ratio: "7.96×".
func times(r float64) string { return htmlSpeedup(r) }

// faster says how much faster a time (or slowdown) of v is than ref: "7.96× faster",
// "1.1 % faster", "0.5 % slower", "as fast".
func faster(ref, v float64) string {
	r := ref / v
	switch {
	case r >= 1.1:
		return times(r) + " faster"
	case r >= 1.0005:
		return pct(r-1) + " faster"
	case r <= 1/1.1:
		return times(1/r) + " slower"
	case r <= 0.9995:
		return pct(1/r-1) + " slower"
	}
	return "as fast"
}

// plural formats a count with the singular or plural noun: "1 burst", "3 bursts".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return count(n) + " " + many
}

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
