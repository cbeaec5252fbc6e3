package report

import (
	"math"
	"strconv"
	"strings"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/tunable"
)

// ---- numbers ---------------------------------------------------------------------------------

// htmlNBSP joins a number and its unit so that lines do not break between them.
const htmlNBSP = "\u00a0"

const htmlDash = "—"

// htmlFixed writes x with the given decimals and thousands separators ("4,583", "12.35"), a minus
// sign for negatives, never "-0".
func htmlFixed(x float64, decimals int) string {
	if math.IsNaN(x) {
		return htmlDash
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

// htmlSig writes x with n significant digits (all the digits of its integer part), trailing
// zeros removed when trim: htmlSig(0.333333, 4, true) = "0.3333", htmlSig(10, 4, true) = "10".
func htmlSig(x float64, n int, trim bool) string {
	if x == 0 {
		return "0"
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return htmlFixed(x, 0)
	}
	r := numfmt.RoundSig(x, n)
	decimals := n - 1 - int(math.Floor(math.Log10(math.Abs(r))))
	if decimals <= 0 {
		return htmlFixed(x, 0) // whole numbers keep all their digits
	}
	s := htmlFixed(r, decimals)
	if trim && strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func htmlCount(n uint64) string { return units.FormatCount(n) }

func htmlBytes(n uint64) string { return strings.ReplaceAll(units.FormatBytes(n), " ", htmlNBSP) }

// htmlSeconds writes a time for people: "4,583 s", "45.8 s", "4.58 s", "458 ms", "12.5 µs".
func htmlSeconds(s float64) string {
	if math.IsNaN(s) {
		return htmlDash
	}
	a := math.Abs(s)
	switch {
	case a == 0:
		return "0" + htmlNBSP + "s"
	case math.IsInf(s, 0):
		return htmlFixed(s, 0) + htmlNBSP + "s"
	case a >= 99.95:
		return htmlFixed(s, 0) + htmlNBSP + "s"
	case a >= 9.995:
		return htmlFixed(s, 1) + htmlNBSP + "s"
	case a >= 0.9995:
		return htmlFixed(s, 2) + htmlNBSP + "s"
	case a >= 0.0009995:
		return htmlSig(s*1e3, 3, false) + htmlNBSP + "ms"
	}
	return htmlSig(s*1e6, 3, false) + htmlNBSP + "µs"
}

// htmlPercent writes a fraction as a percentage: "12.3 %", "0.06 %", "1,250 %".
func htmlPercent(f float64) string {
	if math.IsNaN(f) {
		return htmlDash
	}
	v := f * 100
	a := math.Abs(v)
	switch {
	case a == 0:
		return "0" + htmlNBSP + "%"
	case a >= 99.95 || math.IsInf(v, 0):
		return htmlFixed(v, 0) + htmlNBSP + "%"
	case a >= 0.995:
		return htmlFixed(v, 1) + htmlNBSP + "%"
	}
	return htmlSig(v, 2, true) + htmlNBSP + "%"
}

// htmlSignedPercent is htmlPercent with a sign: "+12.3 %", "−4.0 %".
func htmlSignedPercent(f float64) string {
	s := htmlPercent(f)
	if f > 0 && !math.IsNaN(f) && !strings.HasPrefix(s, "0"+htmlNBSP) {
		return "+" + s
	}
	return s
}

// htmlChangeText is the relative change from a to b as a signed percentage; "—" when a is 0.
func htmlChangeText(a, b float64) string {
	if a == b {
		return "="
	}
	if a == 0 || math.IsNaN(a) || math.IsNaN(b) {
		return htmlDash
	}
	return htmlSignedPercent(b/a - 1)
}

// htmlSpeedup writes a speedup factor: "7.96×", "12.5×", "123×".
func htmlSpeedup(x float64) string {
	switch {
	case math.IsNaN(x) || x <= 0:
		return htmlDash
	case math.IsInf(x, 0) || x >= 99.95:
		return htmlFixed(x, 0) + "×"
	case x >= 9.995:
		return htmlFixed(x, 1) + "×"
	}
	return htmlFixed(x, 2) + "×"
}

// htmlValue writes an objective value: seconds, or a slowdown with 4 significant digits.
func htmlValue(v float64, seconds bool) string {
	if seconds {
		return htmlSeconds(v)
	}
	return htmlSig(v, 4, false)
}

// htmlParam writes a parameter's value: a size, the ratio with 4 significant digits, the
// tenuring proportion with 3 ("keep all" from 1 on).
func htmlParam(param string, isBytes bool, v float64) string {
	t, known := tunable.Named(param)
	switch {
	case math.IsNaN(v):
		return htmlDash
	case isBytes || known && t.IsBytes():
		if v < 0 || math.IsInf(v, 0) {
			return htmlFixed(v, 0)
		}
		return htmlBytes(uint64(math.Round(v)))
	case known && t.Unit == tunable.UnitProportion:
		if v >= 1 {
			return "keep all (p" + htmlNBSP + "=" + htmlNBSP + htmlSig(v, 3, true) + ")"
		}
		return htmlSig(v, 3, true)
	}
	return htmlSig(v, 4, true)
}

// htmlRatio is a/b, NaN when b is 0.
func htmlRatio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}
