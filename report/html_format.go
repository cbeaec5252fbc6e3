package report

import (
	"math"
	"strings"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/tunable"
)

// ---- numbers ---------------------------------------------------------------------------------

// The numbers themselves are internal/numfmt's (numfmt.Seconds, ...), shared with gctune
// explain's text.

func htmlBytes(n uint64) string { return strings.ReplaceAll(units.FormatBytes(n), " ", numfmt.NBSP) }

// htmlSignedPercent is numfmt.Percent with a sign: "+12.3 %", "−4.0 %".
func htmlSignedPercent(f float64) string {
	s := numfmt.Percent(f)
	if f > 0 && !math.IsNaN(f) && !strings.HasPrefix(s, "0"+numfmt.NBSP) {
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
		return numfmt.Dash
	}
	return htmlSignedPercent(b/a - 1)
}

// htmlValue writes an objective value: seconds, or a slowdown with 4 significant digits.
func htmlValue(v float64, seconds bool) string {
	if seconds {
		return numfmt.Seconds(v)
	}
	return numfmt.Sig(v, 4, false)
}

// htmlParam writes a parameter's value: a size, the ratio with 4 significant digits, the
// tenuring proportion with 3 ("keep all" from 1 on).
func htmlParam(param string, isBytes bool, v float64) string {
	t, known := tunable.Named(param)
	switch {
	case math.IsNaN(v):
		return numfmt.Dash
	case isBytes || known && t.IsBytes():
		if v < 0 || math.IsInf(v, 0) {
			return numfmt.Fixed(v, 0)
		}
		return htmlBytes(uint64(math.Round(v)))
	case known && t.Unit == tunable.UnitProportion:
		if v >= 1 {
			return "keep all (p" + numfmt.NBSP + "=" + numfmt.NBSP + numfmt.Sig(v, 3, true) + ")"
		}
		return numfmt.Sig(v, 3, true)
	}
	return numfmt.Sig(v, 4, true)
}

// htmlRatio is a/b, NaN when b is 0.
func htmlRatio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}
