package diagnose

// Diagnosis compares the default and the best configuration and says why the best is faster.
// Every Finding carries its evidence; none is made without it.
type Diagnosis struct {
	// ValueLabel names the objective with its unit; DefaultObjective and BestObjective are its
	// values at the VM defaults and at the best trial.
	ValueLabel       string  `json:"valueLabel"`
	DefaultObjective float64 `json:"defaultObjective"`
	BestObjective    float64 `json:"bestObjective"`
	// BestFeasible is false when the configuration diagnosed is over the memory budget or runs
	// out of memory (a --trial that is not the best); BestInfeasibility says why. BestObjective
	// and RevertedObjective are always what the simulation measured, never the search's penalty.
	BestFeasible      bool   `json:"bestFeasible"`
	BestInfeasibility string `json:"bestInfeasibility,omitempty"`
	// Changes are the parameters the best configuration changes, each with the objective of
	// the best put back to the default in that one parameter, largest effect first.
	Changes []Change `json:"changes"`
	// Workloads holds one diagnosis per workload.
	Workloads []WorkloadDiagnosis `json:"workloads"`
}

// Change is one parameter that differs between the default and the best configuration.
type Change struct {
	Param string `json:"param"`
	Label string `json:"label"`
	// Bytes reports whether the values are sizes in bytes.
	Bytes        bool    `json:"bytes"`
	DefaultValue float64 `json:"defaultValue"`
	BestValue    float64 `json:"bestValue"`
	// RevertedObjective is the objective of the best configuration with this one parameter
	// put back to its default; RevertedFeasible whether that run met the budget and did not run
	// out of memory.
	RevertedObjective     float64 `json:"revertedObjective"`
	RevertedFeasible      bool    `json:"revertedFeasible"`
	RevertedInfeasibility string  `json:"revertedInfeasibility,omitempty"`
}

// WorkloadDiagnosis is the diagnosis of one workload.
type WorkloadDiagnosis struct {
	Workload string `json:"workload"`
	// Total and GC seconds of the default and the best run.
	DefaultSeconds   float64 `json:"defaultSeconds"`
	BestSeconds      float64 `json:"bestSeconds"`
	DefaultGCSeconds float64 `json:"defaultGCSeconds"`
	BestGCSeconds    float64 `json:"bestGCSeconds"`
	// Breakdown says where the GC time went, in both runs.
	Breakdown []TimeItem `json:"breakdown"`
	// Findings are the pathologies the default run shows, costliest first.
	Findings []Finding `json:"findings"`
}

// TimeItem is one part of the GC time.
type TimeItem struct {
	// Name is what the time was spent on ("copying survivors", ...).
	Name           string  `json:"name"`
	DefaultSeconds float64 `json:"defaultSeconds"`
	BestSeconds    float64 `json:"bestSeconds"`
}

// Pathology kinds a Finding can name.
const (
	// KindLargeAllocBursts: full GCs forced by large allocations that do not fit the free old
	// space (Behavior>>handleFailingBasicNew:, docs/spur-model.md §2.3).
	KindLargeAllocBursts = "large-alloc-full-gcs"
	// KindRatioLive: ratio-triggered full GCs (SpurMemoryManager>>sufficientSpaceAfterGC:) that reclaim little because the data is
	// live.
	KindRatioLive = "ratio-full-gcs-on-live-data"
	// KindRememberedSet: scavenges dominated by scanning a big remembered object (VMRememberedSet).
	KindRememberedSet = "remembered-set-scans"
	// KindPrematureTenuring: objects tenured (SpurGenerationScavenger>>copyAndForward:) that die soon after, before the next
	// full GC.
	KindPrematureTenuring = "premature-tenuring"
)

// Finding is one pathology of the default run: what it is, what it cost, the evidence, and
// the parameter change of the best configuration that removes it, confirmed by simulation.
type Finding struct {
	Kind  string `json:"kind"`
	Title string `json:"title"`
	// CostSeconds is what it cost in the default run, BestCostSeconds in the best (the measure
	// of each kind is documented at runResult.cost).
	CostSeconds     float64 `json:"costSeconds"`
	BestCostSeconds float64 `json:"bestCostSeconds"`
	// Evidence are sentences with the counts, bytes and seconds that show it.
	Evidence []string `json:"evidence"`
	// FixedBy is the parameter whose change removes it (empty when no single one does),
	// RevertedCostSeconds the cost when the best runs with that parameter put back to its
	// default.
	FixedBy             string  `json:"fixedBy"`
	FixedByLabel        string  `json:"fixedByLabel"`
	RevertedCostSeconds float64 `json:"revertedCostSeconds"`
	// Remedy says, in one or two sentences, which change removes it and how the simulation
	// confirmed it.
	Remedy string `json:"remedy"`
}

// Removed reports whether the best configuration removes the pathology rather than only
// reducing it: it pays at most goneShare of the default run's cost for it.
func (f *Finding) Removed() bool { return f.BestCostSeconds <= goneShare*f.CostSeconds }
