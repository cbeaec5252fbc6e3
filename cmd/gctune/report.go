package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/config"
	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/internal/stage"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/pretenure"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/report"
	"github.com/gctune/gctune/study"
)

// studyTrialOptions are what report and explain are asked about the study: which one, and
// which of its configurations.
type studyTrialOptions struct {
	// Study is the study's name.
	Study string
	// Trial, when TrialSet, is the trial taken as it is instead of the recommendation.
	Trial    int
	TrialSet bool
	// Force uses workloads that changed since the study began.
	Force bool
	// Workers is the simulations run at once (0: one per core).
	Workers int
}

// reportOptions are what `gctune report` is asked besides the configuration.
type reportOptions struct {
	studyTrialOptions
	// Output is the HTML file written; PNGDir, when set, the folder each figure's PNG goes to.
	Output, PNGDir string
	// SweepPoints is the grid points per parameter of the sensitivity sweeps.
	SweepPoints int
}

// explainOptions are what `gctune explain` is asked besides the configuration.
type explainOptions struct {
	studyTrialOptions
	// JSON prints the diagnosis as JSON.
	JSON bool
}

// NewReportCmd returns `gctune report STUDY`; its RunE calls runF (nil: runReport).
func NewReportCmd(ro *rootOptions, runF runFunc[reportOptions]) *cobra.Command {
	run := orRun(runF, runReport)
	var o reportOptions
	cmd := &cobra.Command{
		Use:         "report STUDY",
		Annotations: cmdutil.Declare(argsStudy, []string{"output"}, []string{"png"}),
		Short:       "Write a self-contained HTML report: the result, and why it works",
		Long: `Write one self-contained HTML file (inline SVG figures, no network, printable) about a study's
recommended configuration (as gctune export writes it; --trial N for one trial as it is):

  apply it     the launch flag (--edenSize=), the startup script and its parameterAt:put:
               lines, when each parameter takes effect and what persists, how the
               configuration was chosen and what was put back to the VM default
  diagnosis    where the default run's GC time went, which pathologies it shows and what each
               cost, and which change of the best configuration removes each, confirmed by
               simulating the best with that one parameter put back (also: gctune explain)
  workload     lifetime histograms by count and by bytes, the per-class table, the long-lived
               fraction
  search       the best value against trials, every trial, time against footprint with the
               Pareto front and the budget
  sensitivity  each parameter swept over its range with the others at the best (simulated),
               ranked by effect
  how far the answer holds
               the expected figures over the perturbed runs with their intervals beside the
               profiled run's; each run's value with the recommendation and the defaults; the
               landscape around the recommendation along each kept parameter, with the cliffs
               and the kept margin (judged on the decision runs, as the margins were)
  the run      default against best over the run: footprint and live bytes, scavenge times,
               full GCs by cause, remembered set, tenured bytes

--png DIR also writes each figure as a PNG file. The report re-simulates the study's workloads
(about 130 runs, and for the landscape about 7 moves per kept parameter, each on the 8 decision
runs of the uncertainty model; some seconds per GB of workload).`,
		Example: `  gctune report dataframe-3.1gb -o report.html
  gctune report dataframe-3.1gb -o report.html --png figures/
  gctune report dataframe-3.1gb --storage postgres://gctune@db/gctune -o report.html`,
		Args: cmdutil.ExactArgs(1),
		RunE: ro.withConfig(func(cmd *cobra.Command, args []string, cfg Config) error {
			o.Study, o.TrialSet = args[0], cmd.Flags().Changed("trial")
			return run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, o)
		}),
	}
	f := cmd.Flags()
	f.StringVarP(&o.Output, "output", "o", "report.html", "the HTML file to write (written whole or not at all)")
	f.StringVar(&o.PNGDir, "png", "", "also write each figure as DIR/NAME.png")
	addReportFlags(cmd, &o.studyTrialOptions)
	f.IntVar(&o.SweepPoints, "sweep-points", report.DefaultSweepPoints, "grid points per parameter in the sensitivity sweeps (3-1000)")
	addStorageFlag(cmd, storageUsage)
	addCostFlag(cmd)
	addClockFlag(cmd)
	return cmd
}

// NewExplainCmd returns `gctune explain STUDY`; its RunE calls runF (nil: runExplain).
func NewExplainCmd(ro *rootOptions, runF runFunc[explainOptions]) *cobra.Command {
	run := orRun(runF, runExplain)
	var o explainOptions
	cmd := &cobra.Command{
		Use:         "explain STUDY",
		Annotations: cmdutil.Declare(argsStudy, nil, nil),
		Short:       "Say why the best configuration is faster than the default, with the evidence",
		Long: `Compare the default configuration with the study's recommendation (or --trial N) on each workload and
say, in plain sentences with the numbers: how the recommendation was chosen (the smallest
footprint within --tolerance of the fastest, changes worth less put back); where the GC time went; which pathologies the default
run shows (full-GC bursts from large allocations, ratio-triggered full GCs on live data,
scavenges dominated by the remembered set, premature tenuring) and what each cost; and which
parameter change removes each, confirmed by simulating the best with that one parameter put
back to its default. Every finding states its evidence. The same text opens gctune report.

With an uncertainty model (the default), the recommendation's figures are the expected ones
over the perturbed runs: explain states the expected run time and speedup with their intervals
(and the defaults'), the profiled run exactly as recorded beside them, how far each kept
parameter may move before the run time rises by the tolerance, and any parameter moved off a
cliff. The diagnosis itself simulates the profiled run as recorded. --json adds "prediction".`,
		Example: `  gctune explain dataframe-3.1gb
  gctune explain dataframe-3.1gb --trial 42
  gctune explain dataframe-3.1gb --json`,
		Args: cmdutil.ExactArgs(1),
		RunE: ro.withConfig(func(cmd *cobra.Command, args []string, cfg Config) error {
			o.Study, o.TrialSet, o.JSON = args[0], cmd.Flags().Changed("trial"), ro.json
			return run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, o)
		}),
	}
	addReportFlags(cmd, &o.studyTrialOptions)
	addStorageFlag(cmd, storageUsage)
	addCostFlag(cmd)
	addClockFlag(cmd)
	return cmd
}

// addReportFlags adds the flags report and explain share: --trial, --force, --workers and
// --tolerance.
func addReportFlags(cmd *cobra.Command, o *studyTrialOptions) {
	f := cmd.Flags()
	f.IntVar(&o.Trial, "trial", 0, "report on this trial number as it is instead of the recommendation")
	f.BoolVar(&o.Force, "force", false, "use workload files that changed since the study began")
	f.IntVar(&o.Workers, "workers", 0, "simulations run at once (0: one per core)")
	addToleranceFlag(cmd)
}

// loadReportInput opens the study and reads it into the report's input (report.Load), with
// how each profile was read (also in the returned docs, for --json and standard error), and
// the study's answer: its recommendation (the stored one, else one made now, not stored:
// explain and report only read a study) or the trial as it is.
func loadReportInput(ctx context.Context, cfg Config, o studyTrialOptions) (report.Input, study.Answer, []study.ProfileInfo, error) {
	store, id, sp, err := openStudy(ctx, cfg.Storage, o.Study, true)
	if err != nil {
		return report.Input{}, study.Answer{}, nil, err
	}
	defer store.Close()
	if err := checkStudyCost(cfg, sp, o.Study); err != nil {
		return report.Input{}, study.Answer{}, nil, err
	}
	in, ans, err := report.Load(ctx, store, id, sp, report.LoadOptions{Study: o.Study, Version: cfg.build.version,
		Choice:   study.Choice{Trial: o.Trial, HasTrial: o.TrialSet},
		Settings: study.RecommendationSettings{Tolerance: cfg.Search.Tolerance, Version: cfg.build.recommendation},
		Reopen:   reopenOptions(cfg, study.ReopenOptions{Force: o.Force, Clock: cfg.Lifetimes.Clock})})
	if err != nil {
		return report.Input{}, study.Answer{}, nil, err
	}
	profiles := study.WithDefaultRuns(profileInfos(sp), in.Problem)
	for _, d := range profiles {
		pi := report.ProfileInfo{Line: d.Line}
		if s := study.ProfiledBeside(d.Profiled, d.SimulatedDefault); s != "" {
			pi.Notes = append(pi.Notes, s+".")
		}
		for _, m := range d.Warnings {
			pi.Notes = append(pi.Notes, "Warning: "+m+".")
		}
		in.Profiles = append(in.Profiles, pi)
	}
	return in, ans, profiles, nil
}

// runExplain diagnoses the study's recommendation (or o.Trial as it is) against the defaults
// (diagnose.Diagnose) and writes the findings to w, how each profile was read to ew.
func runExplain(ctx context.Context, w, ew io.Writer, cfg Config, o explainOptions) error {
	name := o.Study
	if err := cmdutil.CheckCount("workers", o.Workers, 0, config.MaxWorkers, "0 = one per core"); err != nil {
		return err
	}
	st := stage.New(ew, cmdutil.IsTerminal(ew))
	defer st.End()
	st.Begin("reading the study and its profiles")
	in, ans, profiles, err := loadReportInput(ctx, cfg, o.studyTrialOptions)
	if err != nil {
		return err
	}
	rec := ans.Recommendation
	st.Begin("diagnosing: the defaults, the configuration and each change put back, simulated on the profile")
	d, err := diagnose.Diagnose(ctx, in.Problem, ans.Point, o.Workers)
	if err != nil {
		return err
	}
	var tuned *heapsim.Params
	if rec != nil {
		p := rec.Point.Params(in.Problem.Base())
		tuned = &p
	}
	sites, advice, err := pretenure.ForExplain(in.Problem, tuned)
	if err != nil {
		return err
	}
	st.End()
	printProfileInfos(ew, profiles)
	seconds := in.Problem.Seconds()
	if o.JSON {
		return cmdutil.WriteJSON(w, struct {
			Study          string                    `json:"study"`
			Trial          int                       `json:"trial"`
			Profiles       []study.ProfileInfo       `json:"profiles"`
			Recommendation *recommend.Recommendation `json:"recommendation,omitempty"`
			Prediction     *recommend.Prediction     `json:"prediction,omitempty"`
			Diagnosis      *diagnose.Diagnosis       `json:"diagnosis"`
			Sites          []pretenure.WorkloadSites `json:"sites,omitempty"`
			Pretenure      *pretenure.Advice         `json:"pretenure,omitempty"`
		}{name, ans.Number, profiles, rec, rec.Prediction(seconds), d, sites, advice})
	}
	workloads := report.WorkloadList(in.Problem)
	if rec != nil {
		if err := rec.WriteExplainHeader(w, name, workloads, seconds); err != nil {
			return err
		}
	} else if _, err := fmt.Fprintf(w, "Study %s (%s), trial %d as it is against the VM defaults.\n", termtext.Quote(name), workloads, ans.Number); err != nil {
		return err
	}
	if err := d.WriteText(w); err != nil {
		return err
	}
	return pretenure.WriteExplainText(w, sites, advice)
}

// writeExplainHeader is recommend.Recommendation.WriteExplainHeader.
func writeExplainHeader(w io.Writer, name, workloads string, rec *recommend.Recommendation, seconds bool) error {
	return rec.WriteExplainHeader(w, name, workloads, seconds)
}

// reportError maps the report package's errors to one line for the user.
func reportError(name string, err error) error {
	if errors.Is(err, report.ErrNoBestTrial) {
		return cmdutil.Usagef("study %q has no completed feasible trial yet", name)
	}
	return err
}

// checkOutputs checks, before any simulation, that the report can be written (the root's
// checkOutputFlags does the same for the command line; runReport may be called without it).
func checkOutputs(o reportOptions) error {
	if err := outfile.Check(o.Output); err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	if o.PNGDir != "" {
		if err := cmdutil.CheckOutputDir(o.PNGDir); err != nil {
			return fmt.Errorf("--png: %w", err)
		}
	}
	return nil
}

// runReport builds the study's report (report.Build), renders it and writes it to o.Output
// (and its figures to o.PNGDir), saying what it wrote on w; progress and how each profile was
// read go to ew.
func runReport(ctx context.Context, w, ew io.Writer, cfg Config, o reportOptions) error {
	name := o.Study
	if err := checkOutputs(o); err != nil {
		return err
	}
	if err := cmdutil.CheckCount("workers", o.Workers, 0, config.MaxWorkers, "0 = one per core"); err != nil {
		return err
	}
	if o.SweepPoints != 0 {
		if err := cmdutil.CheckCount("sweep-points", o.SweepPoints, 3, maxSweepPoints, ""); err != nil {
			return err
		}
	}
	if err := (report.Options{SweepPoints: o.SweepPoints, Workers: o.Workers}).Validate(); err != nil {
		return cmdutil.AsUsage(err)
	}
	st := stage.New(ew, cmdutil.IsTerminal(ew))
	defer st.End()
	st.Begin("reading the study and its profiles")
	in, _, profiles, err := loadReportInput(ctx, cfg, o.studyTrialOptions)
	if err != nil {
		return err
	}
	st.Begin("simulating the report's runs (the recommendation, the diagnosis, the sweeps and the landscape)")
	r, err := report.Build(ctx, in, report.Options{SweepPoints: o.SweepPoints, Workers: o.Workers, Progress: st.Progress})
	if err != nil {
		return reportError(name, err)
	}
	st.Begin("drawing the figures and writing the page")
	page, err := report.Publish(r, o.PNGDir)
	if err != nil {
		return err
	}
	if err := outfile.Write(o.Output, func(f io.Writer) error { _, err := page.HTML.WriteTo(f); return err }); err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	st.End()
	printProfileInfos(ew, profiles)
	fmt.Fprintf(w, "wrote %s (%d figures)\n", o.Output, len(page.Figures))
	if o.PNGDir != "" {
		fmt.Fprintf(w, "wrote %d PNG files to %s\n", len(page.PNGs), o.PNGDir)
	}
	return nil
}
