package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/profilereport"
	"github.com/gctune/gctune/report"
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
		Annotations: cmdutil.Declare(argsProfiles, []string{"plot"}, nil),
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
		Args: cmdutil.ExactArgs(1),
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
	cmdutil.AddBoundFlag(cmd, "threshold", defaults.LongLivedThreshold, "lifetimes.long_lived_threshold",
		"long-lived from this lifetime, as a fraction of the run (lifetimes.long_lived_threshold)")
	cmdutil.AddBoundFlag(cmd, "bins", defaults.HistogramBins, "lifetimes.histogram_bins", "number of histogram bins (lifetimes.histogram_bins)")
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

// bucketSecondsUsage is --bucket-seconds's help.
const bucketSecondsUsage = "also state the long-lived share as [IWST23-L] read it: lifetimes on the wall clock of the run simulated at the default parameters (GC pauses included), long-lived from one bucket of this many seconds (the paper: 1); 0 = off"

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
	// buckets of this many seconds (--bucket-seconds, profilereport.WallShare).
	Bucket float64
}

// runLifetimes checks the options, opens the profile, analyses it (profilereport.Analyze),
// draws the figure (--plot) and prints the report, as JSON or text.
func runLifetimes(w io.Writer, o lifetimesOptions) error {
	if o.Scale != lifetimes.LogScale && o.Scale != lifetimes.LinearScale {
		return cmdutil.Usagef("--scale %q: want log or linear", o.Scale)
	}
	if o.Analysis.TopObjects == 0 {
		o.Analysis.TopObjects = -1 // the flag's 0 means none; the library's 0 means the default
	} else if o.Analysis.TopObjects < 0 {
		return cmdutil.Usagef("--top %d: want 0 or more", o.Analysis.TopObjects)
	}
	if o.Classes < 0 {
		return cmdutil.Usagef("--classes %d: want 0 or more", o.Classes)
	}
	if o.Sites < 0 {
		return cmdutil.Usagef("--sites %d: want 0 or more", o.Sites)
	}
	format := ""
	if o.Plot != "" {
		var err error
		if format, err = report.PlotFormat(o.Plot); err != nil {
			return cmdutil.AsUsage(err)
		}
	}
	p, info, err := openProfile(o.Ctx, o.Ref, o.Open)
	if err != nil {
		return inputError(err) // unknown workload, unreadable or malformed input
	}
	if o.Bucket != 0 && !(o.Bucket > 0) {
		return cmdutil.Usagef("--bucket-seconds %v: want a positive number of seconds, or 0", o.Bucket)
	}
	reopen := func(opts source.Options) (*profile.Profile, *source.Info, error) {
		p, info, err := openProfile(o.Ctx, o.Ref, opts)
		if err != nil {
			return nil, nil, inputError(err)
		}
		return p, info, nil
	}
	doc, err := profilereport.Analyze(p, info, o.Open, profilereport.Options{Analysis: o.Analysis, Bins: o.Bins, BucketSeconds: o.Bucket, Reopen: reopen})
	if err != nil {
		return err
	}
	doc.Plot = o.Plot
	shown := doc.Histograms.Log
	if o.Scale == lifetimes.LinearScale {
		shown = doc.Histograms.Linear
	}
	if o.Plot != "" {
		title := info.Workload
		if title == "" {
			title = info.Ref
		}
		err := outfile.Write(o.Plot, func(f io.Writer) error {
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
		return cmdutil.WriteJSON(w, doc)
	}
	return doc.WriteText(w, profilereport.TextOptions{Histogram: shown, Classes: o.Classes, Sites: o.Sites})
}
