package study

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
