package pretenure

import (
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/uncertainty"
)

// MaxCandidates bounds Options.Candidates for a caller that takes it from a user: each
// candidate is K more simulations.
const MaxCandidates = 20

// JudgeModel is the uncertainty model gctune pretenure judges a profile on: m (the
// configuration's, Model{} when it is off) with replicas perturbed runs when replicas > 0 (the
// default model's perturbations when m is off), and no search replicas (Advise runs no search).
func JudgeModel(m uncertainty.Model, replicas int) uncertainty.Model {
	if replicas > 0 {
		if m.Off() {
			m = uncertainty.Default()
		}
		m.Replicas = replicas
	}
	m.SearchReplicas = 0
	return m
}

// NewProblem is the objective problem gctune pretenure advises on: workload w at the VM
// facts vm with cost, judged on JudgeModel(m, replicas) drawn from seed.
func NewProblem(w objective.Workload, cost heapsim.Cost, vm heapsim.Params, m uncertainty.Model, replicas int, seed uint64) (*objective.Problem, error) {
	return objective.NewProblem([]objective.Workload{w}, cost, vm, objective.Settings{Uncertainty: JudgeModel(m, replicas), Seed: seed})
}
