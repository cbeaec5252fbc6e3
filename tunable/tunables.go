package tunable

import (
	"math"
	"strings"

	"github.com/gctune/gctune/heapsim"
)

// This file is the one description of the five tunables. Every list of them in gctune (the
// search dimensions, their bounds, the report's tables and sweeps, the configuration keys, the
// exported VM parameters) is derived from All. A sixth tunable is one more row here, one
// more field in Point and Space below, and its rule in heapsim.

// Unit is how a tunable's value is measured and printed.
type Unit int

const (
	// UnitBytes is a size in bytes.
	UnitBytes Unit = iota
	// UnitRatio is a plain number (a growth ratio).
	UnitRatio
	// UnitProportion is a fraction of a space (1 = all of it).
	UnitProportion
)

// Tunable describes one GC parameter the search varies.
type Tunable struct {
	// Name is the search dimension's name, as stored in trials ("new_space_bytes").
	Name string
	// Key is the short key of configuration and flags: search.space.<Key>_min and _max.
	Key string
	// Label names it for people ("new space (eden) size").
	Label string
	// VMParam is the Pharo VM parameter number (Smalltalk vm parameterAt: VMParam).
	VMParam int
	// Unit is the value's unit.
	Unit Unit
	// Log is true when the search samples it on a log scale.
	Log bool
	// Default is the search range gctune uses unless configured otherwise: wide enough to hold
	// every configuration the papers tried and the defaults.
	Default Bounds
	// Valid is what the VM accepts (or what a valid Params needs); a configured range must lie
	// inside it.
	Valid Bounds
	// JSONKey is its name in the json export's "parameters" object ("edenBytes").
	JSONKey string
	// AtLaunch is true for the one tunable set by a launch flag (--edenSize=) rather than by a
	// Smalltalk vm parameterAt:put: statement; LaunchFlag is that flag, up to its value
	// ("--edenSize="), and "" for the others.
	AtLaunch   bool
	LaunchFlag string
	// TakesEffect says when a change to the VM parameter takes effect, and Persists what is
	// kept of it across launches and saves, for people (the export's comments, the report).
	TakesEffect, Persists string
	// OfPoint and OfSpace address the tunable's field in a Point and in a Space.
	OfPoint func(*Point) *float64
	OfSpace func(*Space) *Bounds
	// FromParams reads the tunable from simulator parameters; ToParams writes a (rounded) value
	// into them.
	FromParams func(heapsim.Params) float64
	ToParams   func(*heapsim.Params, float64)
	// VMValue is what the VM parameter is set to for p, in the VM's own unit and type (bytes as
	// uint64, the ratio as float64, survivors to keep as a count of 64-byte units).
	VMValue func(heapsim.Params) any
	// Reset puts base's own value back into p: the VM default itself, not its rounded point
	// (the ratio 0.333333; Pharo's own survivors formula rather than a proportion).
	Reset func(p *heapsim.Params, base heapsim.Params)
}

// Point is one configuration in the tunables' units (sizes in bytes). Its fields follow
// All; read and write them generically with Get and Set.
type Point struct {
	NewSpaceBytes float64 `json:"newSpaceBytes" yaml:"newSpaceBytes"`
	HeadroomBytes float64 `json:"headroomBytes" yaml:"headroomBytes"`
	ShrinkBytes   float64 `json:"shrinkBytes" yaml:"shrinkBytes"`
	Ratio         float64 `json:"ratio" yaml:"ratio"`
	Proportion    float64 `json:"proportion" yaml:"proportion"`
}

// Space is the search space: one closed interval per tunable (sizes in bytes).
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

// Names of the search dimensions, as stored in trials (Tunable.Name).
const (
	ParamNewSpace   = "new_space_bytes"
	ParamHeadroom   = "growth_headroom_bytes"
	ParamShrink     = "shrink_threshold_bytes"
	ParamRatio      = "full_gc_ratio"
	ParamProportion = "tenuring_proportion"
)

// All returns the table of the five tunables, in their fixed order (the order of
// Names, of every report table and of the exported script). The slice is new at each call.
func All() []Tunable {
	mib := float64(heapsim.MiB)
	gib := float64(heapsim.GiB)
	return []Tunable{
		paramsField(Tunable{
			Name: ParamNewSpace, Key: "eden", Label: "new space (eden) size", VMParam: 45,
			Unit: UnitBytes, Log: true, JSONKey: "edenBytes",
			Default:     Bounds{Low: 4 * mib, High: 1 * gib},
			Valid:       Bounds{Low: 0, High: float64(heapsim.MaxNewSpaceBytes)},
			AtLaunch:    true,
			LaunchFlag:  "--edenSize=",
			TakesEffect: "at the next launch only: new space is sized when the VM starts",
			Persists:    "--edenSize= holds for one launch; parameter 45 is saved in the image header when the image is saved",
			OfPoint:     func(p *Point) *float64 { return &p.NewSpaceBytes },
			OfSpace:     func(s *Space) *Bounds { return &s.NewSpaceBytes },
		}, func(p *heapsim.Params) *uint64 { return &p.NewSpaceBytes }),
		paramsField(Tunable{
			Name: ParamHeadroom, Key: "headroom", Label: "growth headroom", VMParam: 25,
			Unit: UnitBytes, Log: true, JSONKey: "headroomBytes",
			Default:     Bounds{Low: 1 * mib, High: 4 * gib},
			Valid:       Bounds{Low: heapsim.MaxNewSpaceObjectBytes, High: math.MaxFloat64},
			TakesEffect: "at once",
			Persists:    "not saved: set it at every start",
			OfPoint:     func(p *Point) *float64 { return &p.HeadroomBytes },
			OfSpace:     func(s *Space) *Bounds { return &s.HeadroomBytes },
		}, func(p *heapsim.Params) *uint64 { return &p.GrowthHeadroomBytes }),
		paramsField(Tunable{
			Name: ParamShrink, Key: "shrink", Label: "shrink threshold", VMParam: 24,
			Unit: UnitBytes, Log: true, JSONKey: "shrinkBytes",
			Default:     Bounds{Low: 1 * mib, High: 8 * gib},
			Valid:       Bounds{Low: 1, High: math.MaxFloat64},
			TakesEffect: "at the next full GC",
			Persists:    "not saved: set it at every start",
			OfPoint:     func(p *Point) *float64 { return &p.ShrinkBytes },
			OfSpace:     func(s *Space) *Bounds { return &s.ShrinkBytes },
		}, func(p *heapsim.Params) *uint64 { return &p.ShrinkThresholdBytes }),
		paramsField(Tunable{
			Name: ParamRatio, Key: "ratio", Label: "full GC ratio", VMParam: 55,
			Unit: UnitRatio, Log: true, JSONKey: "fullGCRatio",
			Default:     Bounds{Low: 0.05, High: 50},
			Valid:       Bounds{Low: 0, High: math.MaxFloat64},
			TakesEffect: "at once (checked after each scavenge)",
			Persists:    "not saved: set it at every start",
			OfPoint:     func(p *Point) *float64 { return &p.Ratio },
			OfSpace:     func(s *Space) *Bounds { return &s.Ratio },
		}, func(p *heapsim.Params) *float64 { return &p.FullGCRatio }),
		{
			Name: ParamProportion, Key: "survivors_proportion", Label: "survivors to keep", VMParam: 6,
			Unit: UnitProportion, Log: false, JSONKey: "survivorsProportion",
			Default:     Bounds{Low: 0, High: 1.25},
			Valid:       Bounds{Low: 0, High: math.MaxFloat64},
			TakesEffect: "at once (the next scavenge already tenures by it)",
			Persists:    "not saved; Pharo resets it at every session start and after every snapshot: set it again after saving",
			OfPoint:     func(p *Point) *float64 { return &p.Proportion },
			OfSpace:     func(s *Space) *Bounds { return &s.Proportion },
			FromParams: func(p heapsim.Params) float64 {
				if p.Survivors.Mode == heapsim.SurvivorsProportion {
					return p.Survivors.Proportion // as given; the VM's own p rounds N
				}
				return p.TenuringProportion()
			},
			ToParams: func(p *heapsim.Params, v float64) {
				// heapsim rounds N up, so p ≥ 1 keeps all survivors.
				p.Survivors = heapsim.Survivors{Mode: heapsim.SurvivorsProportion, Proportion: v}
			},
			VMValue: func(p heapsim.Params) any { return p.SurvivorsToKeep() },
			Reset:   func(p *heapsim.Params, b heapsim.Params) { p.Survivors = b.Survivors },
		},
	}
}

// paramsField returns t with FromParams, ToParams, VMValue and Reset reading and writing the
// heapsim.Params field that field addresses: the four accessors of a tunable that is one field
// of the simulator's parameters, whose own type (bytes as uint64, a ratio as float64) is also
// the VM's.
func paramsField[T uint64 | float64](t Tunable, field func(*heapsim.Params) *T) Tunable {
	t.FromParams = func(p heapsim.Params) float64 { return float64(*field(&p)) }
	t.ToParams = func(p *heapsim.Params, v float64) { *field(p) = T(v) }
	t.VMValue = func(p heapsim.Params) any { return *field(&p) }
	t.Reset = func(p *heapsim.Params, base heapsim.Params) { *field(p) = *field(&base) }
	return t
}

// Named returns the tunable whose Name is name.
func Named(name string) (Tunable, bool) {
	for _, t := range All() {
		if t.Name == name {
			return t, true
		}
	}
	return Tunable{}, false
}

// ByKey returns the tunable whose Key is key (a configuration key, a --batch field).
func ByKey(key string) (Tunable, bool) {
	for _, t := range All() {
		if t.Key == key {
			return t, true
		}
	}
	return Tunable{}, false
}

// Keys returns the tunables' configuration keys in their fixed order.
func Keys() []string {
	ts := All()
	keys := make([]string, len(ts))
	for i, t := range ts {
		keys[i] = t.Key
	}
	return keys
}

// Names returns the dimensions' names in their fixed order.
func Names() []string {
	ts := All()
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return names
}

// Get returns the tunable's value in p.
func (t Tunable) Get(p Point) float64 { return *t.OfPoint(&p) }

// Set sets the tunable's value in p.
func (t Tunable) Set(p *Point, v float64) { *t.OfPoint(p) = v }

// Bounds returns the tunable's interval in s.
func (t Tunable) Bounds(s Space) Bounds { return *t.OfSpace(&s) }

// IsBytes reports whether the tunable is a size in bytes.
func (t Tunable) IsBytes() bool { return t.Unit == UnitBytes }

// Values returns p's values in All order.
func (p Point) Values() []float64 {
	ts := All()
	out := make([]float64, len(ts))
	for i, t := range ts {
		out[i] = t.Get(p)
	}
	return out
}

// FlagName is the tunable's command-line flag ("survivors-proportion"): its Key with dashes.
func (t Tunable) FlagName() string { return strings.ReplaceAll(t.Key, "_", "-") }
