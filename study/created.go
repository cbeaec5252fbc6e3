package study

import "github.com/gctune/gctune/profile/source"

// CreatedWorkload is one workload of a study just created, as `study create` states it: how
// workers will find it.
type CreatedWorkload struct {
	Ref         string `json:"ref"`
	Kind        string `json:"kind"`
	Fingerprint string `json:"fingerprint"`
	// Stored is true when the study holds the workload's content (a spec's text); a bundled
	// workload is in every gctune; otherwise workers need the file at Ref.
	Stored bool `json:"stored"`
}

// CreatedWorkloads are p's workloads as CreatedWorkload, in p's order.
func (p *Problem) CreatedWorkloads() []CreatedWorkload {
	var out []CreatedWorkload
	for _, wl := range p.Workloads {
		out = append(out, CreatedWorkload{Ref: wl.Ref, Kind: wl.Kind, Fingerprint: wl.Fingerprint, Stored: wl.Spec != ""})
	}
	return out
}

// HowWorkersFindIt says how a worker on another machine gets the workload: its text is stored
// with the study, it is bundled with gctune, or the worker needs the file at this path.
func (w CreatedWorkload) HowWorkersFindIt() string {
	switch {
	case w.Stored:
		return "its text is stored with the study"
	case w.Kind == source.KindWorkload:
		return "bundled with gctune"
	}
	return "workers need this file at this path"
}
