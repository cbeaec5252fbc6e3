package recommend

import (
	"github.com/gctune/gctune/objective"
)

// WorkloadFigures are the recommendation's figures on one workload of several (one file
// searched under two hypotheses, or several data sizes): its run time in seconds under the
// recommendation and under the defaults, each the single simulation's or, with an uncertainty
// model, the mean over the replicas the figures are stated on.
type WorkloadFigures struct {
	// Name is the workload's name in the objective (for a sampled export: the file and the
	// hypothesis, in words).
	Name           string  `json:"name"`
	Seconds        float64 `json:"seconds"`
	DefaultSeconds float64 `json:"defaultSeconds"`
	// Speedup is DefaultSeconds over Seconds.
	Speedup float64 `json:"speedup"`
	// Slowdown is the workload's run time over its defaults', the mean over the replicas (a
	// run's slowdown against the defaults in the same run, as the objective takes it).
	Slowdown float64 `json:"slowdown"`
	// Worst is set on the workload whose Slowdown is the largest when the study minimises the
	// worst slowdown (aggregate max) and every workload is a run of its own: the one the
	// recommendation guards against. Alternative readings of one run (a sampled export's
	// hypotheses, objective.Workload.Run) are averaged, none guarded against.
	Worst bool `json:"worst,omitempty"`
}

// workloadFigures returns each workload's figures from runs (the replicas' runs the figures
// are stated on, or the single simulation): the means over them. Nil for one workload (the
// recommendation's own figures are then its seconds).
func workloadFigures(prob *objective.Problem, runs []objective.Result, final objective.Result) []WorkloadFigures {
	ws := prob.Workloads()
	if len(ws) < 2 {
		return nil
	}
	if len(runs) == 0 {
		runs = []objective.Result{final}
	}
	out := make([]WorkloadFigures, len(ws))
	worst := -1
	for i, w := range ws {
		var secs, defs, slow float64
		n := 0
		for _, r := range runs {
			if i >= len(r.Stats) || i >= len(r.Slowdowns) || !(r.Slowdowns[i] > 0) {
				continue
			}
			secs += r.Stats[i].TotalSeconds
			defs += r.Stats[i].TotalSeconds / r.Slowdowns[i] // the run's own defaults
			slow += r.Slowdowns[i]
			n++
		}
		if n == 0 {
			// No run of this workload: the profile's defaults, and nothing against them.
			defs, secs, slow, n = prob.Baseline(i).TotalSeconds, prob.Baseline(i).TotalSeconds, 1, 1
		}
		f := WorkloadFigures{Name: w.Name, Seconds: secs / float64(n), DefaultSeconds: defs / float64(n), Slowdown: slow / float64(n)}
		if f.Seconds > 0 {
			f.Speedup = f.DefaultSeconds / f.Seconds
		}
		out[i] = f
		if worst < 0 || f.Slowdown > out[worst].Slowdown {
			worst = i
		}
	}
	if prob.Settings().Aggregate != objective.AggregateMean && prob.Runs() == len(ws) && worst >= 0 {
		out[worst].Worst = true
	}
	return out
}
