package objective

import (
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/uncertainty"
)

// Spread is a configuration and the defaults judged on the replicas of an uncertainty model:
// what `gctune simulate --replicas` states beside the single simulation.
type Spread struct {
	Model uncertainty.Model `json:"model"`
	Seed  uint64            `json:"seed"`
	// Default and Given are each replica's total seconds; Speedups each replica's default
	// over given (paired). Mean* are the means, *Interval the prediction intervals at
	// uncertainty.DefaultCoverage.
	Default         []float64            `json:"default"`
	Given           []float64            `json:"given"`
	Speedups        []float64            `json:"speedups"`
	MeanDefault     float64              `json:"meanDefault"`
	MeanGiven       float64              `json:"meanGiven"`
	DefaultInterval uncertainty.Interval `json:"defaultInterval"`
	GivenInterval   uncertainty.Interval `json:"givenInterval"`
	Feasible        bool                 `json:"feasible"`
}

// JudgeSpread judges given and the defaults (base) on model's replicas (drawn from seed) of
// profile p, named name, under cost. Its errors are the problem's (an invalid model, invalid
// parameters) or the simulator's.
func JudgeSpread(name string, p *profile.Profile, cost heapsim.Cost, base, given heapsim.Params,
	model uncertainty.Model, seed uint64) (*Spread, error) {
	prob, err := NewProblem([]Workload{{Name: name, Profile: p}}, cost, base, Settings{Uncertainty: model, Seed: seed})
	if err != nil {
		return nil, err
	}
	res, err := prob.EvaluateRobust(given)
	if err != nil {
		return nil, err
	}
	_, defaults, err := prob.RobustDefault()
	if err != nil {
		return nil, err
	}
	stat := uncertainty.Statistic{}
	return &Spread{Model: model, Seed: seed, Default: defaults, Given: res.Replicas,
		Speedups: res.ReplicaSpeedups, MeanDefault: stat.Reduce(defaults), MeanGiven: stat.Reduce(res.Replicas),
		DefaultInterval: uncertainty.PredictionInterval(defaults, uncertainty.DefaultCoverage),
		GivenInterval:   uncertainty.PredictionInterval(res.Replicas, uncertainty.DefaultCoverage),
		Feasible:        res.Feasible}, nil
}
