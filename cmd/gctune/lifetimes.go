package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/units"
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

// inputDoc describes the opened profile.
type inputDoc struct {
	Kind       string    `json:"kind"`
	Ref        string    `json:"ref"`
	Path       string    `json:"path,omitempty"`
	Workload   string    `json:"workload,omitempty"`
	Seed       *uint64   `json:"seed,omitempty"`
	Resolution *float64  `json:"resolution,omitempty"`
	FiLiP      *filipDoc `json:"filip,omitempty"`
	// Rebuild is the rebuild of a sampled FiLiP export, when one was done.
	Rebuild *filip.RebuildReport `json:"rebuild,omitempty"`
}

// filipDoc is what filip.Read reported.
type filipDoc struct {
	Layout       string   `json:"layout"`
	Clock        string   `json:"clock"`
	ClockReason  string   `json:"clockReason"`
	Rows         int      `json:"rows"`
	SkippedRows  int      `json:"skippedRows"`
	FirstSkipped []string `json:"firstSkipped,omitempty"`
	Warnings     []string `json:"warnings,omitempty"`
}

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

func newInputDoc(info *source.Info, o source.Options) inputDoc {
	d := inputDoc{Kind: info.Kind, Ref: info.Ref, Path: info.Path, Workload: info.Workload, Rebuild: info.Rebuild}
	if info.Kind == source.KindWorkload || info.Kind == source.KindSpec {
		seed, res := o.Seed, o.Resolution
		d.Seed, d.Resolution = &seed, &res
	}
	if r := info.FiLiP; r != nil {
		d.FiLiP = &filipDoc{Layout: r.Layout, Clock: r.Clock.String(), ClockReason: r.ClockReason, Rows: r.Rows,
			SkippedRows: r.SkippedRows, FirstSkipped: r.FirstSkipped, Warnings: r.Warnings}
	}
	return d
}

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

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	tew := errwriter.New(tw)
	row := func(label, format string, args ...any) { tew.Printf("  "+label+"\t"+format+"\n", args...) }
	row("objects", "%s (%s records, sampling rate %g)", formatCount(s.Objects), formatCount(uint64(s.Records)), s.SamplingRate)
	row("allocated", "%s (%s bytes); run length %s on the bytes clock", units.FormatBytes(s.Bytes), formatCount(s.Bytes), units.FormatBytes(s.EndBytes))
	row("long-lived", "%s of objects, %s of bytes (lifetime ≥ %s of the run)",
		numfmt.PercentText(s.LongLivedObjectShare), numfmt.PercentText(s.LongLivedByteShare), numfmt.PercentText(s.LongLivedThreshold))
	if wl := doc.Wall; wl != nil {
		row("long-lived (wall)", "%s of objects, %s of bytes (lifetime ≥ %g s on the default run's simulated wall clock, %.1f s with GC pauses; %s of the run)",
			numfmt.PercentText(wl.LongLivedObjectShare), numfmt.PercentText(wl.LongLivedByteShare), wl.BucketSeconds, wl.RunSeconds, numfmt.PercentText(wl.ThresholdShare))
	}
	row("average lifetime", "%s of the run", numfmt.PercentText(s.AverageLifetime))
	row("alive at end", "%s objects, %s", formatCount(s.AliveAtEndObjects), units.FormatBytes(s.AliveAtEndBytes))
	peakAt := 0.0
	if s.EndBytes > 0 {
		peakAt = float64(s.PeakLiveAtBytes) / float64(s.EndBytes)
	}
	row("live bytes", "peak %s (first at %s of the run), final %s", units.FormatBytes(s.PeakLiveBytes), numfmt.PercentText(peakAt), units.FormatBytes(s.FinalLiveBytes))
	row("direct to old space", "%s objects, %s (%s of bytes)", formatCount(s.DirectToOld.Objects), units.FormatBytes(s.DirectToOld.Bytes), numfmt.PercentText(s.DirectToOld.ByteShare))
	if st := doc.Stored; st != nil {
		row("containers", "%s %s (this analysis);", containersText(s.Containers), study.HypothesisWords(filip.HypothesisAuto.String()))
		row("", "%s %s (optimize weighs both)", containersText(st.Containers), st.Hypothesis)
	} else {
		row("containers", "%s", containersText(s.Containers))
	}
	if tew.Err() != nil {
		return tew.Err()
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	if len(s.Largest) > 0 {
		ew.Printf("\nlargest objects\n")
		// Two passes, widths then rows, as tabwriter would align them, without holding a
		// million rows (--top 1000000) in a tabwriter's buffer.
		largestRow := func(l lifetimes.LargeObject) [7]string {
			var notes []string
			if l.OldSpace {
				notes = append(notes, "old space")
			}
			if l.AliveAtEnd {
				notes = append(notes, "alive at end")
			}
			born := 0.0
			if s.EndBytes > 0 {
				born = float64(l.BirthBytes) / float64(s.EndBytes)
			}
			return [7]string{"  " + units.FormatBytes(uint64(l.SizeBytes)), formatCount(uint64(l.Slots)),
				formatCount(uint64(l.Weight)), quoteName(l.Class), numfmt.PercentText(born), numfmt.PercentText(l.Lifetime), strings.Join(notes, ", ")}
		}
		header := [7]string{"  SIZE", "SLOTS", "COUNT", "CLASS", "BORN AT", "LIFETIME", "NOTES"}
		var wid [7]int
		widen := func(r [7]string) {
			for i, c := range r {
				wid[i] = max(wid[i], utf8.RuneCountInString(c))
			}
		}
		widen(header)
		for _, l := range s.Largest {
			widen(largestRow(l))
		}
		bw := bufio.NewWriterSize(w, 1<<16)
		print := func(r [7]string) {
			for i, c := range r[:6] {
				bw.WriteString(padRight(c, wid[i]+2))
			}
			bw.WriteString(r[6])
			bw.WriteByte('\n')
		}
		print(header)
		for _, l := range s.Largest {
			print(largestRow(l))
		}
		if err := bw.Flush(); err != nil {
			return err
		}
	}

	rows := s.Classes
	if o.Classes > 0 && len(rows) > o.Classes {
		rows = rows[:o.Classes]
	}
	ew.Printf("\nclasses by allocations (%d of %d)\n", len(rows), len(s.Classes))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	tew = errwriter.New(tw)
	tew.Printf("  CLASS\tALLOCATIONS\tBYTES\tAVG LIFETIME\tLONG-LIVED\n")
	for _, c := range rows {
		tew.Printf("  %s\t%s\t%s\t%s\t%s\n", quoteName(c.Class), numfmt.PercentText(c.AllocationShare), numfmt.PercentText(c.ByteShare),
			numfmt.PercentText(c.AverageLifetime), numfmt.PercentText(c.LongLivedShare))
	}
	if tew.Err() != nil {
		return tew.Err()
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	if err := printSites(w, doc.Sites, o.Sites); err != nil {
		return err
	}
	ew.Printf("\n")
	printHistogram(ew, hist)
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

// histBarWidth is the width of the histogram's bars, in cells, for the largest share.
const histBarWidth = 24

// printHistogram draws the histogram as two columns of unicode bars, by count and by bytes,
// each scaled to its largest bin.
func printHistogram(ew *errwriter.Writer, h *lifetimes.Histogram) {
	kind := "evenly spaced"
	if h.Scale == lifetimes.LogScale {
		kind = "log-spaced"
	}
	ew.Printf("lifetime histogram (%s bins; lifetime as %% of the run)\n", kind)
	labels := make([]string, h.Bins())
	labelWidth := len("LIFETIME")
	for i := range labels {
		closing := ")"
		if i == h.Bins()-1 {
			closing = "]"
		}
		labels[i] = fmt.Sprintf("[%s, %s%s", numfmt.CompactPercent(h.Edges[i]), numfmt.CompactPercent(h.Edges[i+1]), closing)
		labelWidth = max(labelWidth, len(labels[i]))
	}
	var maxObj, maxBytes float64
	for i := range labels {
		maxObj = max(maxObj, h.ObjectShare[i])
		maxBytes = max(maxBytes, h.ByteShare[i])
	}
	col := histBarWidth + 12
	ew.Printf("  %s  %s%s\n", padRight("LIFETIME", labelWidth), padRight("OBJECTS", col), "BYTES")
	for i, l := range labels {
		objects := padRight(bar(h.ObjectShare[i], maxObj, histBarWidth), histBarWidth) + " " + fmt.Sprintf("%9s", numfmt.PercentText(h.ObjectShare[i]))
		bytes := padRight(bar(h.ByteShare[i], maxBytes, histBarWidth), histBarWidth) + " " + fmt.Sprintf("%9s", numfmt.PercentText(h.ByteShare[i]))
		ew.Printf("  %s  %s  %s\n", padRight(l, labelWidth), objects, strings.TrimRight(bytes, " "))
	}
}
