package study

import (
	"slices"

	"github.com/c-bata/goptuna"
	"github.com/gctune/gctune/search"
)

// SetTarget sets the study's target of trials as resume asks for it: trials (a new total,
// --trials) when above 0, else counted + more (--more, counted being the trials that count
// against the budget, search.Counted). It reports whether the target was asked for (the problem
// must then be saved).
func (p *Problem) SetTarget(trials, more, counted int) bool {
	switch {
	case more > 0:
		p.Trials = counted + more
	case trials > 0:
		p.Trials = trials
	default:
		return false
	}
	return true
}

// Finished reports whether a study's trials (all, as stored) hold its target with none running
// (what resume says instead of running nothing), and how many count against the target.
func (p *Problem) Finished(all []goptuna.FrozenTrial) (counted int, finished bool) {
	counted = search.Counted(all)
	if slices.ContainsFunc(all, func(t goptuna.FrozenTrial) bool { return t.State == goptuna.TrialStateRunning }) {
		return counted, false
	}
	return counted, counted >= p.Trials
}
