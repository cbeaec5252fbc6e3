package study

import (
	"fmt"
	"math"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/tunable"
)

// maxStoredBytes bounds every size a stored record may hold: 1 EiB, more than any machine's
// memory, and exactly convertible to the simulator's uint64. A size past it (an eden of 1e300
// bytes) is no size gctune wrote.
const maxStoredBytes = 1 << 60

// CheckPoint checks a configuration read from a study with the rules it was written by: each
// tunable's value a finite number in what the VM accepts (tunable.Valid), a size at most
// 1 EiB, and the whole a valid set of simulator parameters. The error names the first bad
// value.
func CheckPoint(p tunable.Point) error {
	for _, t := range tunable.All() {
		if err := checkValue(t, t.Get(p)); err != nil {
			return err
		}
	}
	if err := p.Params(heapsim.DefaultParams()).Validate(); err != nil {
		return err
	}
	return nil
}

// checkValue checks one tunable's value (see CheckPoint).
func checkValue(t tunable.Tunable, v float64) error {
	hi := t.Valid.High
	if t.IsBytes() {
		hi = min(hi, maxStoredBytes)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || v < t.Valid.Low || v > hi {
		return fmt.Errorf("%s = %g is not in [%g, %g]", t.Label, v, t.Valid.Low, hi)
	}
	return nil
}

// CheckRecommendation checks a recommendation read from a study with the rules it was made by:
// its configurations (CheckPoint), the values of the changes it put back or kept, its trial
// numbers, its times and speedups (finite numbers above 0; JSON holds no NaN or Inf).
func CheckRecommendation(r *recommend.Recommendation) error {
	if r == nil {
		return fmt.Errorf("no recommendation in it")
	}
	for _, c := range []struct {
		what string
		p    tunable.Point
	}{{"recommended configuration", r.Point}, {"chosen trial's configuration", r.Chosen.Point}, {"fastest configuration", r.Best.Point}} {
		if err := CheckPoint(c.p); err != nil {
			return fmt.Errorf("%s: %w", c.what, err)
		}
	}
	for _, steps := range [][]recommend.Step{r.PutBack, r.Kept} {
		for _, s := range steps {
			t, ok := tunable.Named(s.Param)
			if !ok {
				return fmt.Errorf("change of unknown parameter %q", s.Param)
			}
			for _, v := range []float64{s.Value, s.Default} {
				if err := checkValue(t, v); err != nil {
					return fmt.Errorf("change: %w", err)
				}
			}
		}
	}
	if r.Trial < 0 || r.Chosen.Number < 0 || r.Best.Number < 0 {
		return fmt.Errorf("trial number %d is negative", min(r.Trial, r.Chosen.Number, r.Best.Number))
	}
	for _, x := range []struct {
		what string
		v    float64
	}{{"default value", r.DefaultValue}, {"recommended value", r.Value}, {"recommended speedup", r.Speedup},
		{"chosen trial's value", r.Chosen.Value}, {"fastest value", r.Best.Value}} {
		if !(x.v > 0) || math.IsInf(x.v, 0) {
			return fmt.Errorf("%s %g is not a positive number", x.what, x.v)
		}
	}
	return nil
}

// maxStoredTrials bounds a stored problem's target: config.MaxTrials, which every command
// that sets the target checks (the study layer does not import the configuration).
const maxStoredTrials = 100_000

// check checks a problem read from a study with the rules it was written by: a target of
// trials in range, workloads, a valid configured space, VM facts, cost and uncertainty model.
func (p *Problem) check() error {
	switch {
	case p.Trials < 1 || p.Trials > maxStoredTrials:
		return fmt.Errorf("target of %d trials is not in [1, %d]", p.Trials, maxStoredTrials)
	case len(p.Workloads) == 0:
		return fmt.Errorf("no workload")
	case math.IsNaN(p.DefaultValue) || math.IsInf(p.DefaultValue, 0) || p.DefaultValue < 0:
		return fmt.Errorf("the defaults' value %g is not a number ≥ 0", p.DefaultValue)
	}
	if err := p.ConfiguredSpace.Validate(); err != nil {
		return fmt.Errorf("space: %w", err)
	}
	if err := p.VM.Validate(); err != nil {
		return fmt.Errorf("VM facts: %w", err)
	}
	if err := p.Cost.Validate(); err != nil {
		return fmt.Errorf("cost model: %w", err)
	}
	if err := p.Uncertainty.Validate(); err != nil {
		return fmt.Errorf("uncertainty model: %w", err)
	}
	return nil
}
