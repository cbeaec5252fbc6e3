package numfmt

import (
	"math"
	"strings"
)

// The sentence forms: the page's number formats (page.go) with plain spaces, for text such as
// gctune explain's and the figures' captions.

// Plain turns the page's no-break spaces into spaces.
func Plain(s string) string { return strings.ReplaceAll(s, NBSP, " ") }

// Count formats a count with thousands separators: 12,345 (a negative count is 0).
func Count(n int) string { return Count64(uint64(max(n, 0))) }

// SecondsText formats seconds: "4,583 s", "57.6 s", "3.52 s", "458 ms".
func SecondsText(s float64) string { return Plain(Seconds(s)) }

// PercentText formats a share as a percentage: "88.1 %", "0.42 %", "25 %" (a trailing ".0"
// dropped).
func PercentText(f float64) string { return strings.Replace(Plain(Percent(f)), ".0 %", " %", 1) }

// Faster says how much faster a time (or slowdown) of v is than ref, as every speedup is
// written (Speedup): "7.96× faster", "1.07× faster", "1.02× slower", "as fast" (within 0.5 %,
// which two decimals do not show).
func Faster(ref, v float64) string {
	r := ref / v
	switch {
	case r >= 1.005:
		return Speedup(r) + " faster"
	case r <= 1/1.005:
		return Speedup(1/r) + " slower"
	}
	return "as fast"
}

// Plural formats a count with the singular or plural noun: "1 burst", "3 bursts".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Count(n) + " " + many
}

// SignedPercentText is PercentText with a sign: "+0.3 %", "−0.02 %", "0 %".
func SignedPercentText(f float64) string {
	s := PercentText(f)
	if s != "0 %" && !strings.HasPrefix(s, "−") {
		s = "+" + s
	}
	return s
}

// Ratio writes a run time over the defaults' run time with three significant digits:
// "0.963×" (the defaults are 1×).
func Ratio(v float64) string {
	if math.IsNaN(v) || v <= 0 {
		return Dash
	}
	return Sig(v, 3, false) + "×"
}

// Range writes the ends of an interval, each by unit, with the unit once: "469-540 s",
// "8.08-9.47×".
func Range(lo, hi float64, unit func(float64) string) string {
	l, h := unit(lo), unit(hi)
	for _, suffix := range []string{" s", " ms", " µs", " %", "×", NBSP + "s", NBSP + "%"} {
		if strings.HasSuffix(l, suffix) && strings.HasSuffix(h, suffix) {
			return strings.TrimSuffix(l, suffix) + "-" + h
		}
	}
	return l + "-" + h
}
