package tunable

import (
	"fmt"
	"math"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/numfmt"
)

// Bounds is a closed interval.
type Bounds struct {
	Low  float64 `json:"low" yaml:"low"`
	High float64 `json:"high" yaml:"high"`
}

// DefaultSpace is the space config.yaml documents: wide enough to hold every configuration the
// papers tried and the defaults.
func DefaultSpace() Space {
	var s Space
	for _, t := range All() {
		*t.OfSpace(&s) = t.Default
	}
	return s
}

// Validate checks every bound: finite, ordered (low < high), positive on log scales, and
// inside what the VM accepts.
func (s Space) Validate() error {
	check := func(name string, b Bounds, logScale bool, lo, hi float64) error {
		switch {
		case math.IsNaN(b.Low) || math.IsNaN(b.High) || math.IsInf(b.Low, 0) || math.IsInf(b.High, 0):
			return fmt.Errorf("tunable: space.%s: bounds [%v, %v] must be finite", name, b.Low, b.High)
		case b.Low >= b.High:
			return fmt.Errorf("tunable: space.%s: low %v is not below high %v (bounds reversed or empty)", name, b.Low, b.High)
		case logScale && b.Low <= 0:
			return fmt.Errorf("tunable: space.%s: low %v must be positive on a log scale", name, b.Low)
		case b.Low < lo:
			return fmt.Errorf("tunable: space.%s: low %v is below the smallest valid value %v", name, b.Low, lo)
		case b.High > hi:
			return fmt.Errorf("tunable: space.%s: high %v is above the largest valid value %v", name, b.High, hi)
		}
		return nil
	}
	for _, t := range All() {
		if err := check(t.Key, t.Bounds(s), t.Log, t.Valid.Low, t.Valid.High); err != nil {
			return err
		}
	}
	return nil
}

// Internal returns the point as goptuna's internal parameter map (for EnqueueTrial).
func (p Point) Internal() map[string]float64 {
	out := make(map[string]float64, len(All()))
	for _, t := range All() {
		out[t.Name] = t.Get(p)
	}
	return out
}

// Clamp moves the point inside the space.
func (s Space) Clamp(p Point) Point {
	for _, t := range All() {
		b := t.Bounds(s)
		t.Set(&p, math.Min(math.Max(t.Get(p), b.Low), b.High))
	}
	return p
}

// Contains reports whether p lies inside the space.
func (s Space) Contains(p Point) bool { return s.Clamp(p) == p }

// PointFromParams reads a point from a goptuna parameter map (external values).
func PointFromParams(m map[string]interface{}) (Point, error) {
	get := func(name string) (float64, error) {
		v, ok := m[name]
		if !ok {
			return 0, fmt.Errorf("tunable: trial has no parameter %q", name)
		}
		f, ok := v.(float64)
		if !ok {
			return 0, fmt.Errorf("tunable: parameter %q is %T, not a number", name, v)
		}
		return f, nil
	}
	var p Point
	for _, t := range All() {
		v, err := get(t.Name)
		if err != nil {
			return Point{}, err
		}
		t.Set(&p, v)
	}
	return p, nil
}

// Rounded returns the point as a user would write it: sizes in whole MiB (at least 1 MiB),
// the ratio to 4 significant digits. The proportion is kept whole: VM parameter 6 is an integer
// count derived from it, and rounding p would move the defaults' N off Pharo's own value. Nothing the simulator can
// tell apart is lost (a MiB of new space moves the scavenge count by well under 1 %), and the
// configuration that is simulated is exactly the one exported.
func (p Point) Rounded() Point {
	mib := float64(heapsim.MiB)
	size := func(b float64) float64 { return math.Max(math.Round(b/mib), 1) * mib }
	for _, t := range All() {
		switch t.Unit {
		case UnitBytes:
			t.Set(&p, size(t.Get(p)))
		case UnitRatio:
			t.Set(&p, numfmt.RoundSig(t.Get(p), 4))
		}
	}
	return p
}

// Params turns the point, Rounded, into simulator parameters on top of base (which carries the
// VM facts). The proportion becomes VM parameter 6 (heapsim rounds N up, so p ≥ 1 keeps all
// survivors).
func (p Point) Params(base heapsim.Params) heapsim.Params {
	r := p.Rounded()
	out := base
	for _, t := range All() {
		t.ToParams(&out, t.Get(r))
	}
	return out
}

// DefaultPoint is the VM defaults of the published runs as a point: 16 MiB new space and
// headroom, 32 MiB shrink threshold, ratio 0.333333 and the proportion Pharo's session start
// gives for that new space.
func DefaultPoint(base heapsim.Params) Point {
	var p Point
	for _, t := range All() {
		t.Set(&p, t.FromParams(base))
	}
	return p
}
