package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/report"
	"github.com/gctune/gctune/study"
)

// NewLifetimesCmd returns `gctune lifetimes WORKLOAD|PROFILE`, the lifetime analysis of a
// profile.
func NewLifetimesCmd(ro *rootOptions) *cobra.Command {
	var (
		plot    string
		scale   string
		classes int
		top     int
		bucket  float64
		sites   int
	)
	cmd := &cobra.Command{
		Use:         "lifetimes WORKLOAD|PROFILE.csv|SPEC.yaml|PROFILE.gcprof",
		Annotations: declare(argsProfiles, []string{"plot"}, nil),
		Short:       "Analyse an application's object lifetimes",
		Long: `Analyse an object-lifetime profile: the share of long-lived objects by count and by
bytes, totals, peak and final live bytes, the largest objects, the bytes allocated directly in
old space, the containers, a per-class table (as FiLiP's) and a lifetime histogram relative to
the run's length.

The profile is a bundled workload's name (see 'gctune workloads'), a workload spec (.yaml),
a FiLiP/Illimani export (.csv, with its .json metadata beside it or named by --meta; without
metadata, --rate 1/N must give its sampling rate) or a
gctune profile (.gcprof).`,
		Example: `  gctune lifetimes dataframe-500mb
  gctune lifetimes --threshold 0.1 --plot lifetimes.svg dataframe-500mb
  gctune lifetimes --clock us --skip-bad-rows run.csv
  gctune lifetimes --json my-workload.yaml`,
		Args: exactArgs(1),
		RunE: ro.withConfig(func(cmd *cobra.Command, args []string, cfg Config) error {
			open, err := cfg.openOptions()
			if err != nil {
				return err
			}
			return runLifetimes(cmd.OutOrStdout(), lifetimesOptions{
				Ctx:      cmd.Context(),
				Ref:      args[0],
				Stderr:   cmd.ErrOrStderr(),
				Open:     open,
				Analysis: lifetimes.AnalysisOptions{LongLivedThreshold: cfg.Lifetimes.LongLivedThreshold, TopObjects: top},
				Bins:     cfg.Lifetimes.HistogramBins,
				Scale:    lifetimes.HistogramScale(scale),
				Classes:  classes,
				Sites:    sites,
				Plot:     plot,
				JSON:     ro.json,
				Bucket:   bucket,
			})
		}),
	}
	f := cmd.Flags()
	defaults := defaultConfig().Lifetimes
	addBoundFlag(cmd, "threshold", defaults.LongLivedThreshold, "lifetimes.long_lived_threshold",
		"long-lived from this lifetime, as a fraction of the run (lifetimes.long_lived_threshold)")
	addBoundFlag(cmd, "bins", defaults.HistogramBins, "lifetimes.histogram_bins", "number of histogram bins (lifetimes.histogram_bins)")
	addWorkloadFlags(cmd, "seed")
	addProfileFlags(cmd)
	addRebuildFlags(cmd)
	f.StringVar(&plot, "plot", "", "also write the histograms as a figure: FILE.svg, FILE.png or FILE.pdf")
	f.StringVar(&scale, "scale", string(lifetimes.LogScale), "histogram bins in the text output and --plot: log or linear")
	f.IntVar(&classes, "classes", 20, "rows of the per-class table in the text output (0 = all)")
	f.IntVar(&top, "top", lifetimes.DefaultTopObjects, "number of largest objects to list (0 = none)")
	f.Float64Var(&bucket, "bucket-seconds", 0, bucketSecondsUsage)
	f.IntVar(&sites, "sites", 20, "rows of the allocation-site table in the text output (0 = all; docs/sites.md)")
	return cmd
}

// lifetimesOptions are the inputs of runLifetimes.
type lifetimesOptions struct {
	// Ctx, when set, gives up the wait for a FIFO profile's writer (nil: never).
	Ctx context.Context
	// Ref is the workload name or profile file.
	Ref      string
	Open     source.Options
	Analysis lifetimes.AnalysisOptions
	// Bins is the number of histogram bins; Scale the binning shown in text and in the plot
	// (the JSON document has both).
	Bins  int
	Scale lifetimes.HistogramScale
	// Classes bounds the per-class table in text (0 = all); the JSON has every class.
	Classes int
	// Sites bounds the allocation-site table in text (0 = all); the JSON has every site.
	Sites int
	// Plot, when set, is the figure file to write.
	Plot string
	JSON bool
	// Stderr receives the line about the profile read and its warnings (nil: discarded).
	Stderr io.Writer
	// Bucket, when not 0, also reads the long-lived share on the simulated wall clock in
	// buckets of this many seconds (--bucket-seconds, lifetimes_wall.go).
	Bucket float64
}

// lifetimesDoc is `gctune lifetimes --json`.
type lifetimesDoc struct {
	Input      inputDoc           `json:"input"`
	Profile    profileInfoDoc     `json:"profile"`
	Summary    *lifetimes.Summary `json:"summary"`
	Histograms struct {
		Log    *lifetimes.Histogram `json:"log"`
		Linear *lifetimes.Histogram `json:"linear"`
	} `json:"histograms"`
	// Plot is the figure file written, if any.
	Plot string `json:"plot,omitempty"`
	// Sites is the allocation-site table, when the profile names sites (docs/sites.md).
	Sites *sitesDoc `json:"sites,omitempty"`
	// Stored is the other hypothesis optimize weighs for a sampled export whose rebuild
	// inferred large objects (auto mode): the analysis above is the estimate's.
	Stored *storedHypothesisDoc `json:"storedHypothesis,omitempty"`
	// Wall is the long-lived share on the simulated wall clock (--bucket-seconds).
	Wall *lifetimes.BucketShare `json:"wallClockShare,omitempty"`
}

// inputDoc describes the opened profile (study.Input).
type inputDoc = study.Input

func runLifetimes(w io.Writer, o lifetimesOptions) error {
	if o.Scale != lifetimes.LogScale && o.Scale != lifetimes.LinearScale {
		return usageErrorf("--scale %q: want log or linear", o.Scale)
	}
	if o.Analysis.TopObjects == 0 {
		o.Analysis.TopObjects = -1 // the flag's 0 means none; the library's 0 means the default
	} else if o.Analysis.TopObjects < 0 {
		return usageErrorf("--top %d: want 0 or more", o.Analysis.TopObjects)
	}
	if o.Classes < 0 {
		return usageErrorf("--classes %d: want 0 or more", o.Classes)
	}
	if o.Sites < 0 {
		return usageErrorf("--sites %d: want 0 or more", o.Sites)
	}
	format := ""
	if o.Plot != "" {
		var err error
		if format, err = report.PlotFormat(o.Plot); err != nil {
			return asUsage(err)
		}
	}
	p, info, err := openProfile(o.Ctx, o.Ref, o.Open)
	if err != nil {
		return inputError(err) // unknown workload, unreadable or malformed input
	}
	sum, err := lifetimes.Summarize(p, o.Analysis)
	if err != nil {
		return err
	}
	doc := lifetimesDoc{Input: newInputDoc(info, o.Open), Profile: newProfileInfo(info, p), Summary: sum, Plot: o.Plot}
	if doc.Wall, err = wallShare(p, o.Bucket); err != nil {
		return err
	}
	if doc.Stored, err = storedHypothesis(o, info); err != nil {
		return err
	}
	if doc.Sites, err = newSitesDoc(p, info, o.Analysis.LongLivedThreshold); err != nil {
		return err
	}
	if doc.Histograms.Log, err = lifetimes.LifetimeHistogram(p, lifetimes.HistogramOptions{Bins: o.Bins, Scale: lifetimes.LogScale}); err != nil {
		return err
	}
	if doc.Histograms.Linear, err = lifetimes.LifetimeHistogram(p, lifetimes.HistogramOptions{Bins: o.Bins, Scale: lifetimes.LinearScale}); err != nil {
		return err
	}
	shown := doc.Histograms.Log
	if o.Scale == lifetimes.LinearScale {
		shown = doc.Histograms.Linear
	}
	if o.Plot != "" {
		title := info.Workload
		if title == "" {
			title = info.Ref
		}
		err := writeOutput(o.Plot, func(f io.Writer) error {
			return report.WriteHistogramPlot(f, format, shown, title)
		})
		if err != nil {
			return fmt.Errorf("--plot: %w", err)
		}
	}
	if o.Stderr != nil {
		printProfileInfo(o.Stderr, doc.Profile)
	}
	if o.JSON {
		return writeJSON(w, doc)
	}
	return printLifetimes(w, &doc, shown, o)
}

// newInputDoc describes the profile opened with o (study.NewInput).
func newInputDoc(info *source.Info, o source.Options) inputDoc { return study.NewInput(info, o) }

// printLifetimes writes the text report: summary, largest objects, classes, histogram.
func printLifetimes(w io.Writer, doc *lifetimesDoc, hist *lifetimes.Histogram, o lifetimesOptions) error {
	s := doc.Summary
	ew := errwriter.New(w)

	// Where the profile came from.
	in := doc.Input
	switch in.Kind {
	case source.KindWorkload, source.KindSpec:
		res := "the spec's resolution"
		if *in.Resolution != 0 {
			res = fmt.Sprintf("resolution %g", *in.Resolution)
		}
		ew.Printf("%s (%s %s, seed %d, %s)\n", quoteName(in.Ref), in.Kind, quoteName(in.Workload), *in.Seed, res)
	default:
		ew.Printf("%s (%s profile%s)\n", quoteName(in.Ref), in.Kind, profilerSuffix(s.Profiler))
	}
	if f := in.FiLiP; f != nil {
		ew.Printf("  FiLiP %s rows, %s skipped; clock %s\n", formatCount(uint64(f.Rows)), formatCount(uint64(f.SkippedRows)), f.Clock)
		for _, m := range f.FirstSkipped {
			ew.Printf("  skipped: %s\n", terminalSafe(m))
		}
	}
	if in.Rebuild != nil {
		ew.Printf("  %s\n", in.Rebuild)
	}
	ew.Printf("\n")

	if err := ew.Err(); err != nil {
		return err
	}
	text := lifetimes.SummaryText{Wall: doc.Wall}
	if st := doc.Stored; st != nil {
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
	if err := printSites(w, doc.Sites, o.Sites); err != nil {
		return err
	}
	ew.Printf("\n")
	if err := lifetimes.WriteHistogram(ew, hist); err != nil {
		return err
	}
	if doc.Plot != "" {
		ew.Printf("\nwrote %s\n", doc.Plot)
	}
	return ew.Err()
}

func profilerSuffix(p string) string {
	if p == "" {
		return ""
	}
	return " from " + quoteName(p)
}
