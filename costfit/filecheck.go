package costfit

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/gctune/gctune/heapsim"
)

// MaxCostFactor bounds a cost file's coefficients: each at most this many times the built-in
// model's (heapsim.DefaultCost), and each scale at most this. A calibrated model differs from
// the built-in one by a factor of a few; a coefficient a million times larger is no machine's,
// and one of 1e308 turns every simulated time into +Inf.
const MaxCostFactor = 1e6

// maxZeroDefault bounds a coefficient whose built-in value is 0: at most a second per unit.
const maxZeroDefault = 1.0

// checkRanges checks what Cost does not: every coefficient at most MaxCostFactor times the
// built-in one, and every number of the file's provenance (scales, the measured run) finite and
// in range. A file that holds NaN or Inf anywhere is no cost file gctune wrote.
func (f *File) checkRanges(c heapsim.Cost) error {
	def := reflect.ValueOf(heapsim.DefaultCost())
	v := reflect.ValueOf(c)
	t := v.Type()
	for i := range v.NumField() {
		x, d := v.Field(i).Float(), def.Field(i).Float()
		limit := MaxCostFactor * d
		if d == 0 {
			limit = maxZeroDefault
		}
		if x > limit {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			return fmt.Errorf("coefficient %s = %g is out of range: want 0 to %g (%g times the built-in %g)", name, x, limit, MaxCostFactor, d)
		}
	}
	if s := f.Scales; s != nil {
		for _, sc := range []struct {
			key string
			v   float64
		}{{"mutator", s.Mutator}, {"scavenge", s.Scavenge}, {"fullGC", s.FullGC}} {
			if math.IsNaN(sc.v) || sc.v < 0 || sc.v > MaxCostFactor {
				return fmt.Errorf("scales: %s = %v is out of range: want 0 to %g", sc.key, sc.v, MaxCostFactor)
			}
		}
	}
	if m := f.Measured; m != nil {
		if err := m.Validate(); err != nil {
			return fmt.Errorf("measured: %w", err)
		}
	}
	return nil
}
