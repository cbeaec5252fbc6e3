package study

// ReopenWorkload opens again the one workload of study name that ref names ("": the study's
// only workload; WorkloadNamed's errors otherwise), with the fingerprint checks of
// ReopenWorkloads: the workload gctune calibrate --from-study fits the study's measured runs
// on. It returns the workload's stored reference beside it.
func (p *Problem) ReopenWorkload(name, ref string, ro ReopenOptions) (WorkloadRef, *Workloads, error) {
	idx, err := p.WorkloadNamed(name, ref)
	if err != nil {
		return WorkloadRef{}, nil, err
	}
	one := *p
	one.Workloads = p.Workloads[idx : idx+1]
	lw, err := ReopenWorkloads(&one, ro)
	if err != nil {
		return WorkloadRef{}, nil, err
	}
	return one.Workloads[0], lw, nil
}
