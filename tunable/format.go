package tunable

import (
	"math"
	"strconv"

	"github.com/gctune/gctune/internal/units"
)

// Format writes a value of t for people, the one form every output uses: sizes in binary
// units ("141 MiB", "2.2 GiB"), the survivors to keep as p ("p = 0.861", "p = 1: all
// survivors"), a ratio with up to four significant digits ("22.4", "12.19", "0.3333").
func (t Tunable) Format(v float64) string {
	switch t.Unit {
	case UnitBytes:
		return units.FormatBytes(uint64(math.Round(max(v, 0))))
	case UnitProportion:
		if v >= 1 {
			return "p = " + strconv.FormatFloat(v, 'g', 3, 64) + ": all survivors"
		}
		return "p = " + strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// FormatNamed is Format for the tunable named name; a name that is none is written as a
// number.
func FormatNamed(name string, v float64) string {
	t, ok := Named(name)
	if !ok {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	return t.Format(v)
}
