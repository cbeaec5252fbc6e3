package report

import (
	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/pretenure"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/tunable"
)

// Report is everything the HTML report and the figures show. Build fills it; nothing in it
// refers to files, storage or the clock, so a Report renders the same way every time.
type Report struct {
	// Study is the study's name; Version the gctune version that built the report.
	Study   string `json:"study"`
	Version string `json:"version"`
	// Search is the study's trials.
	Search Search `json:"search"`
	// Workloads are the study's workloads, in the study's order.
	Workloads []Workload `json:"workloads"`
	// Sensitivity holds one sweep per parameter, ranked by effect (largest first).
	Sensitivity []diagnose.Sweep `json:"sensitivity"`
	// Comparisons holds, per workload, the default and the best run with their event logs.
	Comparisons []Comparison `json:"comparisons"`
	// Diagnosis compares default and best (also printed by gctune explain).
	Diagnosis *diagnose.Diagnosis `json:"diagnosis"`
	// Measured is the study's latest gctune verify session, nil without one (measured.go).
	Measured *Measured `json:"measured,omitempty"`
	// Recommendation is how the reported configuration was chosen (nil for an explicit
	// trial): "best" in this report is the recommended configuration.
	Recommendation *recommend.Recommendation `json:"recommendation,omitempty"`
	// Apply says how to apply the reported configuration in Pharo.
	Apply *Apply `json:"apply"`
	// Holds is the landscape around the recommendation (diagnose/holds.go), nil for an explicit trial.
	Holds *diagnose.Holds `json:"holds,omitempty"`
	// Sites attributes the cost at the defaults to allocation sites, and Pretenure is the
	// pretenuring advice on top of the recommendation (sites.go, docs/sites.md); both nil
	// when no workload names sites.
	Sites     []pretenure.WorkloadSites `json:"sites,omitempty"`
	Pretenure *pretenure.Advice         `json:"pretenure,omitempty"`
}

// Trial is one trial of the study as the report draws it.
type Trial struct {
	Number int `json:"number"`
	// State is "complete", "fail", "pruned", "running" or "waiting".
	State string `json:"state"`
	// Value is the objective (seconds, or a slowdown for several workloads); it is only
	// meaningful for complete trials.
	Value    float64 `json:"value"`
	Feasible bool    `json:"feasible"`
	// PeakFootprintBytes is the largest footprint the trial's runs reached (0 if unknown).
	PeakFootprintBytes uint64        `json:"peakFootprintBytes"`
	Point              tunable.Point `json:"point"`
}

// Search is the study's trials and what they are measured against.
type Search struct {
	// ValueLabel names the objective with its unit, for axes ("run time (s)").
	ValueLabel string `json:"valueLabel"`
	// DefaultPoint is the VM defaults as a point of the space; DefaultValue the objective there
	// and DefaultFootprintBytes their peak footprint.
	DefaultPoint          tunable.Point `json:"defaultPoint"`
	DefaultValue          float64       `json:"defaultValue"`
	DefaultFootprintBytes uint64        `json:"defaultFootprintBytes"`
	// MaxFootprintBytes is the memory budget (0: none).
	MaxFootprintBytes uint64 `json:"maxFootprintBytes"`
	// Trials are all the study's trials, by number.
	Trials []Trial `json:"trials"`
	// Best is the best feasible complete trial; Pareto the complete trials on the
	// time-footprint Pareto front, by footprint.
	Best   Trial   `json:"best"`
	Pareto []Trial `json:"pareto"`
}

// Workload is one workload's lifetime analysis.
type Workload struct {
	Name    string             `json:"name"`
	Summary *lifetimes.Summary `json:"summary"`
	// Linear is the lifetime histogram on a linear scale (the density charts of [IWST23-L]), Log the
	// same on a log scale, which resolves the short-lived mode.
	Linear *lifetimes.Histogram `json:"linear"`
	Log    *lifetimes.Histogram `json:"log"`
	// Profile says how the profile was read (Input.Profiles), nil when not given.
	Profile *ProfileInfo `json:"profile,omitempty"`
}

// LivePoint is the bytes alive at one time of the run (bytes clock).
type LivePoint struct {
	ClockBytes uint64 `json:"clockBytes"`
	LiveBytes  uint64 `json:"liveBytes"`
}

// Comparison is the default and the best run of one workload, over the run.
type Comparison struct {
	Workload string `json:"workload"`
	// EndBytes is the run's length on the bytes clock.
	EndBytes uint64       `json:"endBytes"`
	Default  diagnose.Run `json:"default"`
	Best     diagnose.Run `json:"best"`
	// Live is the application's live bytes over the run (the same for both runs; the image
	// is not included).
	Live []LivePoint `json:"live"`
}
