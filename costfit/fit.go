package costfit

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile"
)

// Group names, as Fit reports them.
const (
	GroupMutator  = "mutator"
	GroupScavenge = "scavenge"
	GroupFullGC   = "fullGC"
)

// minScale is the smallest scale Fit accepts: a solve that gives less is at rounding level
// (scales are of order 1), i.e. the measurement leaves that group no time.
const minScale = 1e-9

// Linear is one simulated time as a function of the three group scales: Const (growth and
// shrink, which no scale touches) plus each group's contribution at scale 1.
type Linear struct {
	Const    float64 `json:"const"`
	Mutator  float64 `json:"mutator"`
	Scavenge float64 `json:"scavenge"`
	FullGC   float64 `json:"fullGC"`
}

// At returns the time at scales s.
func (l Linear) At(s Scales) float64 {
	return l.Const + s.Mutator*l.Mutator + s.Scavenge*l.Scavenge + s.FullGC*l.FullGC
}

// Scales are the fitted factors, each multiplying one group of the base cost's coefficients
// (heapsim.Cost.Scaled: the mutator's per-byte and per-object costs, every scavenge
// coefficient, every full-GC coefficient).
type Scales struct {
	Mutator  float64 `json:"mutator" yaml:"mutator"`
	Scavenge float64 `json:"scavenge" yaml:"scavenge"`
	FullGC   float64 `json:"fullGC" yaml:"fullGC"`
}

// Heapsim returns the scales as heapsim.Scales (one factor for both mutator costs).
func (s Scales) Heapsim() heapsim.Scales {
	return heapsim.Scales{MutatorByte: s.Mutator, MutatorObject: s.Mutator, Scavenge: s.Scavenge, FullGC: s.FullGC}
}

// Basis is the simulated default run decomposed by group: every time it reports as a Linear
// function of the scales, and its counts, which no scale changes.
type Basis struct {
	// Base is the cost the scales multiply.
	Base heapsim.Cost
	// Stats is the run at the base cost (counts, bytes; its times are the Linears at scale 1).
	Stats heapsim.Stats
	// Scavenge, FullGC, GC and Total are the simulated scavenge time (what VM parameter 10
	// measures), full-GC time (8, the inner scavenge included), GC time and wall time.
	Scavenge, FullGC, GC, Total Linear
}

// NewBasis simulates profile p under params with each group of base switched on alone (and
// all off, for the growth and shrink costs no scale touches), and returns the decomposition.
// It checks that the counts are the same in every run: the mechanics must not depend on the
// cost model, or no scale would be linear.
func NewBasis(p *profile.Profile, params heapsim.Params, base heapsim.Cost) (*Basis, error) {
	if err := base.Validate(); err != nil {
		return nil, fmt.Errorf("costfit: base cost: %w", err)
	}
	units := []heapsim.Scales{
		{},
		{MutatorByte: 1, MutatorObject: 1},
		{Scavenge: 1},
		{FullGC: 1},
	}
	var runs [4]heapsim.Stats
	for i, u := range units {
		st, err := heapsim.Simulate(p, params, base.Scaled(u))
		if err != nil {
			return nil, fmt.Errorf("costfit: simulate the default run: %w", err)
		}
		runs[i] = st
		if i > 0 && (st.Scavenges != runs[0].Scavenges || st.FullGCs != runs[0].FullGCs || st.Grows != runs[0].Grows ||
			st.TenuredBytes != runs[0].TenuredBytes) {
			return nil, errors.New("costfit: the simulated counts change with the cost model: times are not linear in the scales")
		}
	}
	lin := func(f func(heapsim.Stats) float64) Linear {
		c := f(runs[0])
		return Linear{Const: c, Mutator: f(runs[1]) - c, Scavenge: f(runs[2]) - c, FullGC: f(runs[3]) - c}
	}
	b := &Basis{
		Base:     base,
		Scavenge: lin(func(s heapsim.Stats) float64 { return s.ScavengeSeconds }),
		FullGC:   lin(func(s heapsim.Stats) float64 { return s.FullGCSeconds }),
		GC:       lin(func(s heapsim.Stats) float64 { return s.GCSeconds }),
		Total:    lin(func(s heapsim.Stats) float64 { return s.TotalSeconds }),
	}
	b.Stats = runs[0]
	one := Scales{1, 1, 1}
	b.Stats.ScavengeSeconds, b.Stats.FullGCSeconds = b.Scavenge.At(one), b.FullGC.At(one)
	b.Stats.GCSeconds, b.Stats.TotalSeconds = b.GC.At(one), b.Total.At(one)
	b.Stats.MutatorSeconds = b.Stats.TotalSeconds - b.Stats.GCSeconds
	if b.Stats.TotalSeconds > 0 {
		b.Stats.GCShare = b.Stats.GCSeconds / b.Stats.TotalSeconds
	}
	return b, nil
}

// Result is a fit.
type Result struct {
	// Scales multiply the base cost's groups; Cost is the base scaled.
	Scales Scales       `json:"scales"`
	Cost   heapsim.Cost `json:"-"`
	// Groups lists the groups that share each fitted scale, one entry per scale the
	// measurement determined (for example [[mutator] [scavenge fullGC]] from wall and GC time).
	Groups [][]string `json:"groups"`
	// Method says in words what was fitted and why.
	Method string `json:"method"`
	// Predicted is the simulated run at the fitted scales (from the basis).
	Predicted Times `json:"predicted"`
	// Notes are remarks on the fit: a group kept at its base scale, figures that disagree.
	Notes []string `json:"notes,omitempty"`
}

// Times are a run's times in seconds.
type Times struct {
	WallSeconds     float64 `json:"wallSeconds"`
	GCSeconds       float64 `json:"gcSeconds"`
	ScavengeSeconds float64 `json:"scavengeSeconds"`
	FullGCSeconds   float64 `json:"fullGCSeconds"`
}

// TimesAt returns the basis's times at scales s.
func (b *Basis) TimesAt(s Scales) Times {
	return Times{WallSeconds: b.Total.At(s), GCSeconds: b.GC.At(s), ScavengeSeconds: b.Scavenge.At(s), FullGCSeconds: b.FullGC.At(s)}
}

// equation is one measured time: row·x = rhs over the scales x = (mutator, scavenge, fullGC).
type equation struct {
	name     string
	measured float64
	row      [3]float64
	rhs      float64
}

func (l Linear) equation(name string, measured float64) equation {
	return equation{name: name, measured: measured, row: [3]float64{l.Mutator, l.Scavenge, l.FullGC}, rhs: measured - l.Const}
}

var groupNames = [3]string{GroupMutator, GroupScavenge, GroupFullGC}

// Fit finds the scales that make the basis's run take the measured times, as many as the
// measurement determines:
//
//   - wall time only: one scale for all the work (the measurement does not split it, so the
//     model's split between mutator and GC is kept);
//   - wall and GC time: one mutator scale and one GC scale shared by scavenges and full GCs;
//   - wall and scavenge time (or full-GC time) alone: that group's scale, and one scale
//     shared by the two others;
//   - wall with two of GC, scavenge and full-GC time: a scale for each group. With all three
//     the GC time is only checked against the sum of the other two (a note when they differ).
//
// A group the simulated run does not exercise (no full GC at all) keeps scale 1, unless the
// measurement says it took time, which is an error: the profile does not reproduce the run.
// Every scale must come out positive; otherwise the error names the group.
func Fit(b *Basis, m Measured) (*Result, error) {
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("costfit: measurement: %w", err)
	}
	hasG, hasS, hasF := m.GCSeconds != nil, m.ScavengeSeconds != nil, m.FullGCSeconds != nil
	// One equation per measured time; GC time only checks the sum when both its parts are
	// measured.
	eqs := []equation{b.Total.equation("wallSeconds", m.WallSeconds)}
	for _, part := range []struct {
		name      string
		of        Linear
		measured  *float64
		checkOnly bool
	}{
		{"gcSeconds", b.GC, m.GCSeconds, hasS && hasF},
		{"scavengeSeconds", b.Scavenge, m.ScavengeSeconds, false},
		{"fullGCSeconds", b.FullGC, m.FullGCSeconds, false},
	} {
		if part.measured != nil && !part.checkOnly {
			eqs = append(eqs, part.of.equation(part.name, *part.measured))
		}
	}
	var classes [][]int
	var method string
	var notes []string
	switch {
	case hasS && hasF:
		classes = [][]int{{0}, {1}, {2}}
		method = "mutator, scavenge and full-GC scales fitted, each on its own measured time"
		if hasG {
			if sum := *m.ScavengeSeconds + *m.FullGCSeconds; math.Abs(sum-*m.GCSeconds) > 0.02*math.Max(*m.GCSeconds, sum)+0.001 {
				notes = append(notes, fmt.Sprintf("gcSeconds %.4g s is not scavengeSeconds + fullGCSeconds = %.4g s; the fit uses the two parts", *m.GCSeconds, sum))
			}
		}
	case hasG && (hasS || hasF):
		classes = [][]int{{0}, {1}, {2}}
		method = "mutator, scavenge and full-GC scales fitted (the missing GC part is GC time minus the other)"
	case hasG:
		classes = [][]int{{0}, {1, 2}}
		method = "a mutator scale and one GC scale fitted: the measurement does not split GC time between scavenges and full GCs, so they share a scale"
	case hasS:
		classes = [][]int{{1}, {0, 2}}
		method = "a scavenge scale fitted; the mutator and full GCs share one scale (their times are not measured apart)"
	case hasF:
		classes = [][]int{{2}, {0, 1}}
		method = "a full-GC scale fitted; the mutator and scavenges share one scale (their times are not measured apart)"
	default:
		classes = [][]int{{0, 1, 2}}
		method = "one scale for all the work: wall time alone does not split it, so the model's split between mutator and GC is kept"
	}
	x, kept, err := solve(eqs, classes)
	if err != nil {
		return nil, fmt.Errorf("%w (simulated at the defaults: %d scavenges, %d full GCs)", err, b.Stats.Scavenges, b.Stats.FullGCs)
	}
	for _, c := range kept {
		notes = append(notes, fmt.Sprintf("the simulated run has no %s work: its scale stays 1", className(classes[c])))
	}
	res := &Result{Scales: Scales{Mutator: x[0], Scavenge: x[1], FullGC: x[2]}, Method: method, Notes: notes}
	for ci, c := range classes {
		if isKept(kept, ci) {
			continue
		}
		var g []string
		for _, i := range c {
			g = append(g, groupNames[i])
		}
		res.Groups = append(res.Groups, g)
	}
	res.Cost = b.Base.Scaled(res.Scales.Heapsim())
	if err := res.Cost.Validate(); err != nil {
		return nil, fmt.Errorf("costfit: fitted cost: %w", err)
	}
	res.Predicted = b.TimesAt(res.Scales)
	return res, nil
}

func isKept(kept []int, c int) bool {
	for _, k := range kept {
		if k == c {
			return true
		}
	}
	return false
}

func className(c []int) string {
	var names []string
	for _, i := range c {
		names = append(names, map[int]string{0: "mutator", 1: "scavenge", 2: "full-GC"}[i])
	}
	return strings.Join(names, " and ")
}

// solve finds one positive scale per class of groups from the equations. A class whose
// column is zero in every equation (work the simulated run never does) keeps scale 1 and is
// returned in kept; an equation left with nothing to fit must then be satisfied already.
func solve(eqs []equation, classes [][]int) (x [3]float64, kept []int, err error) {
	col := func(e equation, c []int) float64 {
		var s float64
		for _, i := range c {
			s += e.row[i]
		}
		return s
	}
	var free []int
	for ci, c := range classes {
		zero := true
		for _, e := range eqs {
			if math.Abs(col(e, c)) > 1e-15 {
				zero = false
			}
		}
		if zero {
			kept = append(kept, ci)
			for _, i := range c {
				x[i] = 1
			}
			continue
		}
		free = append(free, ci)
	}
	var rows []equation
	for _, e := range eqs {
		rhs := e.rhs
		for _, ci := range kept {
			rhs -= col(e, classes[ci])
		}
		nonzero := false
		for _, ci := range free {
			if math.Abs(col(e, classes[ci])) > 1e-15 {
				nonzero = true
			}
		}
		if !nonzero {
			if math.Abs(rhs) > 1e-9*math.Max(1, math.Abs(e.rhs)) {
				return x, nil, fmt.Errorf("costfit: %s = %.4g s, but the simulated default run spends no time there: the profile does not reproduce the run's collections", e.name, e.measured)
			}
			continue
		}
		e.rhs = rhs
		rows = append(rows, e)
	}
	if len(free) == 0 {
		return x, kept, nil
	}
	if len(rows) < len(free) {
		return x, nil, errors.New("costfit: the measurement does not determine the scales")
	}
	a := mat.NewDense(len(rows), len(free), nil)
	bv := mat.NewVecDense(len(rows), nil)
	for r, e := range rows {
		for j, ci := range free {
			a.Set(r, j, col(e, classes[ci]))
		}
		bv.SetVec(r, e.rhs)
	}
	var y mat.VecDense
	if err := y.SolveVec(a, bv); err != nil {
		return x, nil, fmt.Errorf("costfit: the measured times do not determine the scales: %w", err)
	}
	for j, ci := range free {
		v := y.AtVec(j)
		// A scale that comes out at rounding level (the solve of an exactly degenerate
		// measurement, e.g. all of the wall time in GC) is no scale.
		if !(v > minScale) || math.IsInf(v, 0) {
			return x, nil, fmt.Errorf("costfit: no positive %s scale fits the measurement (it comes out %.3g): the measured times are not in the proportions the simulated run can take (compare them with 'gctune simulate' at the defaults)", className(classes[ci]), v)
		}
		for _, i := range classes[ci] {
			x[i] = v
		}
	}
	return x, kept, nil
}
