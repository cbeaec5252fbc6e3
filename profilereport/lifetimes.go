package profilereport

import (
	"fmt"
	"io"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/infile"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/pretenure"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/study"
)

// Lifetimes is `gctune lifetimes --json`.
type Lifetimes struct {
	Input      study.Input        `json:"input"`
	Profile    study.ProfileInfo  `json:"profile"`
	Summary    *lifetimes.Summary `json:"summary"`
	Histograms struct {
		Log    *lifetimes.Histogram `json:"log"`
		Linear *lifetimes.Histogram `json:"linear"`
	} `json:"histograms"`
	// Plot is the figure file written, if any (the caller's).
	Plot string `json:"plot,omitempty"`
	// Sites is the allocation-site table, when the profile names sites (docs/sites.md).
	Sites *pretenure.SitesTable `json:"sites,omitempty"`
	// Stored is the other hypothesis optimize weighs for a sampled export whose rebuild
	// inferred large objects (auto mode): the analysis above is the estimate's.
	Stored *StoredHypothesis `json:"storedHypothesis,omitempty"`
	// Wall is the long-lived share on the simulated wall clock (Options.BucketSeconds).
	Wall *lifetimes.BucketShare `json:"wallClockShare,omitempty"`
}

// StoredHypothesis is what the report says of the second hypothesis optimize searches a
// sampled export under (the large objects the sample missed living to the end and holding
// the long-lived small objects), so that its containers agree with optimize's seeds.
type StoredHypothesis struct {
	// Hypothesis says it in words.
	Hypothesis string                   `json:"hypothesis"`
	Rebuild    *filip.RebuildReport     `json:"rebuild"`
	Containers lifetimes.ContainerStats `json:"containers"`
}

// Options are what Analyze is asked besides the profile.
type Options struct {
	// Analysis is the lifetime analysis's (the long-lived threshold, the largest objects).
	Analysis lifetimes.AnalysisOptions
	// Bins is the number of bins of both histograms.
	Bins int
	// BucketSeconds, when not 0, also reads the long-lived share on the wall clock of the
	// default run, simulated with the built-in cost model, in buckets of this many seconds
	// (lifetimes.BucketedShare).
	BucketSeconds float64
	// Reopen, when set, opens the profile again with other options, for the second
	// hypothesis of a sampled export (nil: it is not analysed); its error is Analyze's.
	Reopen func(source.Options) (*profile.Profile, *source.Info, error)
}

// Analyze reports on p, opened by source.Open as info with open: the summary, both
// histograms, the sites, the wall-clock share and, when optimize would search the export
// under the stored hypothesis too (study.SearchesStored) and its files can be read again,
// that hypothesis's containers.
func Analyze(p *profile.Profile, info *source.Info, open source.Options, o Options) (*Lifetimes, error) {
	sum, err := lifetimes.Summarize(p, o.Analysis)
	if err != nil {
		return nil, err
	}
	r := &Lifetimes{Input: study.NewInput(info, open), Profile: study.NewProfileInfo(info, p), Summary: sum}
	if r.Wall, err = WallShare(p, o.BucketSeconds); err != nil {
		return nil, err
	}
	if r.Stored, err = storedHypothesis(info, open, o); err != nil {
		return nil, err
	}
	sampled := info.Kind == source.KindFiLiP && p.Meta.SamplingRate < 1
	if r.Sites, err = pretenure.NewSitesTable(p, sampled, o.Analysis.LongLivedThreshold); err != nil {
		return nil, err
	}
	if r.Histograms.Log, err = lifetimes.LifetimeHistogram(p, lifetimes.HistogramOptions{Bins: o.Bins, Scale: lifetimes.LogScale}); err != nil {
		return nil, err
	}
	if r.Histograms.Linear, err = lifetimes.LifetimeHistogram(p, lifetimes.HistogramOptions{Bins: o.Bins, Scale: lifetimes.LinearScale}); err != nil {
		return nil, err
	}
	return r, nil
}

// WallShare is p's long-lived share read on the wall clock of its default run, simulated
// with the built-in cost model (docs/calibration.md), in buckets of bucketSeconds; nil when
// bucketSeconds is 0. A bucket that is not a positive number of seconds is the caller's to
// refuse.
func WallShare(p *profile.Profile, bucketSeconds float64) (*lifetimes.BucketShare, error) {
	if bucketSeconds == 0 {
		return nil, nil
	}
	clocks, secs, err := heapsim.WallClock(p, heapsim.DefaultParams(), heapsim.DefaultCost())
	if err != nil {
		return nil, err
	}
	return lifetimes.BucketedShare(p, lifetimes.WallClock{Clocks: clocks, Seconds: secs}, bucketSeconds)
}

// storedHypothesis opens the profile again under the stored hypothesis when optimize would
// (a sampled export rebuilt in auto mode with large objects inferred: study.OpenWorkloads),
// and summarises its containers; nil otherwise, and for a pipe or FIFO, which cannot be read
// twice (and optimize refuses one).
func storedHypothesis(info *source.Info, open source.Options, o Options) (*StoredHypothesis, error) {
	if o.Reopen == nil || !study.SearchesStored(open.Rebuild, info.Rebuild) {
		return nil, nil
	}
	for _, f := range source.Files(info.Ref, open) {
		if f == source.StdinRef || infile.IsStream(f) {
			return nil, nil
		}
	}
	opts := open
	opts.Rebuild = filip.HypothesisStored
	p, sinfo, err := o.Reopen(opts)
	if err != nil {
		return nil, err
	}
	sum, err := lifetimes.Summarize(p, lifetimes.AnalysisOptions{LongLivedThreshold: o.Analysis.LongLivedThreshold, TopObjects: -1})
	if err != nil {
		return nil, err
	}
	return &StoredHypothesis{Hypothesis: study.HypothesisWords(filip.HypothesisStored.String()), Rebuild: sinfo.Rebuild, Containers: sum.Containers}, nil
}

// TextOptions bound the tables of WriteText (the JSON document has every row).
type TextOptions struct {
	// Histogram is the histogram shown (one of the report's two).
	Histogram *lifetimes.Histogram
	// Classes and Sites are the rows of the per-class and the sites tables (0: all).
	Classes, Sites int
}

// WriteText writes the report as text: where the profile came from, the summary, the
// largest objects, the classes, the sites, the histogram and the figure written.
func (d *Lifetimes) WriteText(w io.Writer, o TextOptions) error {
	s := d.Summary
	ew := errwriter.New(w)
	in := d.Input
	switch in.Kind {
	case source.KindWorkload, source.KindSpec:
		res := "the spec's resolution"
		if *in.Resolution != 0 {
			res = fmt.Sprintf("resolution %g", *in.Resolution)
		}
		ew.Printf("%s (%s %s, seed %d, %s)\n", termtext.Quote(in.Ref), in.Kind, termtext.Quote(in.Workload), *in.Seed, res)
	default:
		profiler := ""
		if s.Profiler != "" {
			profiler = " from " + termtext.Quote(s.Profiler)
		}
		ew.Printf("%s (%s profile%s)\n", termtext.Quote(in.Ref), in.Kind, profiler)
	}
	if f := in.FiLiP; f != nil {
		ew.Printf("  FiLiP %s rows, %s skipped; clock %s\n", units.FormatCount(uint64(f.Rows)), units.FormatCount(uint64(f.SkippedRows)), f.Clock)
		for _, m := range f.FirstSkipped {
			ew.Printf("  skipped: %s\n", termtext.Safe(m))
		}
	}
	if in.Rebuild != nil {
		ew.Printf("  %s\n", in.Rebuild)
	}
	ew.Printf("\n")
	if err := ew.Err(); err != nil {
		return err
	}
	text := lifetimes.SummaryText{Wall: d.Wall}
	if st := d.Stored; st != nil {
		text.Stored, text.StoredWords = &st.Containers, st.Hypothesis
		text.EstimateWords = study.HypothesisWords(filip.HypothesisAuto.String())
	}
	if err := lifetimes.WriteSummary(w, s, text); err != nil {
		return err
	}
	if err := lifetimes.WriteLargest(w, s); err != nil {
		return err
	}
	if err := lifetimes.WriteClasses(w, s, o.Classes); err != nil {
		return err
	}
	if err := d.Sites.WriteText(w, o.Sites); err != nil {
		return err
	}
	ew.Printf("\n")
	if err := lifetimes.WriteHistogram(ew, o.Histogram); err != nil {
		return err
	}
	if d.Plot != "" {
		ew.Printf("\nwrote %s\n", d.Plot)
	}
	return ew.Err()
}
