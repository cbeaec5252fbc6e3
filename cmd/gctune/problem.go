package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/studies"
	"github.com/gctune/gctune/uncertainty"
)

// studyProblem is what a study stores so that resume, export and report need nothing of the
// original command line: the workloads (reference and content fingerprint), the objective, the
// space (as configured and as constrained), the seeds, the VM facts and cost model, and the
// gctune version that created it.
type studyProblem struct {
	// notes are lines the command prints about the opened workloads (not stored).
	notes           []string
	Workloads       []workloadRef  `json:"workloads"`
	MaxFootprint    uint64         `json:"maxFootprintBytes"`
	Aggregate       string         `json:"aggregate"`
	ConfiguredSpace search.Space   `json:"configuredSpace"`
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

	// profiles says how this process read each workload (not stored).
	profiles []profileInfoDoc
}

// checkClockFlag refuses a --clock given to a command that continues the study (resume,
// worker) when it differs from the clock the study read a FiLiP workload with: the trials
// already stored were simulated on that clock. clock is "" when the flag was not given.
func (sp *studyProblem) checkClockFlag(clock string) error {
	if clock == "" {
		return nil
	}
	for _, w := range sp.Workloads {
		if w.Kind == source.KindFiLiP && w.Clock != clock {
			return usageErrorf("--clock %s: study reads workload %q with --clock %s, and its trials were simulated so; create a new study to read it on another clock", clock, w.Ref, w.Clock)
		}
	}
	return nil
}

// clockFlag returns --clock's value when it was given on the command line, else "".
func clockFlag(cmd *cobra.Command) string {
	if f := cmd.Flags().Lookup("clock"); f != nil && f.Changed {
		return f.Value.String()
	}
	return ""
}

// workloadRef names a workload and fixes its content.
type workloadRef struct {
	Ref         string  `json:"ref"`
	Kind        string  `json:"kind"`
	Seed        uint64  `json:"seed"`
	Resolution  float64 `json:"resolution"`
	Clock       string  `json:"clock"`
	SkipBadRows bool    `json:"skipBadRows"`
	// Rebuild is the rebuild mode of a sampled FiLiP export (empty: auto).
	Rebuild string `json:"rebuild,omitempty"`
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

// name is the workload's name in the objective and in what commands print: its reference,
// and for a sampled export searched under a hypothesis on the large objects the sample missed
// (filip.Hypothesis), that hypothesis in words (studies made before `stored` used
// `long`). The estimate (auto) is marked only beside another hypothesis of the same file:
// workloadNames.
func (w workloadRef) name() string {
	if h := hypothesisWords(w.Rebuild); h != "" && w.Rebuild != filip.HypothesisAuto.String() {
		return w.Ref + ", " + h
	}
	return w.Ref
}

// hypothesisWords says in plain words what a rebuild mode assumes about the large objects a
// sampled export missed ("" for none).
func hypothesisWords(rebuild string) string {
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

// workloadNames are the names of a study's workloads (name), the estimate of a sampled export
// marked as a hypothesis too when the same file is searched under another one.
func workloadNames(ws []workloadRef) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.name()
		if w.Rebuild != filip.HypothesisAuto.String() {
			continue
		}
		for _, o := range ws {
			if o.Ref == w.Ref && o.Rebuild != w.Rebuild && hypothesisWords(o.Rebuild) != "" {
				out[i] = w.Ref + ", " + hypothesisWords(w.Rebuild)
				break
			}
		}
	}
	return out
}

// maxStoredSpec bounds the spec text a study stores (specs are a few kB).
const maxStoredSpec = 256 << 10

func (w workloadRef) openOptions() (source.Options, error) {
	clock, err := filip.ParseClock(w.Clock)
	if err != nil {
		return source.Options{}, err
	}
	rebuild, err := filip.ParseHypothesis(w.Rebuild)
	if err != nil {
		return source.Options{}, err
	}
	return source.Options{Seed: w.Seed, Resolution: w.Resolution, Clock: clock, SkipBadRows: w.SkipBadRows, Rebuild: rebuild,
		FiLiPJSONPath: w.Meta, SamplingRate: w.SamplingRate}, nil
}

// loadedWorkloads are the opened profiles of a problem.
type loadedWorkloads struct {
	refs      []workloadRef
	workloads []objective.Workload
	summaries []*lifetimes.Summary
	// profiles says how each profile was read (printProfileInfo).
	profiles []profileInfoDoc
	// notes are one line per workload worth telling (a sampled export's rebuild).
	notes []string
}

// openWorkloads opens each reference, fingerprints it and summarises it.
func openWorkloads(refs []string, cfg Config) (*loadedWorkloads, error) {
	opts, err := cfg.openOptions()
	if err != nil {
		return nil, err
	}
	if opts.FiLiPJSONPath != "" && len(refs) > 1 {
		return nil, usageErrorf("--meta %s names one export's metadata, and there are %d workloads: give each export its .json beside it", opts.FiLiPJSONPath, len(refs))
	}
	rebuild := opts.Rebuild
	lw := &loadedWorkloads{}
	add := func(ref string, opts source.Options, p *profile.Profile, info *source.Info) error {
		fp, err := source.Fingerprint(ref, opts)
		if err != nil {
			return asUsage(err)
		}
		sum, err := lifetimes.Summarize(p, lifetimes.AnalysisOptions{LongLivedThreshold: cfg.Lifetimes.LongLivedThreshold})
		if err != nil {
			return asUsage(err)
		}
		wr := workloadRef{Ref: ref, Kind: info.Kind, Seed: opts.Seed, Resolution: opts.Resolution,
			Clock: cfg.Lifetimes.Clock, SkipBadRows: opts.SkipBadRows, Fingerprint: fp}
		if info.Kind == source.KindFiLiP {
			wr.Rebuild = opts.Rebuild.String()
			wr.Meta, wr.SamplingRate = opts.FiLiPJSONPath, opts.SamplingRate
		}
		if info.Kind == source.KindSpec {
			if text, err := os.ReadFile(ref); err == nil && len(text) <= maxStoredSpec {
				wr.Spec = string(text)
			}
		}
		lw.refs = append(lw.refs, wr)
		lw.workloads = append(lw.workloads, objective.Workload{Name: wr.name(), Profile: p})
		lw.summaries = append(lw.summaries, sum)
		lw.profiles = append(lw.profiles, newProfileInfo(info, p))
		return nil
	}
	for _, ref := range refs {
		if err := refuseStreamProfile(ref, opts); err != nil {
			return nil, err
		}
		p, info, err := source.Open(ref, opts)
		if err != nil {
			return nil, asUsage(err)
		}
		if err := add(ref, opts, p, info); err != nil {
			return nil, err
		}
		r := info.Rebuild
		if r == nil {
			continue
		}
		lw.notes = append(lw.notes, fmt.Sprintf("%s: %s", ref, r))
		if rebuild != filip.HypothesisAuto || r.InferredLarge == 0 {
			continue
		}
		// The unsampled large objects' lifetimes are not in the export, nor what points to
		// what: the search weighs the estimate and the other extreme, every one living to the
		// end and receiving the long-lived small objects (remembered-set scans), as two
		// workloads.
		other := opts
		other.Rebuild = filip.HypothesisStored
		p, info, err = source.Open(ref, other)
		if err != nil {
			return nil, asUsage(err)
		}
		if err := add(ref, other, p, info); err != nil {
			return nil, err
		}
		// Two readings of one run: the objective averages their slowdowns.
		for _, k := range []int{len(lw.refs) - 2, len(lw.refs) - 1} {
			lw.refs[k].Run = ref
			lw.workloads[k].Run = ref
		}
		lw.notes = append(lw.notes, fmt.Sprintf("%s: the lifetimes of the %d large objects the sample missed are unknown, and a FiLiP export records no pointers: the search weighs two hypotheses, by the mean of their slowdowns (two readings of one run): %s (%s; --rebuild auto), and %s (%s; --rebuild stored); --rebuild short|long|stored searches one",
			ref, r.InferredLarge, hypothesisWords(filip.HypothesisAuto.String()), unnest(r.Hypothesis),
			hypothesisWords(filip.HypothesisStored.String()), storedSummary(info.Rebuild)))
	}
	for i, n := range workloadNames(lw.refs) {
		lw.workloads[i].Name = n
	}
	return lw, nil
}

// reopenOptions say how reopenWorkloads treats workloads that differ from the study's.
type reopenOptions struct {
	// force opens a workload file whose content changed since the study began (resume
	// --force).
	force bool
	// preferStored generates spec workloads from the spec text stored with the study even
	// when the file is present (workers: the study, not the local file, defines the problem).
	// Without it the stored text is used only when the file is missing.
	preferStored bool
	// worker words the errors for `gctune worker`.
	worker bool
	// clock, when not "" nor "auto", reads FiLiP workloads on this clock instead of the
	// study's (report, explain: --clock). The fingerprint is still checked with the study's.
	clock string
}

// reopenWorkloads opens a stored problem's workloads and checks that none changed since the
// study began (unless force).
func reopenWorkloads(sp *studyProblem, force bool, threshold float64) (*loadedWorkloads, error) {
	return reopenWorkloadsWith(sp, reopenOptions{force: force}, threshold)
}

func reopenWorkloadsWith(sp *studyProblem, ro reopenOptions, threshold float64) (*loadedWorkloads, error) {
	lw := &loadedWorkloads{}
	for _, w := range sp.Workloads {
		opts, err := w.openOptions()
		if err != nil {
			return nil, asUsage(err)
		}
		path, cleanup, err := w.source(ro.preferStored)
		if err != nil {
			return nil, err
		}
		p, err := func() (*profile.Profile, error) {
			defer cleanup()
			fp, err := source.Fingerprint(path, opts)
			if err != nil {
				if ro.worker {
					return nil, asUsage(fmt.Errorf("workload %q of the study: %w (a worker needs the same file at the same path)", w.Ref, err))
				}
				return nil, asUsage(fmt.Errorf("workload %q of the study: %w", w.Ref, err))
			}
			switch {
			case fp == w.Fingerprint:
			case path != w.Ref && (ro.worker || !ro.force):
				return nil, usageErrorf("workload %q: the spec stored with the study gives fingerprint %.12s, not the study's %.12s (a gctune that reads specs differently?)", w.Ref, fp, w.Fingerprint)
			case ro.worker:
				return nil, usageErrorf("workload %q differs from the study's (fingerprint %.12s, the study's %.12s): every worker needs the same workload (same file, or a gctune whose bundled workload is the same)", w.Ref, fp, w.Fingerprint)
			case !ro.force:
				return nil, usageErrorf("workload %q changed since the study began (fingerprint %.12s, now %.12s): pass --force to use it anyway", w.Ref, w.Fingerprint, fp)
			}
			if ro.clock != "" && ro.clock != "auto" && w.Kind == source.KindFiLiP {
				if opts.Clock, err = filip.ParseClock(ro.clock); err != nil {
					return nil, asUsage(err)
				}
			}
			p, info, err := source.Open(path, opts)
			if err != nil {
				return nil, asUsage(err)
			}
			d := newProfileInfo(info, p)
			d.Ref = w.Ref
			if ro.clock != "" && ro.clock != "auto" && w.Kind == source.KindFiLiP && ro.clock != w.Clock {
				d.ClockReason += fmt.Sprintf("; the study read it with --clock %s", w.Clock)
				d.Line = formatProfileLine(d)
			}
			lw.profiles = append(lw.profiles, d)
			return p, nil
		}()
		if err != nil {
			return nil, err
		}
		sum, err := lifetimes.Summarize(p, lifetimes.AnalysisOptions{LongLivedThreshold: threshold})
		if err != nil {
			return nil, asUsage(err)
		}
		lw.refs = append(lw.refs, w)
		lw.workloads = append(lw.workloads, objective.Workload{Name: w.name(), Profile: p, Run: w.Run})
		lw.summaries = append(lw.summaries, sum)
	}
	for i, n := range workloadNames(lw.refs) {
		lw.workloads[i].Name = n
	}
	return lw, nil
}

// source returns the path to open the workload from: its reference, or, for a spec whose text
// the study stores, a temporary copy of that text when preferStored is set or the file is
// missing (cleanup removes it).
func (w workloadRef) source(preferStored bool) (path string, cleanup func(), err error) {
	cleanup = func() {}
	if w.Kind != source.KindSpec || w.Spec == "" {
		return w.Ref, cleanup, nil
	}
	if !preferStored {
		if _, err := os.Stat(w.Ref); err == nil {
			return w.Ref, cleanup, nil
		}
	}
	dir, err := os.MkdirTemp("", "gctune-spec-")
	if err != nil {
		return "", cleanup, err
	}
	cleanup = func() { _ = os.RemoveAll(dir) }
	// The same base name: its extension tells source.Open that it is a spec.
	path = filepath.Join(dir, filepath.Base(w.Ref))
	if err := os.WriteFile(path, []byte(w.Spec), 0o600); err != nil {
		cleanup()
		return "", func() {}, err
	}
	return path, cleanup, nil
}

// withoutSpecs returns the workloads without their spec text, for documents that name the
// workloads (the session's); `studies show --json` prints the whole problem.
func withoutSpecs(ws []workloadRef) []workloadRef {
	out := make([]workloadRef, len(ws))
	for i, w := range ws {
		w.Spec = ""
		out[i] = w
	}
	return out
}

// newObjective builds the objective.Problem of a stored problem.
func (sp *studyProblem) newObjective(lw *loadedWorkloads) (*objective.Problem, error) {
	stat, err := uncertainty.ParseStatistic(cmp.Or(sp.Statistic, "mean"))
	if err != nil {
		return nil, asUsage(err)
	}
	prob, err := objective.NewProblem(lw.workloads, sp.Cost, sp.VM, objective.Settings{
		MaxFootprintBytes: sp.MaxFootprint, Aggregate: objective.Aggregate(sp.Aggregate),
		Uncertainty: sp.Uncertainty, Statistic: stat, Seed: sp.Seed})
	if err != nil {
		return nil, asUsage(err)
	}
	return prob, nil
}

// workloadNames joins the workloads' references, each file once: a sampled export searched
// under two hypotheses is one file ("df.csv under 2 hypotheses").
func (sp *studyProblem) workloadNames() string {
	var names []string
	count := map[string]int{}
	for _, w := range sp.Workloads {
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

// loadProblem reads a study's problem.
func loadProblem(store *studies.Store, name string) (int, *studyProblem, error) {
	study, err := studies.LoadStudy(store, name)
	if err != nil {
		return 0, nil, asUsage(err)
	}
	var sp studyProblem
	if _, err := store.LoadProblem(study.ID, &sp); err != nil {
		if errors.Is(err, studies.ErrNoProblem) {
			return 0, nil, usageErrorf("study %q was not created by gctune optimize (no problem stored)", name)
		}
		return 0, nil, err
	}
	return study.ID, &sp, nil
}

// workerCount resolves workers = 0 to the number of cores.
func workerCount(n int) int {
	if n <= 0 {
		return runtime.NumCPU()
	}
	return n
}

// printPlan writes the rules the profile produced.
func printPlan(w io.Writer, plan search.Plan) {
	ew := errwriter.New(w)
	if len(plan.Rules) == 0 {
		ew.Printf("seeding and constraints from the lifetime profile: none\n")
		return
	}
	ew.Printf("from the lifetime profile (--no-seed, --no-constrain turn these off):\n")
	for _, r := range plan.Rules {
		ew.Printf("  %-10s %s: %s\n", r.Kind, r.Name, r.Reason)
	}
}

// unnest writes "name (detail)" as "name: detail", to stand inside parentheses.
func unnest(s string) string {
	if name, detail, ok := strings.Cut(s, " ("); ok && strings.HasSuffix(detail, ")") {
		return name + ": " + strings.TrimSuffix(detail, ")")
	}
	return s
}

// storedSummary says what the stored hypothesis assumed, for the note beside a study.
func storedSummary(r *filip.RebuildReport) string {
	if r == nil || r.Containers == 0 {
		return "no container: the sampled large objects hold no pointers"
	}
	return fmt.Sprintf("%s containers", formatCount(uint64(r.Containers)))
}
