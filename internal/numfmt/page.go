package numfmt

import (
	"math"
	"strconv"
	"strings"

	"github.com/gctune/gctune/internal/units"
)

// The report page's number formats: a number and its unit joined by a no-break space, a real
// minus sign, "—" for a number that is not one. text.go has their sentence forms.

// NBSP joins a number and its unit so that lines do not break between them.
const NBSP = "\u00a0"

// Dash stands for a number that is not known (NaN).
const Dash = "—"

// Fixed writes x with the given decimals and thousands separators ("4,583", "12.35"), a minus
// sign for negatives, never "-0".
func Fixed(x float64, decimals int) string {
	if math.IsNaN(x) {
		return Dash
	}
	if math.IsInf(x, 0) {
		if x < 0 {
			return "−∞"
		}
		return "∞"
	}
	s := strconv.FormatFloat(x, 'f', max(decimals, 0), 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	ip, fp, hasFrac := strings.Cut(s, ".")
	out := units.GroupDigits(ip)
	if hasFrac {
		out += "." + fp
	}
	if neg && strings.Trim(s, "0.") != "" {
		out = "−" + out
	}
	return out
}

// Sig writes x with n significant digits (all the digits of its integer part), trailing
// zeros removed when trim: Sig(0.333333, 4, true) = "0.3333", Sig(10, 4, true) = "10".
func Sig(x float64, n int, trim bool) string {
	if x == 0 {
		return "0"
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return Fixed(x, 0)
	}
	r := RoundSig(x, n)
	decimals := n - 1 - int(math.Floor(math.Log10(math.Abs(r))))
	if decimals <= 0 {
		return Fixed(x, 0) // whole numbers keep all their digits
	}
	s := Fixed(r, decimals)
	if trim && strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Count64 formats a count with thousands separators: 1,234,567.
func Count64(n uint64) string { return units.FormatCount(n) }

// Seconds writes a time for people: "4,583 s", "45.8 s", "4.58 s", "458 ms", "12.5 µs".
func Seconds(s float64) string {
	if math.IsNaN(s) {
		return Dash
	}
	a := math.Abs(s)
	switch {
	case a == 0:
		return "0" + NBSP + "s"
	case math.IsInf(s, 0):
		return Fixed(s, 0) + NBSP + "s"
	case a >= 99.95:
		return Fixed(s, 0) + NBSP + "s"
	case a >= 9.995:
		return Fixed(s, 1) + NBSP + "s"
	case a >= 0.9995:
		return Fixed(s, 2) + NBSP + "s"
	case a >= 0.0009995:
		return Sig(s*1e3, 3, false) + NBSP + "ms"
	}
	return Sig(s*1e6, 3, false) + NBSP + "µs"
}

// Percent writes a fraction as a percentage: "12.3 %", "0.06 %", "1,250 %". Just under
// 100 % it keeps two decimals, so that it never reads as 100 % ("99.9 %", "99.95 %").
func Percent(f float64) string {
	if math.IsNaN(f) {
		return Dash
	}
	v := f * 100
	a := math.Abs(v)
	switch {
	case a == 0:
		return "0" + NBSP + "%"
	case a >= 100 || math.IsInf(v, 0):
		return Fixed(v, 0) + NBSP + "%"
	case a >= 99.5:
		return strings.TrimRight(Fixed(math.Min(v, 99.99), 2), "0") + NBSP + "%"
	case a >= 0.995:
		return Fixed(v, 1) + NBSP + "%"
	}
	return Sig(v, 2, true) + NBSP + "%"
}

// Speedup writes a speedup factor: "7.96×", "12.5×", "123×".
func Speedup(x float64) string {
	switch {
	case math.IsNaN(x) || x <= 0:
		return Dash
	case math.IsInf(x, 0) || x >= 99.95:
		return Fixed(x, 0) + "×"
	case x >= 9.995:
		return Fixed(x, 1) + "×"
	}
	return Fixed(x, 2) + "×"
}
