package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// count formats a count with thousands separators: 12,345.
func count(n int) string { return count64(uint64(max(n, 0))) }

func count64(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// secs formats seconds with three significant digits, and thousands separators above 1,000:
// "4,583 s", "57.6 s", "0.352 s", "0 s".
func secs(s float64) string {
	switch {
	case math.IsNaN(s) || math.IsInf(s, 0):
		return fmt.Sprint(s)
	case s == 0:
		return "0 s"
	case math.Abs(s) >= 999.5:
		return count64(uint64(math.Round(math.Abs(s)))) + " s"
	case math.Abs(s) < 0.00995:
		return strconv.FormatFloat(1000*s, 'g', 2, 64) + " ms"
	}
	return strconv.FormatFloat(s, 'g', 3, 64) + " s"
}

// pct formats a share as a percentage with at most three significant digits: "88.1 %", "0.42 %".
func pct(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "– %"
	}
	p := 100 * f
	switch {
	case p == 0:
		return "0 %"
	case math.Abs(p) < 0.1:
		return "< 0.1 %"
	case p == math.Trunc(p):
		return strconv.FormatFloat(p, 'f', 0, 64) + " %"
	case math.Abs(p) >= 99.95:
		return strconv.FormatFloat(p, 'f', 0, 64) + " %"
	case math.Abs(p) >= 9.995:
		return strconv.FormatFloat(p, 'f', 1, 64) + " %"
	}
	return strconv.FormatFloat(p, 'g', 2, 64) + " %"
}

// times formats a ratio: "7.96×".
func times(r float64) string {
	if r >= 100 {
		return strconv.FormatFloat(r, 'f', 0, 64) + "×"
	}
	return strconv.FormatFloat(r, 'g', 3, 64) + "×"
}

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
