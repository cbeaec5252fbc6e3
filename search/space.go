package search

import (
	"fmt"
	"math"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/heapsim"
)

// Names of the search dimensions, as stored in trials.
const (
	ParamNewSpace   = "new_space_bytes"
	ParamHeadroom   = "growth_headroom_bytes"
	ParamShrink     = "shrink_threshold_bytes"
	ParamRatio      = "full_gc_ratio"
	ParamProportion = "tenuring_proportion"
)

// ParamNames lists the dimensions in a fixed order.
var paramNames = [...]string{ParamNewSpace, ParamHeadroom, ParamShrink, ParamRatio, ParamProportion}

// ParamNames returns the dimensions' names in their fixed order.
func ParamNames() []string { return paramNames[:] }

// Bounds is a closed interval.
type Bounds struct {
	Low  float64 `json:"low" yaml:"low"`
	High float64 `json:"high" yaml:"high"`
}

// Space is the search space. Sizes are in bytes.
type Space struct {
	// NewSpaceBytes bounds VM parameter 45 (log scale).
	NewSpaceBytes Bounds `json:"newSpaceBytes" yaml:"newSpaceBytes"`
	// HeadroomBytes bounds VM parameter 25 (log scale).
	HeadroomBytes Bounds `json:"headroomBytes" yaml:"headroomBytes"`
	// ShrinkBytes bounds VM parameter 24 (log scale).
	ShrinkBytes Bounds `json:"shrinkBytes" yaml:"shrinkBytes"`
	// Ratio bounds VM parameter 55 (log scale).
	Ratio Bounds `json:"ratio" yaml:"ratio"`
	// Proportion bounds the tenuring proportion p of VM parameter 6 (linear); p ≥ 1 keeps all
	// survivors.
	Proportion Bounds `json:"proportion" yaml:"proportion"`
}

// DefaultSpace is the space config.yaml documents: wide enough to hold every configuration the
// papers tried and the defaults.
func DefaultSpace() Space {
	return Space{
		NewSpaceBytes: Bounds{Low: float64(4 * heapsim.MiB), High: float64(1 * heapsim.GiB)},
		HeadroomBytes: Bounds{Low: float64(1 * heapsim.MiB), High: float64(4 * heapsim.GiB)},
		ShrinkBytes:   Bounds{Low: float64(1 * heapsim.MiB), High: float64(8 * heapsim.GiB)},
		Ratio:         Bounds{Low: 0.05, High: 50},
		Proportion:    Bounds{Low: 0, High: 1.25},
	}
}

// Validate checks every bound: finite, ordered (low < high), positive on log scales, and
// inside what the VM accepts.
func (s Space) Validate() error {
	check := func(name string, b Bounds, logScale bool, lo, hi float64) error {
		switch {
		case math.IsNaN(b.Low) || math.IsNaN(b.High) || math.IsInf(b.Low, 0) || math.IsInf(b.High, 0):
			return fmt.Errorf("search: space.%s: bounds [%v, %v] must be finite", name, b.Low, b.High)
		case b.Low >= b.High:
			return fmt.Errorf("search: space.%s: low %v is not below high %v (bounds reversed or empty)", name, b.Low, b.High)
		case logScale && b.Low <= 0:
			return fmt.Errorf("search: space.%s: low %v must be positive on a log scale", name, b.Low)
		case b.Low < lo:
			return fmt.Errorf("search: space.%s: low %v is below the smallest valid value %v", name, b.Low, lo)
		case b.High > hi:
			return fmt.Errorf("search: space.%s: high %v is above the largest valid value %v", name, b.High, hi)
		}
		return nil
	}
	for _, c := range []struct {
		name   string
		b      Bounds
		log    bool
		lo, hi float64
	}{
		{"newSpace", s.NewSpaceBytes, true, 0, float64(heapsim.MaxNewSpaceBytes)},
		{"headroom", s.HeadroomBytes, true, heapsim.MaxNewSpaceObjectBytes, math.MaxFloat64},
		{"shrink", s.ShrinkBytes, true, 1, math.MaxFloat64},
		{"ratio", s.Ratio, true, 0, math.MaxFloat64},
		{"proportion", s.Proportion, false, 0, math.MaxFloat64},
	} {
		if err := check(c.name, c.b, c.log, c.lo, c.hi); err != nil {
			return err
		}
	}
	return nil
}

// Distributions returns the goptuna distribution of each dimension.
func (s Space) Distributions() map[string]interface{} {
	return map[string]interface{}{
		ParamNewSpace:   goptuna.LogUniformDistribution{Low: s.NewSpaceBytes.Low, High: s.NewSpaceBytes.High},
		ParamHeadroom:   goptuna.LogUniformDistribution{Low: s.HeadroomBytes.Low, High: s.HeadroomBytes.High},
		ParamShrink:     goptuna.LogUniformDistribution{Low: s.ShrinkBytes.Low, High: s.ShrinkBytes.High},
		ParamRatio:      goptuna.LogUniformDistribution{Low: s.Ratio.Low, High: s.Ratio.High},
		ParamProportion: goptuna.UniformDistribution{Low: s.Proportion.Low, High: s.Proportion.High},
	}
}

// Point is one configuration in the space's units.
type Point struct {
	NewSpaceBytes float64 `json:"newSpaceBytes" yaml:"newSpaceBytes"`
	HeadroomBytes float64 `json:"headroomBytes" yaml:"headroomBytes"`
	ShrinkBytes   float64 `json:"shrinkBytes" yaml:"shrinkBytes"`
	Ratio         float64 `json:"ratio" yaml:"ratio"`
	Proportion    float64 `json:"proportion" yaml:"proportion"`
}

// Internal returns the point as goptuna's internal parameter map (for EnqueueTrial).
func (p Point) Internal() map[string]float64 {
	return map[string]float64{
		ParamNewSpace: p.NewSpaceBytes, ParamHeadroom: p.HeadroomBytes, ParamShrink: p.ShrinkBytes,
		ParamRatio: p.Ratio, ParamProportion: p.Proportion,
	}
}

// Clamp moves the point inside the space.
func (s Space) Clamp(p Point) Point {
	c := func(v float64, b Bounds) float64 { return math.Min(math.Max(v, b.Low), b.High) }
	return Point{
		NewSpaceBytes: c(p.NewSpaceBytes, s.NewSpaceBytes), HeadroomBytes: c(p.HeadroomBytes, s.HeadroomBytes),
		ShrinkBytes: c(p.ShrinkBytes, s.ShrinkBytes), Ratio: c(p.Ratio, s.Ratio), Proportion: c(p.Proportion, s.Proportion),
	}
}

// Contains reports whether p lies inside the space.
func (s Space) Contains(p Point) bool { return s.Clamp(p) == p }

// PointFromParams reads a point from a goptuna parameter map (external values).
func PointFromParams(m map[string]interface{}) (Point, error) {
	get := func(name string) (float64, error) {
		v, ok := m[name]
		if !ok {
			return 0, fmt.Errorf("search: trial has no parameter %q", name)
		}
		f, ok := v.(float64)
		if !ok {
			return 0, fmt.Errorf("search: parameter %q is %T, not a number", name, v)
		}
		return f, nil
	}
	var p Point
	var err error
	for _, f := range []struct {
		name string
		dst  *float64
	}{{ParamNewSpace, &p.NewSpaceBytes}, {ParamHeadroom, &p.HeadroomBytes}, {ParamShrink, &p.ShrinkBytes}, {ParamRatio, &p.Ratio}, {ParamProportion, &p.Proportion}} {
		if *f.dst, err = get(f.name); err != nil {
			return Point{}, err
		}
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
	sig := func(x float64, digits int) float64 {
		if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
			return x
		}
		scale := math.Pow(10, float64(digits)-math.Ceil(math.Log10(math.Abs(x))))
		return math.Round(x*scale) / scale
	}
	return Point{
		NewSpaceBytes: size(p.NewSpaceBytes), HeadroomBytes: size(p.HeadroomBytes), ShrinkBytes: size(p.ShrinkBytes),
		Ratio: sig(p.Ratio, 4), Proportion: p.Proportion,
	}
}

// Params turns the point, Rounded, into simulator parameters on top of base (which carries the
// VM facts). The proportion becomes VM parameter 6 (heapsim rounds N up, so p ≥ 1 keeps all
// survivors).
func (p Point) Params(base heapsim.Params) heapsim.Params {
	r := p.Rounded()
	out := base
	out.NewSpaceBytes = uint64(r.NewSpaceBytes)
	out.GrowthHeadroomBytes = uint64(r.HeadroomBytes)
	out.ShrinkThresholdBytes = uint64(r.ShrinkBytes)
	out.FullGCRatio = r.Ratio
	out.Survivors = heapsim.Survivors{Mode: heapsim.SurvivorsProportion, Proportion: r.Proportion}
	return out
}

// DefaultPoint is the VM defaults of the published runs as a point: 16 MiB new space and
// headroom, 32 MiB shrink threshold, ratio 0.333333 and the proportion Pharo's session start
// gives for that new space.
func DefaultPoint(base heapsim.Params) Point {
	return Point{
		NewSpaceBytes: float64(base.NewSpaceBytes), HeadroomBytes: float64(base.GrowthHeadroomBytes),
		ShrinkBytes: float64(base.ShrinkThresholdBytes), Ratio: base.FullGCRatio,
		Proportion: base.TenuringProportion(),
	}
}

// suggest asks the trial for every dimension, in a fixed order.
func (s Space) suggest(t goptuna.Trial) (Point, error) {
	var p Point
	var err error
	if p.NewSpaceBytes, err = t.SuggestLogUniform(ParamNewSpace, s.NewSpaceBytes.Low, s.NewSpaceBytes.High); err != nil {
		return p, fmt.Errorf("search: suggest %s: %w", ParamNewSpace, err)
	}
	if p.HeadroomBytes, err = t.SuggestLogUniform(ParamHeadroom, s.HeadroomBytes.Low, s.HeadroomBytes.High); err != nil {
		return p, fmt.Errorf("search: suggest %s: %w", ParamHeadroom, err)
	}
	if p.ShrinkBytes, err = t.SuggestLogUniform(ParamShrink, s.ShrinkBytes.Low, s.ShrinkBytes.High); err != nil {
		return p, fmt.Errorf("search: suggest %s: %w", ParamShrink, err)
	}
	if p.Ratio, err = t.SuggestLogUniform(ParamRatio, s.Ratio.Low, s.Ratio.High); err != nil {
		return p, fmt.Errorf("search: suggest %s: %w", ParamRatio, err)
	}
	if p.Proportion, err = t.SuggestUniform(ParamProportion, s.Proportion.Low, s.Proportion.High); err != nil {
		return p, fmt.Errorf("search: suggest %s: %w", ParamProportion, err)
	}
	return p, nil
}
