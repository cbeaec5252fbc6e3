package numfmt

import (
	"math"
	"strconv"
)

// RoundSig rounds x to digits significant decimal digits. Zero, NaN and infinities are
// returned as they are; a negative x rounds as its magnitude does.
func RoundSig(x float64, digits int) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	scale := math.Pow(10, float64(digits-1)-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*scale) / scale
}

// CompactPercent writes a fraction as a percentage with up to three significant digits and no
// space before the sign: 0.05 → "5%", 1e-6 → "0.0001%", 0.0545559 → "5.46%".
func CompactPercent(f float64) string {
	return strconv.FormatFloat(RoundSig(f*100, 3), 'f', -1, 64) + "%"
}
