package report

import (
	"fmt"
	"math"

	"github.com/gctune/gctune/internal/plotkit"
)

// figEffect writes a sweep's effect (a fraction) as a signed percentage: "+35%".
func figEffect(e float64) string {
	if !plotkit.Finite(e) {
		return "n/a"
	}
	pct := e * 100
	if math.Abs(pct) >= 10 {
		return fmt.Sprintf("%+.0f%%", pct)
	}
	return fmt.Sprintf("%+.1f%%", pct)
}
