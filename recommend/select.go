package recommend

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/tunable"
)

// Defaults of the recommendation.
const (
	// DefaultTolerance is how much slower than the best trial a recommendation may be: 1 %,
	// about the run-to-run noise of a real application, and well inside what a user would
	// trade for gigabytes of memory or a parameter left alone.
	DefaultTolerance = 0.01
	// KeepDefaultsWithin is the gain under which gctune says to keep the defaults: a
	// configuration less than 2 % faster than the defaults is not worth changing a VM setting
	// for, given the model's error.
	KeepDefaultsWithin = 0.02
)

// ErrNoCandidate is returned when no trial may be recommended: none is complete, feasible and
// has a finite, positive value.
var ErrNoCandidate = errors.New("recommend: the study has no complete feasible trial yet")

// Candidate is a trial that may be recommended.
type Candidate struct {
	Number int `json:"trial"`
	// Value is the objective (seconds, or a slowdown for several workloads).
	Value float64 `json:"value"`
	// PeakFootprintBytes is the largest footprint of the trial's runs; 0 when the trial does
	// not record it (such a trial is chosen for its footprint only when no other qualifies).
	PeakFootprintBytes uint64 `json:"peakFootprintBytes"`
	// Point is the configuration as exported and simulated (tunable.Point.Rounded).
	Point tunable.Point `json:"point"`
	// Slowdowns are the trial's per-workload slowdowns (objective.Result.Slowdowns, from
	// trialattr.Slowdowns); nil when the trial did not record them.
	Slowdowns []float64 `json:"slowdowns,omitempty"`
}

// Candidates returns the trials that may be recommended, by number: COMPLETE, not marked
// infeasible, a finite value above 0, and a complete set of parameters.
func Candidates(trials []goptuna.FrozenTrial) []Candidate {
	var out []Candidate
	for _, t := range trials {
		if !trialattr.FeasibleValue(t) {
			continue
		}
		p, err := tunable.PointFromParams(t.Params)
		if err != nil {
			continue
		}
		c := Candidate{Number: t.Number, Value: t.Value, Point: p.Rounded()}
		m := trialattr.TrialMetrics(t)
		c.PeakFootprintBytes, c.Slowdowns = m.PeakFootprintBytes, m.Slowdowns
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Candidate) int { return a.Number - b.Number })
	return out
}

// Selection is the outcome of Select.
type Selection struct {
	// Best is the candidate with the lowest value (ties: the lower number).
	Best Candidate `json:"best"`
	// Chosen is the candidate with the smallest peak footprint among those within the
	// tolerance of Best (ties: the lower value, then the lower number).
	Chosen Candidate `json:"chosen"`
	// Within is how many candidates were within the tolerance, Best included.
	Within int `json:"within"`
}

// Select picks, among cands, the one with the smallest peak footprint whose value is at most
// (1 + tolerance) × the best value and, with several workloads, whose every workload's
// slowdown is at most (1 + tolerance) × the best's on that workload (WithinOnEach).
// tolerance must be in [0, 1).
func Select(cands []Candidate, tolerance float64) (Selection, error) {
	if err := ValidateTolerance(tolerance); err != nil {
		return Selection{}, err
	}
	var s Selection
	found := false
	for _, c := range cands {
		if !usable(c) {
			continue
		}
		if !found || c.Value < s.Best.Value || (c.Value == s.Best.Value && c.Number < s.Best.Number) {
			s.Best, found = c, true
		}
	}
	if !found {
		return Selection{}, ErrNoCandidate
	}
	limit := s.Best.Value * (1 + tolerance)
	s.Chosen = s.Best
	for _, c := range cands {
		if !usable(c) || c.Value > limit || !WithinOnEach(c.Slowdowns, s.Best.Slowdowns, tolerance) {
			continue
		}
		s.Within++
		if smallerFootprint(c, s.Chosen) {
			s.Chosen = c
		}
	}
	return s, nil
}

// WithinOnEach reports whether every workload's slowdown in slow is at most (1 + tolerance)
// × its slowdown in ref. The aggregate of several workloads (their max or mean) can hide a
// loss on one: with the two hypotheses of a rebuilt sampled export (docs/sampling.md), a
// configuration 1 % behind the best under the worse hypothesis can be 4 % behind under the
// other, and which one holds is exactly what the export does not say. So a smaller footprint
// or a parameter left alone is bought with at most the tolerance on every workload. Slowdowns
// not recorded (nil, or of another length) are not compared.
func WithinOnEach(slow, ref []float64, tolerance float64) bool {
	if len(slow) != len(ref) {
		return true
	}
	for w := range ref {
		if slow[w] > ref[w]*(1+tolerance) {
			return false
		}
	}
	return true
}

// usable guards Select against candidates not made by Candidates.
func usable(c Candidate) bool {
	return c.Value > 0 && !math.IsInf(c.Value, 0) && !math.IsNaN(c.Value)
}

// smallerFootprint orders candidates by footprint (unknown last), then value, then number.
func smallerFootprint(a, b Candidate) bool {
	fa, fb := a.PeakFootprintBytes, b.PeakFootprintBytes
	if fa == 0 {
		fa = math.MaxUint64
	}
	if fb == 0 {
		fb = math.MaxUint64
	}
	if fa != fb {
		return fa < fb
	}
	if a.Value != b.Value {
		return a.Value < b.Value
	}
	return a.Number < b.Number
}

// ValidateTolerance checks a tolerance: a fraction in [0, 1).
func ValidateTolerance(t float64) error {
	if math.IsNaN(t) || t < 0 || t >= 1 {
		return fmt.Errorf("recommend: tolerance %v is not a fraction in [0, 1) (0.01 = 1 %%)", t)
	}
	return nil
}
