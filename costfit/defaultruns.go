package costfit

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/gctune/gctune/heapsim"
)

// DefaultRun is one run at the default GC parameters for FitDefaultRuns: its times simulated
// at the base cost, split by scale group, and the measured GC and total times it is fitted to.
type DefaultRun struct {
	// MutatorByte and MutatorObject are the mutator's per-byte and per-object seconds,
	// Scavenge and FullGC the seconds priced by the scavenge and the full-GC coefficients
	// (the inner scavenge of a full GC is priced with the scavenge coefficients, and so
	// falls in Scavenge, though the VM counts its time in the full GC's, parameter 8),
	// GrowShrink the seconds of growing and shrinking old space (no scale touches them), all
	// at the base cost.
	MutatorByte, MutatorObject, Scavenge, FullGC, GrowShrink float64
	// GCSeconds and TotalSeconds are the measured GC and total (wall) times, positive.
	GCSeconds, TotalSeconds float64
	// Again holds further measurements of the same run (the same work on the same machine,
	// e.g. [IWST23-L]'s Tables 3-5 "Default" rows beside its Table 1): each is one more
	// observation of the run's GC and total times, weighed like the first.
	Again []Observation
}

// Observation is one measurement of a default run: its GC and total (wall) seconds.
type Observation struct {
	GCSeconds, TotalSeconds float64
}

// observations returns every measurement of the run, the first (GCSeconds, TotalSeconds) first.
func (r DefaultRun) observations() []Observation {
	return append([]Observation{{r.GCSeconds, r.TotalSeconds}}, r.Again...)
}

// NewDefaultRun splits the default run b decomposes by scale group, exactly: at any scales,
// its Times are the times heapsim simulates at b.Base scaled by them. The measured times are
// left to the caller.
func NewDefaultRun(b *Basis) DefaultRun {
	return DefaultRun{
		MutatorByte:   float64(b.Stats.AllocatedBytes) * b.Base.MutatorSecondsPerByte,
		MutatorObject: b.Stats.AllocatedObjects * b.Base.MutatorSecondsPerObject,
		Scavenge:      b.GC.Scavenge,
		FullGC:        b.GC.FullGC,
		GrowShrink:    b.GC.Const,
	}
}

// Times returns the run's GC and total seconds at scales s.
func (r DefaultRun) Times(s heapsim.Scales) (gc, total float64) {
	gc = s.Scavenge*r.Scavenge + s.FullGC*r.FullGC + r.GrowShrink
	return gc, gc + s.MutatorByte*r.MutatorByte + s.MutatorObject*r.MutatorObject
}

// FitDefaultRuns finds the three scales (one for both mutator costs, one for scavenges, one for
// full GCs) for runs in two stages, each with gonum's Nelder-Mead from scale 1: the scavenge and
// full-GC scales minimise the squared log errors of GC time, then the mutator scale minimises
// those of total time with the GC scales fixed; a run measured more than once (DefaultRun.Again)
// adds one squared log error per measurement, so it is fitted to the geometric mean of its
// measurements with the weight of their number. It returns the scales and the sum of both
// stages' losses. The GC coefficients price GC work alone and decide which configuration is
// best, while the mutator time does not depend on the GC parameters; fitting them jointly on
// total time would let the GC scales absorb what the allocation-driven mutator model cannot
// explain (docs/calibration.md, "Reading the fit"). It is how heapsim's cost model is
// calibrated on the published default runs (go run ./heapsim/calibrate); Fit is the exact
// solve for one measured run of the user's application.
func FitDefaultRuns(runs []DefaultRun) (heapsim.Scales, float64, error) {
	if len(runs) == 0 {
		return heapsim.Scales{}, 0, errors.New("costfit: no run to fit")
	}
	for i, r := range runs {
		for j, o := range r.observations() {
			if !(o.GCSeconds > 0) || !(o.TotalSeconds > 0) {
				return heapsim.Scales{}, 0, fmt.Errorf("costfit: run %d, measurement %d: measured times %g s (GC) and %g s (total) must be positive", i, j+1, o.GCSeconds, o.TotalSeconds)
			}
		}
	}
	s := heapsim.Scales{MutatorByte: 1, MutatorObject: 1, Scavenge: 1, FullGC: 1}
	gcLoss := func(x []float64) float64 {
		t := s
		t.Scavenge, t.FullGC = math.Exp(x[0]), math.Exp(x[1])
		var l float64
		for _, r := range runs {
			gc, _ := r.Times(t)
			for _, o := range r.observations() {
				l += sq(math.Log(gc / o.GCSeconds))
			}
		}
		return l
	}
	gcRes, err := minimize(gcLoss, 2)
	if err != nil {
		return heapsim.Scales{}, 0, err
	}
	s.Scavenge, s.FullGC = math.Exp(gcRes.X[0]), math.Exp(gcRes.X[1])
	totalLoss := func(x []float64) float64 {
		t := s
		t.MutatorByte, t.MutatorObject = math.Exp(x[0]), math.Exp(x[0])
		var l float64
		for _, r := range runs {
			_, total := r.Times(t)
			for _, o := range r.observations() {
				l += sq(math.Log(total / o.TotalSeconds))
			}
		}
		return l
	}
	totalRes, err := minimize(totalLoss, 1)
	if err != nil {
		return heapsim.Scales{}, 0, err
	}
	s.MutatorByte, s.MutatorObject = math.Exp(totalRes.X[0]), math.Exp(totalRes.X[0])
	return s, gcRes.F + totalRes.F, nil
}

// minimize runs Nelder-Mead on f over n log-scales from 0 (scale 1).
func minimize(f func([]float64) float64, n int) (*optimize.Result, error) {
	res, err := optimize.Minimize(optimize.Problem{Func: f}, make([]float64, n), &optimize.Settings{FuncEvaluations: 20000}, &optimize.NelderMead{})
	if err != nil {
		return nil, fmt.Errorf("costfit: fit: %w", err)
	}
	return res, nil
}

func sq(x float64) float64 { return x * x }
