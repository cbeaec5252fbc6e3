package study

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
)

// Problem is what a study stores so that resume, export and report need nothing of the
// original command line: the workloads (reference and content fingerprint), the objective, the
// space (as configured and as constrained), the seeds, the VM facts and cost model, and the
// gctune version that created it.
type Problem struct {
	// Notes are lines the command prints about the opened workloads (not stored).
	Notes           []string       `json:"-"`
	Workloads       []WorkloadRef  `json:"workloads"`
	MaxFootprint    uint64         `json:"maxFootprintBytes"`
	Aggregate       string         `json:"aggregate"`
	ConfiguredSpace tunable.Space  `json:"configuredSpace"`
	Plan            search.Plan    `json:"plan"`
	NoSeed          bool           `json:"noSeed"`
	NoConstrain     bool           `json:"noConstrain"`
	Seed            uint64         `json:"seed"`
	Sampler         string         `json:"sampler"`
	Trials          int            `json:"trials"`
	VM              heapsim.Params `json:"vm"`
	Cost            heapsim.Cost   `json:"cost"`
	DefaultValue    float64        `json:"defaultValue"`
	Version         string         `json:"gctuneVersion"`
	// Uncertainty and Statistic are the model of the user's runs the study judges
	// configurations on, and how their replicas are reduced; a study stored before robust
	// answers has neither (the zero Model: the single simulation, the mean).
	Uncertainty uncertainty.Model `json:"uncertainty"`
	Statistic   string            `json:"statistic,omitempty"`

	// Opened says how this process read each workload (not stored): set by New and
	// Reopen.
	Opened []Opened `json:"-"`
}

// CheckClock refuses a --clock given to a command that continues the study (resume,
// worker) when it differs from the clock the study read a FiLiP workload with: the trials
// already stored were simulated on that clock. given is nil when the flag was not given. The
// error matches ErrClockMismatch.
func (p *Problem) CheckClock(given *filip.Clock) error {
	if given == nil {
		return nil
	}
	for _, w := range p.Workloads {
		if w.Kind != source.KindFiLiP {
			continue
		}
		clock, err := w.ParsedClock()
		if err != nil {
			return asInput(fmt.Errorf("workload %q of the study: %w", w.Ref, err))
		}
		if clock != *given {
			return inputErrorf(ErrClockMismatch, "--clock %s: study reads workload %q with --clock %s, and its trials were simulated so; create a new study to read it on another clock", given, w.Ref, clock)
		}
	}
	return nil
}

// WorkloadRef names a workload and fixes its content.
type WorkloadRef struct {
	// Ref is the workload as the user gave it (a bundled name, or a path as typed): its name
	// in what commands print.
	Ref string `json:"ref"`
	// Path is the absolute path of a workload file, as resolved where the study was made
	// (empty for a bundled workload, and in studies made before it was kept): resume, export,
	// explain, report and workers read the file there from any folder (ReopenWorkloads).
	Path        string  `json:"path,omitempty"`
	Kind        string  `json:"kind"`
	Seed        uint64  `json:"seed"`
	Resolution  float64 `json:"resolution"`
	Clock       string  `json:"clock"`
	SkipBadRows bool    `json:"skipBadRows"`
	// Rebuild is the rebuild mode of a sampled FiLiP export (empty: auto).
	Rebuild string `json:"rebuild,omitempty"`
	// RebuildLargeBytes is the size the unsampled large objects were cut into when the export
	// sampled none: the size whose default run reproduces the export's own full-GC count
	// (ChooseLargeBytes; 0: one object per window).
	RebuildLargeBytes uint64 `json:"rebuildLargeBytes,omitempty"`
	// Meta and SamplingRate are a FiLiP export's metadata file and sampling rate as the
	// command line gave them (--meta, --rate; empty and 0: the CSV's .json, the metadata's).
	Meta         string  `json:"meta,omitempty"`
	SamplingRate float64 `json:"samplingRate,omitempty"`
	Fingerprint  string  `json:"fingerprint"`
	// Run is set on the hypotheses of one sampled export (its reference): alternative readings
	// of one run, whose slowdowns the objective averages (objective.Workload.Run). Studies made
	// before have none: each hypothesis is then a run of its own, combined by the aggregate.
	Run string `json:"run,omitempty"`
	// Spec is the text of a workload spec file (kind spec), so that workers on machines
	// without the file can generate the same profile. Bundled workloads are in every gctune
	// binary; recorded profiles (FiLiP, .gcprof) are too large to store: workers need the
	// file at the same path, checked against the fingerprint.
	Spec string `json:"spec,omitempty"`
}

// Name is the workload's name in the objective and in what commands print: its reference,
// and for a sampled export searched under a hypothesis on the large objects the sample missed
// (filip.Hypothesis), that hypothesis in words (studies made before `stored` used
// `long`). The estimate (auto) is marked only beside another hypothesis of the same file:
// Names.
func (w WorkloadRef) Name() string {
	if h := HypothesisWords(w.Rebuild); h != "" && w.Rebuild != filip.HypothesisAuto.String() {
		return w.Ref + ", " + h
	}
	return w.Ref
}

// HypothesisWords says in plain words what a rebuild mode assumes about the large objects a
// sampled export missed ("" for none).
func HypothesisWords(rebuild string) string {
	switch rebuild {
	case filip.HypothesisAuto.String():
		return "if the large objects the sample missed live as estimated from the sample"
	case filip.HypothesisStored.String():
		return "if the large objects the sample missed live to the end and hold the long-lived small objects"
	case filip.HypothesisLong.String():
		return "if the large objects the sample missed live to the end"
	}
	return ""
}

// Names are the names of a study's workloads (Name), the estimate of a sampled export marked
// as a hypothesis too when the same file is searched under another one.
func Names(ws []WorkloadRef) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Name()
		if w.Rebuild != filip.HypothesisAuto.String() {
			continue
		}
		for _, o := range ws {
			if o.Ref == w.Ref && o.Rebuild != w.Rebuild && HypothesisWords(o.Rebuild) != "" {
				out[i] = w.Ref + ", " + HypothesisWords(w.Rebuild)
				break
			}
		}
	}
	return out
}

// WithoutSpecs returns the workloads without their spec text, for documents that name the
// workloads (the session's); `studies show --json` prints the whole problem.
func WithoutSpecs(ws []WorkloadRef) []WorkloadRef {
	out := make([]WorkloadRef, len(ws))
	for i, w := range ws {
		w.Spec = ""
		out[i] = w
	}
	return out
}

// WorkloadNames joins the workloads' references, each file once: a sampled export searched
// under two hypotheses is one file ("df.csv under 2 hypotheses").
func (p *Problem) WorkloadNames() string {
	var names []string
	count := map[string]int{}
	for _, w := range p.Workloads {
		if count[w.Ref] == 0 {
			names = append(names, w.Ref)
		}
		count[w.Ref]++
	}
	for i, n := range names {
		if c := count[n]; c > 1 {
			names[i] = fmt.Sprintf("%s under %d hypotheses", n, c)
		}
	}
	return strings.Join(names, ", ")
}

// Load reads study name's problem from store, with the study's id. A missing study is an
// input error; a study without a problem one matching ErrNoProblem; a problem holding a value
// gctune never writes (Problem.check) one matching ErrDamagedRecord.
func Load(store *trialstore.Store, name string) (int, *Problem, error) {
	st, err := trialstore.LoadStudy(store, name)
	if err != nil {
		return 0, nil, asInput(err)
	}
	var p Problem
	if err := loadProblem(store, st.ID, &p); err != nil {
		if errors.Is(err, ErrNoDoc) {
			return 0, nil, inputErrorf(ErrNoProblem, "study %q was not created by gctune optimize (no problem stored)", name)
		}
		return 0, nil, err
	}
	if err := p.check(); err != nil {
		return 0, nil, damagedRecordf("study %q: the stored problem (study attribute gctune:problem) is damaged: %w; "+
			"its trials are as they were, but gctune cannot go on with it: start a new study", name, err)
	}
	return st.ID, &p, nil
}
