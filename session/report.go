package session

import (
	"cmp"
	"fmt"
	"io"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialattr"
)

// Report is what a session gives back as optimize, resume and worker state it: the study, the
// trials run and finished against the target, the search's fastest trial, and the
// recommendation made from the trials (set by the caller, Recommendation). It is the JSON
// document those commands print (--json; the command line adds how each profile was read) and
// writes itself for a terminal (WriteText).
type Report struct {
	Study     string              `json:"study"`
	Storage   string              `json:"storage"`
	Workloads []study.WorkloadRef `json:"workloads"`
	// WorkloadNames name the workloads in words, in the same order (a sampled export's
	// hypotheses: study.Names); Aggregate combines their slowdowns (several workloads).
	WorkloadNames []string `json:"workloadNames"`
	Aggregate     string   `json:"aggregate,omitempty"`
	Reaped        []int    `json:"reaped,omitempty"`
	TrialsRun     int      `json:"trialsRun"`
	Finished      int      `json:"finished"`
	Target        int      `json:"target"`
	Interrupted   bool     `json:"interrupted,omitempty"`
	// DefaultValue is the defaults' value as the search measures trials: on SearchRuns.
	DefaultValue float64 `json:"defaultValue"`
	SearchRuns   string  `json:"searchRuns"`
	// Best is the search's fastest trial, its value on SearchRuns: not the headline, which is
	// the Recommendation's forecast.
	Best *study.Best `json:"best,omitempty"`
	// Recommendation is what export writes (optimize and resume only).
	Recommendation *recommend.Recommendation `json:"recommendation,omitempty"`
	Plan           search.Plan               `json:"plan"`
	// Beside are lines stated after the fastest trial, one per workload in the problem's order
	// ("" for none): the caller's word on how each profile's simulated default run compares
	// with the profiled run. Not in the document (the command line's profiles say it there).
	Beside []string `json:"-"`

	// seconds says the values are seconds (one workload), not slowdowns (study.Problem.Seconds).
	seconds bool
}

// NewReport describes the outcome res of a session on study name, stored at storage (the
// store's URL, as stated), whose problem is sp with objective prob. Its Recommendation and
// Beside are the caller's to set.
func NewReport(res Result, name, storage string, sp *study.Problem, prob *objective.Problem) Report {
	r := Report{Study: name, Storage: storage, Workloads: study.WithoutSpecs(sp.Workloads), WorkloadNames: study.Names(sp.Workloads),
		Reaped: res.Reaped, TrialsRun: res.Ran, Finished: res.Finished, Target: res.Target,
		Interrupted: res.Status == search.StatusInterrupted, DefaultValue: prob.DefaultValue(), SearchRuns: prob.SearchRuns(),
		Plan: sp.Plan, seconds: sp.Seconds()}
	if len(sp.Workloads) > 1 {
		r.Aggregate = cmp.Or(sp.Aggregate, string(objective.AggregateMax))
	}
	if res.HasBest {
		r.Best = study.NewBest(res.Best, prob.DefaultValue())
	}
	return r
}

// StoppedShort says why a session that a signal stopped before the study held its target is
// short of it, and how to go on: "" for a session that was not interrupted or that reached
// the target anyway.
func (r *Report) StoppedShort() string {
	if !r.Interrupted || r.Finished >= r.Target {
		return ""
	}
	return fmt.Sprintf("study %s holds %d of %d trials, each finished one stored: go on with gctune resume %s",
		termtext.Quote(r.Study), r.Finished, r.Target, termtext.Shell(r.Study))
}

// WriteText writes the report for a terminal: the trials run and finished, the
// recommendation (its own text, recommend.Recommendation.WriteText), the search's fastest
// trial labelled as what it is, the lines Beside, and the command that applies the
// recommendation (or explains why the defaults are kept).
func (r *Report) WriteText(w io.Writer) error {
	ew := errwriter.New(w)
	state := ""
	if r.Interrupted {
		state = ", interrupted"
	}
	ew.Printf("study %s: %d trials run now, %d of %d finished%s\n", termtext.Quote(r.Study), r.TrialsRun, r.Finished, r.Target, state)
	if r.Best == nil {
		ew.Printf("no feasible trial yet\n")
		return ew.Err()
	}
	// The headline is the recommendation's forecast; the search's fastest trial and each
	// profile's default run are labelled as what they are, on their own lines.
	if rec := r.Recommendation; rec != nil {
		if err := rec.WriteText(w, r.seconds); err != nil {
			return err
		}
	}
	b := r.Best
	metrics := trialattr.MetricsOf(b.Metrics).Text()
	ew.Printf("the search's fastest trial: trial %d, %s\n", b.Number, recommend.DescribePoint(b.Point))
	if r.seconds {
		ew.Printf("  %s against %s with the defaults, %s faster, on %s; %s\n", numfmt.SecondsText(b.Value),
			numfmt.SecondsText(r.DefaultValue), numfmt.Speedup(b.Speedup), r.SearchRuns, metrics)
	} else {
		how := "on the slower workload"
		switch {
		case study.ReadingsOfOneRun(r.Workloads):
			how = fmt.Sprintf("on average over the %d readings of the run", len(r.Workloads))
		case r.Aggregate == string(objective.AggregateMean):
			how = "on average over the workloads"
		}
		ew.Printf("  a run time %s the defaults' %s, %s faster, on %s; %s\n", numfmt.Ratio(b.Value), how,
			numfmt.Speedup(b.Speedup), r.SearchRuns, metrics)
	}
	for i, line := range r.Beside {
		if line == "" {
			continue
		}
		label := ""
		if i < len(r.Workloads) {
			label = r.Workloads[i].Ref
		}
		if i < len(r.WorkloadNames) {
			label = r.WorkloadNames[i]
		}
		ew.Printf("%s: %s\n", label, line)
	}
	if rec := r.Recommendation; rec != nil && rec.KeepDefaults {
		ew.Printf("see why: gctune explain %s\n", termtext.Shell(r.Study))
		return ew.Err()
	}
	ew.Printf("apply it: gctune export %s --format st > gctune-gc.st\n", termtext.Shell(r.Study))
	return ew.Err()
}
