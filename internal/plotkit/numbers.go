package plotkit

import (
	"math"
	"strconv"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/units"
)

// Unit is a binary unit of size: Div bytes, named Name ("MiB").
type Unit struct {
	Div  float64
	Name string
}

// ChooseUnit picks the binary unit in which b reads best: GiB from 1 GiB up, then MiB, KiB.
func ChooseUnit(b float64) Unit {
	switch {
	case b >= float64(units.GiB):
		return Unit{float64(units.GiB), "GiB"}
	case b >= float64(units.MiB):
		return Unit{float64(units.MiB), "MiB"}
	case b >= 1024:
		return Unit{1024, "KiB"}
	}
	return Unit{1, "bytes"}
}

// Bytes writes a size with a binary unit and up to three significant digits: "860 MiB".
func Bytes(b float64) string {
	u := ChooseUnit(b)
	return Num(b/u.Div) + " " + u.Name
}

// Num writes x with up to four significant digits and no exponent for everyday magnitudes.
func Num(x float64) string {
	if !Finite(x) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	r := numfmt.RoundSig(x, 4)
	if a := math.Abs(r); a != 0 && (a < 1e-4 || a >= 1e7) {
		return strconv.FormatFloat(r, 'g', -1, 64)
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// SI writes x with a k or M suffix: 4800000 → "4.8M".
func SI(x float64) string {
	a := math.Abs(x)
	switch {
	case a >= 1e9:
		return Num(x/1e9) + "G"
	case a >= 1e6:
		return Num(x/1e6) + "M"
	case a >= 1e3:
		return Num(x/1e3) + "k"
	}
	return Num(x)
}

// Finite reports whether x is neither NaN nor infinite.
func Finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// UseLog reports whether values (finite ones) call for a log axis: all positive and spanning
// more than LogRatio.
func UseLog(values []float64) bool { return UseLogRatio(values, LogRatio) }

// UseLogRatio reports whether positive values spanning more than ratio want a log axis.
func UseLogRatio(values []float64, ratio float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if !Finite(v) {
			continue
		}
		if v <= 0 {
			return false
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return hi > 0 && lo > 0 && hi/lo > ratio
}

// UseLogPositive is UseLog over the positive values only (zeros are left off a log axis).
func UseLogPositive(values []float64) bool {
	var pos []float64
	for _, v := range values {
		if v > 0 {
			pos = append(pos, v)
		}
	}
	return UseLog(pos)
}
