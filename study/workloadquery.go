package study

import "errors"

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
