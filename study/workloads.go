package study

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
)

// maxStoredSpec bounds the spec text a study stores (specs are a few kB).
const maxStoredSpec = 256 << 10

// OpenOptions are the options the workload is opened with.
func (w WorkloadRef) OpenOptions() (source.Options, error) {
	clock, err := w.ParsedClock()
	if err != nil {
		return source.Options{}, err
	}
	rebuild, err := w.ParsedRebuild()
	if err != nil {
		return source.Options{}, err
	}
	return source.Options{Seed: w.Seed, Resolution: w.Resolution, Clock: clock, SkipBadRows: w.SkipBadRows, Rebuild: rebuild,
		RebuildLargeBytes: w.RebuildLargeBytes, FiLiPJSONPath: w.Meta, SamplingRate: w.SamplingRate}, nil
}

// Opened says how one workload's profile was read this time.
type Opened struct {
	// Ref is the workload's reference (Info.Ref may name a temporary copy of a stored spec).
	Ref     string
	Info    *source.Info
	Profile *profile.Profile
	// OtherClock is set when this process read a FiLiP export on another clock than the study
	// did (ReopenWorkloads' Clock), StudyClock the study's.
	OtherClock bool
	StudyClock string
}

// Workloads are the opened profiles of a problem, in the problem's order.
type Workloads struct {
	Refs      []WorkloadRef
	Workloads []objective.Workload
	Summaries []*lifetimes.Summary
	// Opened says how each profile was read.
	Opened []Opened
	// Notes are one line per workload worth telling (a sampled export's rebuild).
	Notes []string
}

// OpenSettings say how OpenWorkloads reads the workloads of a new study.
type OpenSettings struct {
	// Open are the options each reference is opened with (Rebuild auto searches a sampled
	// export with missed large objects under two hypotheses).
	Open source.Options
	// Clock is the configured clock, stored with each workload by its name ("auto", "bytes",
	// "us").
	Clock filip.Clock
	// LongLivedThreshold is the lifetime analysis' threshold (lifetimes.AnalysisOptions).
	LongLivedThreshold float64
	// Check, when set, is called on each reference before it is opened: the command line
	// refuses profiles it cannot read twice (pipes).
	Check func(ref string, opts source.Options) error
	// VM and Cost simulate a sampled export's default run, so that the export's own counts can
	// choose the size of the large objects its sample missed (ChooseLargeBytes). A zero Cost
	// leaves them one per window.
	VM   heapsim.Params
	Cost heapsim.Cost
}

// OpenWorkloads opens each reference, fingerprints it and summarises it. A sampled FiLiP export whose
// rebuild inferred large objects the sample missed is opened twice, under the estimate and
// under the stored hypothesis (unless Rebuild names one): two workloads of one file.
func OpenWorkloads(refs []string, s OpenSettings) (*Workloads, error) {
	opts := s.Open
	if opts.FiLiPJSONPath != "" && len(refs) > 1 {
		return nil, inputErrorf(ErrMetaForMany, "--meta %s names one export's metadata, and there are %d workloads: give each export its .json beside it", opts.FiLiPJSONPath, len(refs))
	}
	rebuild := opts.Rebuild
	lw := &Workloads{}
	add := func(ref string, opts source.Options, p *profile.Profile, info *source.Info) error {
		fp, err := source.Fingerprint(ref, opts)
		if err != nil {
			return asInput(err)
		}
		sum, err := lifetimes.Summarize(p, lifetimes.AnalysisOptions{LongLivedThreshold: s.LongLivedThreshold})
		if err != nil {
			return asInput(err)
		}
		wr := WorkloadRef{Ref: ref, Kind: info.Kind, Seed: opts.Seed, Resolution: opts.Resolution,
			Clock: s.Clock.String(), SkipBadRows: opts.SkipBadRows, Fingerprint: fp, Path: absolutePath(info.Path)}
		if info.Kind == source.KindFiLiP {
			wr.Rebuild, wr.RebuildLargeBytes = opts.Rebuild.String(), opts.RebuildLargeBytes
			wr.Meta, wr.SamplingRate = absolutePath(opts.FiLiPJSONPath), opts.SamplingRate
		}
		if info.Kind == source.KindSpec {
			if text, err := os.ReadFile(ref); err == nil && len(text) <= maxStoredSpec {
				wr.Spec = string(text)
			}
		}
		lw.Refs = append(lw.Refs, wr)
		lw.Workloads = append(lw.Workloads, objective.Workload{Name: wr.Name(), Profile: p})
		lw.Summaries = append(lw.Summaries, sum)
		lw.Opened = append(lw.Opened, Opened{Ref: info.Ref, Info: info, Profile: p})
		return nil
	}
	for _, ref := range refs {
		if s.Check != nil {
			if err := s.Check(ref, opts); err != nil {
				return nil, err
			}
		}
		p, info, err := source.Open(ref, opts)
		if err != nil {
			return nil, asInput(err)
		}
		var first source.Options
		if p, info, first, err = s.countInformed(ref, opts, p, info); err != nil {
			return nil, err
		}
		if err := add(ref, first, p, info); err != nil {
			return nil, err
		}
		r := info.Rebuild
		if r == nil {
			continue
		}
		lw.Notes = append(lw.Notes, fmt.Sprintf("%s: %s", ref, r))
		if !SearchesStored(rebuild, r) {
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
			return nil, asInput(err)
		}
		if p, info, other, err = s.countInformed(ref, other, p, info); err != nil {
			return nil, err
		}
		if err := add(ref, other, p, info); err != nil {
			return nil, err
		}
		// Two readings of one run: the objective averages their slowdowns.
		for _, k := range []int{len(lw.Refs) - 2, len(lw.Refs) - 1} {
			lw.Refs[k].Run = ref
			lw.Workloads[k].Run = ref
		}
		lw.Notes = append(lw.Notes, fmt.Sprintf("%s: the lifetimes of the %d large objects the sample missed are unknown, and a FiLiP export records no pointers: the search weighs two hypotheses, by the mean of their slowdowns (two readings of one run): %s (%s; --rebuild auto), and %s (%s; --rebuild stored); --rebuild short|long|stored searches one",
			ref, r.InferredLarge, HypothesisWords(filip.HypothesisAuto.String()), unnest(r.Hypothesis),
			HypothesisWords(filip.HypothesisStored.String()), storedSummary(info.Rebuild)))
	}
	for i, n := range Names(lw.Refs) {
		lw.Workloads[i].Name = n
	}
	return lw, nil
}

// ReopenOptions say how ReopenWorkloads treats workloads that differ from the study's.
type ReopenOptions struct {
	// Force opens a workload file whose content changed since the study began (resume
	// --force).
	Force bool
	// PreferStored generates spec workloads from the spec text stored with the study even
	// when the file is present (workers: the study, not the local file, defines the problem).
	// Without it the stored text is used only when the file is missing.
	PreferStored bool
	// Worker words the errors for `gctune worker`.
	Worker bool
	// Clock, when not ClockAuto, reads FiLiP workloads on this clock instead of the study's
	// (report, explain: --clock). The fingerprint is still checked with the study's.
	Clock filip.Clock
	// LongLivedThreshold is the lifetime analysis' threshold (lifetimes.AnalysisOptions).
	LongLivedThreshold float64
}

// ReopenWorkloads opens a stored problem's workloads and checks that none changed since the study
// began (unless Force): a changed one is an error matching ErrWorkloadChanged.
func ReopenWorkloads(p *Problem, ro ReopenOptions) (*Workloads, error) {
	lw := &Workloads{}
	for _, w := range p.Workloads {
		opts, err := w.OpenOptions()
		if err != nil {
			return nil, asInput(err)
		}
		studyClock := opts.Clock
		path, stored, cleanup, err := w.source(ro.PreferStored)
		if errors.Is(err, os.ErrNotExist) {
			if ro.Worker {
				return nil, asInput(fmt.Errorf("workload %q of the study: %w (a worker needs the same file at the same path)", w.Ref, err))
			}
			return nil, asInput(fmt.Errorf("workload %q of the study: %w", w.Ref, err))
		}
		if err != nil {
			return nil, err
		}
		prof, err := func() (*profile.Profile, error) {
			defer cleanup()
			fp, err := source.Fingerprint(path, opts)
			if err != nil {
				if ro.Worker {
					return nil, asInput(fmt.Errorf("workload %q of the study: %w (a worker needs the same file at the same path)", w.Ref, err))
				}
				return nil, asInput(fmt.Errorf("workload %q of the study: %w", w.Ref, err))
			}
			switch {
			case fp == w.Fingerprint:
			case stored && (ro.Worker || !ro.Force):
				return nil, inputErrorf(ErrWorkloadChanged, "workload %q: the spec stored with the study gives fingerprint %.12s, not the study's %.12s (a gctune that reads specs differently?)", w.Ref, fp, w.Fingerprint)
			case ro.Worker:
				return nil, inputErrorf(ErrWorkloadChanged, "workload %q differs from the study's (fingerprint %.12s, the study's %.12s): every worker needs the same workload (same file, or a gctune whose bundled workload is the same)", w.Ref, fp, w.Fingerprint)
			case !ro.Force:
				return nil, inputErrorf(ErrWorkloadChanged, "workload %q changed since the study began (fingerprint %.12s, now %.12s): pass --force to use it anyway", w.Ref, w.Fingerprint, fp)
			}
			if ro.Clock != filip.ClockAuto && w.Kind == source.KindFiLiP {
				opts.Clock = ro.Clock
			}
			prof, info, err := source.Open(path, opts)
			if err != nil {
				return nil, asInput(err)
			}
			if !stored {
				info.Ref = w.Ref // the workload as the user named it, wherever it was read
			}
			o := Opened{Ref: w.Ref, Info: info, Profile: prof}
			if ro.Clock != filip.ClockAuto && w.Kind == source.KindFiLiP && ro.Clock != studyClock {
				o.OtherClock, o.StudyClock = true, w.Clock
			}
			lw.Opened = append(lw.Opened, o)
			return prof, nil
		}()
		if err != nil {
			return nil, err
		}
		sum, err := lifetimes.Summarize(prof, lifetimes.AnalysisOptions{LongLivedThreshold: ro.LongLivedThreshold})
		if err != nil {
			return nil, asInput(err)
		}
		lw.Refs = append(lw.Refs, w)
		lw.Workloads = append(lw.Workloads, objective.Workload{Name: w.Name(), Profile: prof, Run: w.Run})
		lw.Summaries = append(lw.Summaries, sum)
	}
	for i, n := range Names(lw.Refs) {
		lw.Workloads[i].Name = n
	}
	return lw, nil
}

// source returns the path to open the workload from: the file where the study was made
// (Path, absolute), else its reference from this folder (a worker on another machine with the
// file at the same relative place, or a study made before Path was kept); for a spec whose
// text the study stores, a temporary copy of that text when preferStored is set or the file is
// missing (stored; cleanup removes it). A missing file is an error naming where it was looked
// for.
func (w WorkloadRef) source(preferStored bool) (path string, stored bool, cleanup func(), err error) {
	cleanup = func() {}
	if w.Kind == source.KindSpec && w.Spec != "" && preferStored {
		return w.storedCopy()
	}
	if w.Path == "" && !w.isFile() {
		return w.Ref, false, cleanup, nil // a bundled workload
	}
	for _, p := range []string{w.Path, w.Ref} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p, false, cleanup, nil
		}
	}
	if w.Kind == source.KindSpec && w.Spec != "" {
		return w.storedCopy()
	}
	where := w.Ref
	if w.Path != "" && w.Path != w.Ref {
		where = fmt.Sprintf("%s, where the study was made, nor %s from this folder", w.Path, w.Ref)
	}
	return "", false, cleanup, fmt.Errorf("the profile is not at %s: %w (put it back, or start a new study)", where, os.ErrNotExist)
}

// isFile reports whether the workload was read from a file (not a bundled workload).
func (w WorkloadRef) isFile() bool {
	return w.Kind != source.KindWorkload
}

// storedCopy writes the stored spec text to a temporary file of the same base name (its
// extension tells source.Open that it is a spec).
func (w WorkloadRef) storedCopy() (path string, stored bool, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "gctune-spec-")
	if err != nil {
		return "", false, func() {}, err
	}
	cleanup = func() { _ = os.RemoveAll(dir) }
	path = filepath.Join(dir, filepath.Base(w.Ref))
	if err := os.WriteFile(path, []byte(w.Spec), 0o600); err != nil {
		cleanup()
		return "", false, func() {}, err
	}
	return path, true, cleanup, nil
}

// absolutePath is p made absolute from the working folder ("" and "-", standard input, stay as
// they are; so does a path that cannot be resolved).
func absolutePath(p string) string {
	if p == "" || p == "-" {
		return p
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// Objective builds the objective.Problem of a stored problem on its opened workloads.
func (p *Problem) Objective(lw *Workloads) (*objective.Problem, error) {
	stat, err := p.ParsedStatistic()
	if err != nil {
		return nil, asInput(err)
	}
	prob, err := objective.NewProblem(lw.Workloads, p.Cost, p.VM, objective.Settings{
		MaxFootprintBytes: p.MaxFootprint, Aggregate: objective.Aggregate(p.Aggregate),
		Uncertainty: p.Uncertainty, Statistic: stat, Seed: p.Seed})
	if err != nil {
		return nil, asInput(err)
	}
	return prob, nil
}

// ReopenObjective reopens a stored problem's workloads (ReopenWorkloads) and builds the problem's
// objective; p.Opened then says how each profile was read.
func (p *Problem) ReopenObjective(ro ReopenOptions) (*objective.Problem, error) {
	lw, err := ReopenWorkloads(p, ro)
	if err != nil {
		return nil, err
	}
	p.Opened = lw.Opened
	return p.Objective(lw)
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
	return fmt.Sprintf("%s containers", units.FormatCount(uint64(r.Containers)))
}

// SearchesStored reports whether a study searches a sampled export read under rebuild, whose
// rebuild reported r, under the stored hypothesis too (the large objects the sample missed
// living to the end and holding the long-lived small objects): in auto mode, when the rebuild
// inferred large objects the sample missed. lifetimes states that hypothesis by this rule.
func SearchesStored(rebuild filip.Hypothesis, r *filip.RebuildReport) bool {
	return r != nil && rebuild == filip.HypothesisAuto && r.InferredLarge > 0
}
