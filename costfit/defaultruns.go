package costfit

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/gctune/gctune/heapsim"
)

// DefaultRun is one run at the default GC parameters for FitDefaultRuns: its times simulated
// at the base cost, split by scale group from that one simulation, and the measured GC and
// total times it is fitted to.
//
// The split is the calibration's simplification: the inner scavenge of each full GC, priced
// with the scavenge coefficients, is counted (as the VM counts it, parameter 8) in FullGC and
// scaled with the full-GC group. Basis, for Fit, separates it exactly by simulating each group
// alone; heapsim's calibration keeps this split, which docs/calibration.md states.
type DefaultRun struct {
	// MutatorByte and MutatorObject are the mutator's per-byte and per-object seconds,
	// Scavenge and FullGC the scavenges' and full GCs' seconds, GrowShrink the seconds of
	// growing and shrinking old space (no scale touches them), all at the base cost.
	MutatorByte, MutatorObject, Scavenge, FullGC, GrowShrink float64
	// GCSeconds and TotalSeconds are the measured GC and total (wall) times, positive.
	GCSeconds, TotalSeconds float64
}

// NewDefaultRun splits st, a run simulated at cost base, by scale group; the measured times are
// left to the caller.
func NewDefaultRun(st heapsim.Stats, base heapsim.Cost) DefaultRun {
	return DefaultRun{
		MutatorByte:   float64(st.AllocatedBytes) * base.MutatorSecondsPerByte,
		MutatorObject: st.AllocatedObjects * base.MutatorSecondsPerObject,
		Scavenge:      st.ScavengeSeconds,
		FullGC:        st.FullGCSeconds,
		GrowShrink:    st.GrowSeconds + st.ShrinkSeconds,
	}
}

// Times returns the run's GC and total seconds at scales s.
func (r DefaultRun) Times(s heapsim.Scales) (gc, total float64) {
	gc = s.Scavenge*r.Scavenge + s.FullGC*r.FullGC + r.GrowShrink
	return gc, gc + s.MutatorByte*r.MutatorByte + s.MutatorObject*r.MutatorObject
}

// FitDefaultRuns finds the three scales (one for both mutator costs, one for scavenges, one for
// full GCs) that minimise the squared log errors of GC time and total time over runs, with
// gonum's Nelder-Mead from scale 1, and returns them with the loss at the minimum. It is how
// heapsim's cost model is calibrated on the published default runs (go run ./heapsim/calibrate);
// Fit is the exact solve for one measured run of the user's application.
func FitDefaultRuns(runs []DefaultRun) (heapsim.Scales, float64, error) {
	if len(runs) == 0 {
		return heapsim.Scales{}, 0, errors.New("costfit: no run to fit")
	}
	for i, r := range runs {
		if !(r.GCSeconds > 0) || !(r.TotalSeconds > 0) {
			return heapsim.Scales{}, 0, fmt.Errorf("costfit: run %d: measured times %g s (GC) and %g s (total) must be positive", i, r.GCSeconds, r.TotalSeconds)
		}
	}
	fromX := func(x []float64) heapsim.Scales {
		m := math.Exp(x[0])
		return heapsim.Scales{MutatorByte: m, MutatorObject: m, Scavenge: math.Exp(x[1]), FullGC: math.Exp(x[2])}
	}
	loss := func(x []float64) float64 {
		s := fromX(x)
		var l float64
		for _, r := range runs {
			gc, total := r.Times(s)
			l += sq(math.Log(gc/r.GCSeconds)) + sq(math.Log(total/r.TotalSeconds))
		}
		return l
	}
	res, err := optimize.Minimize(optimize.Problem{Func: loss}, []float64{0, 0, 0}, &optimize.Settings{FuncEvaluations: 20000}, &optimize.NelderMead{})
	if err != nil {
		return heapsim.Scales{}, 0, fmt.Errorf("costfit: fit: %w", err)
	}
	return fromX(res.X), res.F, nil
}

func sq(x float64) float64 { return x * x }
