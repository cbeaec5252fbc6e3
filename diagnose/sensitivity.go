package diagnose

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/tunable"
)

// Sweep is the objective over one parameter's range with the other four at the best trial's
// values, each point computed by the simulator.
type Sweep struct {
	// Param is the search dimension (tunable.ParamNewSpace...), Label its name for people,
	// Bytes reports whether its values are sizes in bytes, Log whether its axis is
	// logarithmic (as the search space samples it).
	Param string `json:"param"`
	Label string `json:"label"`
	Bytes bool   `json:"bytes"`
	Log   bool   `json:"log"`
	// Values are the parameter's values, ascending; Objective and Feasible the objective
	// there as the search saw it (penalised when over the budget or out of memory, which
	// Feasible says), so that a sweep shows why the search avoided a region.
	Values    []float64 `json:"values"`
	Objective []float64 `json:"objective"`
	Feasible  []bool    `json:"feasible"`
	// BestValue and DefaultValue are the parameter at the best trial and at the VM defaults;
	// BestObjective the objective at the best.
	BestValue     float64 `json:"bestValue"`
	DefaultValue  float64 `json:"defaultValue"`
	BestObjective float64 `json:"bestObjective"`
	// Effect is (worst − best objective) / best objective over the feasible points of the
	// sweep: how much this knob alone can cost.
	Effect float64 `json:"effect"`
	// CliffFrom and CliffTo bracket the largest jump between neighbouring points, CliffRatio
	// the objective's ratio across it (≥ 1; 1 when flat).
	CliffFrom  float64 `json:"cliffFrom"`
	CliffTo    float64 `json:"cliffTo"`
	CliffRatio float64 `json:"cliffRatio"`
}

// Sensitivity sweeps each parameter over its range in space with the other four held at
// best, sweepPoints grid points each (at least 2) beside best's and the default's values,
// simulating every point on p with the problem's objective (no surrogate), and returns the
// sweeps ranked by Effect, largest first (ties: tunable.Names order).
func Sensitivity(ctx context.Context, prob *objective.Problem, space tunable.Space, best tunable.Point, sweepPoints int, p *Pool) ([]Sweep, error) {
	base := prob.Base()
	def := tunable.DefaultPoint(base)
	best = best.Rounded()
	sweeps := make([]Sweep, len(tunable.All()))
	type job struct{ sweep, idx int }
	var jobs []job
	for i, pi := range tunable.All() {
		b := pi.Bounds(space)
		vals := []float64{pi.Get(best), pi.Get(def.Rounded())}
		for k := range sweepPoints {
			f := float64(k) / float64(sweepPoints-1)
			v := b.Low + f*(b.High-b.Low)
			if pi.Log {
				v = math.Exp(math.Log(b.Low) + f*(math.Log(b.High)-math.Log(b.Low)))
			}
			var pt tunable.Point
			pi.Set(&pt, v)
			vals = append(vals, pi.Get(pt.Rounded()))
		}
		slices.Sort(vals)
		vals = slices.Compact(vals)
		sweeps[i] = Sweep{Param: pi.Name, Label: pi.Label, Bytes: pi.IsBytes(), Log: pi.Log, Values: vals,
			Objective: make([]float64, len(vals)), Feasible: make([]bool, len(vals)),
			BestValue: pi.Get(best), DefaultValue: pi.Get(def)}
		for k := range vals {
			jobs = append(jobs, job{i, k})
		}
	}
	err := p.run(ctx, len(jobs), func(j int) error {
		jb := jobs[j]
		pt := best
		tunable.All()[jb.sweep].Set(&pt, sweeps[jb.sweep].Values[jb.idx])
		res, err := p.evaluate(prob, pt.Params(base))
		if err != nil {
			return fmt.Errorf("diagnose: sensitivity of %s at %v: %w", tunable.All()[jb.sweep].Name, sweeps[jb.sweep].Values[jb.idx], err)
		}
		sweeps[jb.sweep].Objective[jb.idx] = res.Value
		sweeps[jb.sweep].Feasible[jb.idx] = res.Feasible
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range sweeps {
		sw := &sweeps[i]
		lo, hi := math.Inf(1), math.Inf(-1)
		sw.CliffRatio = 1
		for k, v := range sw.Objective {
			if sw.Values[k] == sw.BestValue {
				sw.BestObjective = v
			}
			if !sw.Feasible[k] {
				continue
			}
			lo, hi = min(lo, v), max(hi, v)
			if k > 0 && sw.Feasible[k-1] {
				a, b := sw.Objective[k-1], v
				if r := max(a, b) / min(a, b); r > sw.CliffRatio {
					sw.CliffRatio, sw.CliffFrom, sw.CliffTo = r, sw.Values[k-1], sw.Values[k]
				}
			}
		}
		if lo > 0 && !math.IsInf(lo, 0) {
			sw.Effect = (hi - lo) / lo
		}
	}
	sort.SliceStable(sweeps, func(i, j int) bool { return sweeps[i].Effect > sweeps[j].Effect })
	return sweeps, nil
}
