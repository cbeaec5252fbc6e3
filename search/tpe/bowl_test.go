package tpe

import (
	"fmt"
	"math"
	"sort"

	"github.com/c-bata/goptuna"
)

// The shifted bowl shared by the TPE quality test and the sampler benchmark (and mirrored by
// scripts/bench_samplers_bowl.py): five parameters, x0..x3 uniform on [-5, 5] and x4
// log-uniform on [1e-5, 1e5], minimised at x = (1.5, -2, 3, -0.5, 100), where
//
//	f(x) = sum_{i<4} (x_i - c_i)^2 + (log10 x4 - 2)^2
//
// so that in TPE's internal space (log for x4) it is a sum of squares in a box of side 10 with
// the optimum off-centre; its minimum is 0.
var bowlCentre = [4]float64{1.5, -2, 3, -0.5}

const (
	bowlLogLow, bowlLogHigh = 1e-5, 1e5
	bowlLogCentre           = 2.0 // log10 of x4's optimum
)

// bowl is the objective of the shifted bowl.
func bowl(trial goptuna.Trial) (float64, error) {
	f := 0.0
	for i, c := range bowlCentre {
		x, err := trial.SuggestFloat(fmt.Sprintf("x%d", i), -5, 5)
		if err != nil {
			return 0, err
		}
		f += (x - c) * (x - c)
	}
	x4, err := trial.SuggestLogFloat("x4", bowlLogLow, bowlLogHigh)
	if err != nil {
		return 0, err
	}
	d := math.Log10(x4) - bowlLogCentre
	return f + d*d, nil
}

// runBowl runs nTrials of the bowl in an in-memory study with the given samplers (rel may be
// nil) and returns the best value after each trial (running minimum), one entry per trial.
func runBowl(s goptuna.Sampler, rel goptuna.RelativeSampler, nTrials int) ([]float64, error) {
	opts := []goptuna.StudyOption{goptuna.StudyOptionSampler(s), goptuna.StudyOptionLogger(nil)}
	if rel != nil {
		opts = append(opts, goptuna.StudyOptionRelativeSampler(rel))
	}
	study, err := goptuna.CreateStudy("bowl", opts...)
	if err != nil {
		return nil, err
	}
	if err := study.Optimize(bowl, nTrials); err != nil {
		return nil, err
	}
	trials, err := study.GetTrials()
	if err != nil {
		return nil, err
	}
	sort.Slice(trials, func(i, j int) bool { return trials[i].Number < trials[j].Number })
	best := make([]float64, len(trials))
	run := math.Inf(1)
	for i, t := range trials {
		if t.State == goptuna.TrialStateComplete && t.Value < run {
			run = t.Value
		}
		best[i] = run
	}
	return best, nil
}

// median returns the median of v (the mean of the middle two for an even count).
func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return 0.5 * (s[n/2-1] + s[n/2])
}
