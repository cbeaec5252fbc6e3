package report

import (
	"html/template"
)

// ---- the page's view: every number already formatted ---------------------------------------

type htmlPage struct {
	CSS       template.CSS
	Study     string
	Version   string
	Workloads []string
	Objective string
	// Key figures of the header.
	HasBest      bool
	Speedup      string
	SpeedupNote  string
	DefaultValue string
	BestValue    string
	BestTrial    int
	TrialLabel   string
	Trials       int
	TrialsLine   string
	Budget       string
	Config       []htmlConfigRow
	// ConfigHeading heads the configuration table's last column: what it shows.
	ConfigHeading string
	TOC           []htmlTOCEntry
	Apply         *htmlApply

	Diagnosis   *htmlDiagnosis
	Lifetimes   []htmlWorkload
	Search      htmlSearch
	Sensitivity htmlSensitivity
	Runs        []htmlRun
	Measured    *htmlMeasured
	Holds       *htmlHolds
	Sites       *htmlSites // sites.go
}

type htmlTOCEntry struct{ ID, Label string }

type htmlConfigRow struct {
	Label, VMParam, Default, Best string
	Changed                       bool
}

type htmlFigure struct {
	ID, Title, Caption string
	SVG                template.HTML
}

type htmlDiagnosis struct {
	Summary   string
	Workloads []htmlWorkloadDiagnosis
	Changes   []htmlChange
}

type htmlWorkloadDiagnosis struct {
	ID, Name                        string
	DefaultTotal, BestTotal         string
	DefaultGC, BestGC               string
	DefaultGCShare, BestGCShare     string
	Speedup                         string
	Breakdown                       []htmlBreakdownRow
	BreakdownDefault, BreakdownBest string
	Findings                        []htmlFinding
}

type htmlBreakdownRow struct {
	Name, Default, DefaultShare, Best, BestShare string
}

type htmlFinding struct {
	Title, Kind, Cost, BestCost, Fix, Remedy string
	Evidence                                 []string
}

type htmlChange struct {
	Label, Default, Best, Reverted, Penalty string
	Infeasible                              bool
}

type htmlWorkload struct {
	ID, Name   string
	Profile    *ProfileInfo
	HasSummary bool
	Facts      []htmlFact
	Classes    []htmlClassRow
	ClassNote  string
	Figures    []htmlFigure
}

type htmlFact struct{ Label, Value, Note string }

type htmlClassRow struct {
	Class, Objects, Bytes, AllocShare, ByteShare, Lifetime, LongLived string
	Other                                                             bool
}

type htmlSearch struct {
	Summary    string
	States     []htmlStateRow
	Figures    []htmlFigure
	Pareto     []htmlParetoRow
	ParetoNote string
	ValueLabel string
}

type htmlStateRow struct {
	State string
	Count int
}

type htmlParetoRow struct {
	Trial            int
	Value, Footprint string
	Speedup          string
	Best, Infeasible bool
}

type htmlSensitivity struct {
	Rows    []htmlSensitivityRow
	Figures []htmlFigure
}

type htmlSensitivityRow struct {
	Rank                     int
	Label, Effect, EffectBar string
	Best, Default, Cliff     string
}

type htmlRun struct {
	ID, Name string
	Stats    []htmlStatRow
	Figures  []htmlFigure
	HasRuns  bool
}

type htmlStatRow struct {
	Label, Default, Best, Change string
	Sub                          bool
}
