package trialattr

import "github.com/c-bata/goptuna"

// User attributes written on every evaluated trial (package search). Values are strings
// (goptuna): numbers in Go's shortest 'g' format, booleans as "true" and "false", lists as
// JSON.
const (
	// Feasible is "false" on a trial whose configuration broke a constraint (a memory budget):
	// it still has a value, but Best and ParetoFront skip it and the samplers rank it last.
	Feasible = "feasible"
	// Infeasibility says which constraint an infeasible trial broke; absent on feasible trials.
	Infeasibility = "infeasibility"
	TotalSeconds  = "total_seconds"
	GCSeconds     = "gc_seconds"
	GCShare       = "gc_share"
	Scavenges     = "scavenges"
	FullGCs       = "full_gcs"
	// Footprint is the peak footprint in bytes, the second objective of ParetoFront.
	Footprint    = "peak_footprint_bytes"
	TenuredBytes = "tenured_bytes"
	Speedup      = "speedup"
	// Slowdowns is the JSON list of the trial's slowdown on each workload.
	Slowdowns = "slowdowns"
	// Worker is the number of the worker that ran the trial.
	Worker = "worker"
	// Replicas is the JSON list of the trial's value on each replica it was judged on
	// (objective.Result.Replicas); absent for a trial judged on the single simulation.
	Replicas = "replicas"
)

// Reaped is the system attribute that is "true" on a trial the reaper (trialstore.Reap) marked
// FAIL because its worker stopped beating; its parameters were queued again in a new WAITING
// trial, so it does not count against the study's budget.
const Reaped = "gctune:reaped"

// Infeasible reports whether t is marked infeasible (user attribute Feasible "false").
func Infeasible(t goptuna.FrozenTrial) bool { return t.UserAttrs[Feasible] == "false" }

// IsReaped reports whether t is a trial the reaper failed and queued again: FAIL, with system
// attribute Reaped "true".
func IsReaped(t goptuna.FrozenTrial) bool {
	return t.State == goptuna.TrialStateFail && t.SystemAttrs[Reaped] == "true"
}
