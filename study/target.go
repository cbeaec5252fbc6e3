package study

import (
	"errors"
	"slices"

	"github.com/c-bata/goptuna"
	"github.com/gctune/gctune/heapsim"
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

// ReadingsOfOneRun reports whether the workloads are several readings of one run (a sampled
// export's hypotheses, WorkloadRef.Run), whose slowdowns the objective averages.
func ReadingsOfOneRun(ws []WorkloadRef) bool {
	if len(ws) < 2 || ws[0].Run == "" {
		return false
	}
	for _, w := range ws[1:] {
		if w.Run != ws[0].Run {
			return false
		}
	}
	return true
}

// Seconds reports whether the study's values are seconds (one workload) rather than slowdowns
// over the defaults (objective.Problem.ValueUnit).
func (p *Problem) Seconds() bool { return len(p.Workloads) == 1 }

// ErrWhichWorkload is matched by WorkloadNamed's errors: no workload of that name, or several
// and none named.
var ErrWhichWorkload = errors.New("study: which workload")

// WorkloadNamed is the index of the study's workload ref (as the user gave it), or of its only
// workload when ref is ""; an input error matching ErrWhichWorkload otherwise, naming study
// name and its workloads.
func (p *Problem) WorkloadNamed(name, ref string) (int, error) {
	idx := -1
	for i, wr := range p.Workloads {
		if ref == "" || wr.Ref == ref {
			if idx >= 0 && ref == "" {
				return -1, inputErrorf(ErrWhichWorkload, "study %q has several workloads: name the one the runs are of", name)
			}
			idx = i
		}
	}
	if idx < 0 {
		return -1, inputErrorf(ErrWhichWorkload, "study %q has no workload %q (it has %s)", name, ref, p.WorkloadNames())
	}
	return idx, nil
}

// ErrCostDiffers is matched by CheckCost's error.
var ErrCostDiffers = errors.New("study: cost model differs")

// CheckCost refuses a cost model (from file) other than the one study name was created with:
// its trials' times would not compare with the study's.
func (p *Problem) CheckCost(c heapsim.Cost, file, name string) error {
	if c != p.Cost {
		return inputErrorf(ErrCostDiffers, "cost %s differs from the cost model study %q was created with: its trials' times would not compare (drop --cost to use the study's, or create a new study with it)", file, name)
	}
	return nil
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
