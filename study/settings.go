package study

import (
	"cmp"

	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/uncertainty"
)

// The problem keeps its clock, rebuild hypothesis and statistic by name, as configured
// ("bytes", "stored", "p90"), so that a study's record reads the same in any gctune. These
// accessors are the one place the names are parsed back: every use of the stored values
// (opening the workloads, the objective, the check of --clock) goes through them.

// ParsedClock is the clock the study reads the workload's FiLiP export on (Clock parsed).
func (w WorkloadRef) ParsedClock() (filip.Clock, error) { return filip.ParseClock(w.Clock) }

// ParsedRebuild is the rebuild hypothesis the study reads a sampled export under (Rebuild
// parsed; empty is auto).
func (w WorkloadRef) ParsedRebuild() (filip.Hypothesis, error) {
	return filip.ParseHypothesis(w.Rebuild)
}

// ParsedStatistic is what the problem reduces each configuration's replicas to (Statistic
// parsed; a study stored before robust answers has none: the mean).
func (p *Problem) ParsedStatistic() (uncertainty.Statistic, error) {
	return uncertainty.ParseStatistic(cmp.Or(p.Statistic, "mean"))
}
