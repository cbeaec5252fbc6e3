package main

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/verify"
)

// NewVerifyCmd returns `gctune verify`; its RunE calls runF (nil: runVerify).
func NewVerifyCmd(ro *rootOptions, runF runFunc[verifyOptions]) *cobra.Command {
	run := orRun(runF, runVerify)
	var o verifyOptions
	cmd := &cobra.Command{
		Use:   "verify STUDY [--runs N] [--trial N] [--timeout D] -- COMMAND [ARGS...]",
		Short: "Run the real application under the defaults and the recommended configuration, and measure the speedup",
		Long: `Run the application's command alternately under the default GC parameters and under the
study's best configuration (and --trial N, if given): one warm-up run of each, then --runs
rounds, each configuration once per round, the order reversed every other round. Every run
gets its configuration as

  GCTUNE_EDEN_FLAG   the VM's launch flag for the eden size, e.g. --edenSize=632m
  GCTUNE_ST          the path of a Pharo startup script setting the other parameters
                     (written to a temporary directory, removed afterwards)
  GCTUNE_CONFIG      default, best or trial-N

and in its arguments, where {eden} and {st} are replaced by the flag and the script's path.
The wall time of each run is measured around the process; a line "gctune-stats {json}" on its
standard output (the format 'gctune calibrate --snippet' prints) adds Pharo's GC figures.

The measured speedup is the geometric mean over rounds of the default run's time over the
configuration's, with a 95 % Student t interval on those paired log ratios, printed beside the
predicted speedup. When the study has an uncertainty model, the prediction is the expected
speedup with the interval a further run's speedup lies in (99 % of runs), and verify says
whether the measured speedup lies in it, below or above it, and whether its own interval meets
it. Runs that vary by more than 20 % (coefficient of variation) are called out.
Each run is stored in the study as it finishes: 'gctune report' shows predicted against
measured, and 'gctune calibrate --from-study' fits the cost model on the default runs.

A command that fails stops verify with its exit code and the last lines of its standard
error; a run that outlasts --timeout is ended by killing its process group; SIGINT stops at
once, the runs so far stored.`,
		Example: `  gctune verify dataframe-3.1gb -- pharo --headless {eden} App.image st {st} bench.st
  gctune verify my-app --runs 10 --trial 42 --timeout 2h -- ./bench.sh
  gctune verify my-app --json -- sh -c 'pharo --headless $GCTUNE_EDEN_FLAG App.image st $GCTUNE_ST bench.st'`,
		Args: func(cmd *cobra.Command, args []string) error {
			dash := cmd.ArgsLenAtDash()
			if dash != 1 || len(args) < 2 {
				return cmdutil.Usagef("verify needs a study and, after --, the command to run: gctune verify STUDY -- COMMAND [ARGS...]")
			}
			return nil
		},
		RunE: ro.withConfig(func(cmd *cobra.Command, args []string, cfg Config) error {
			o.Study, o.Argv, o.JSON = args[0], args[1:], ro.json
			o.TrialSet = cmd.Flags().Changed("trial")
			return run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, o)
		}),
	}
	f := cmd.Flags()
	f.IntVar(&o.Runs, "runs", 5, "measured runs of each configuration (after one warm-up each)")
	f.IntVar(&o.Trial, "trial", 0, "also run this trial's configuration")
	f.DurationVar(&o.Timeout, "timeout", 0, "end a run that takes longer (its process group is killed); 0 = no limit")
	f.BoolVar(&o.NoWarmup, "no-warmup", false, "skip the warm-up run of each configuration")
	f.BoolVar(&o.ShowOutput, "show-output", false, "pass the command's output through to standard error")
	f.BoolVarP(&o.Quiet, "quiet", "q", false, "no line per run")
	addStorageFlag(cmd, storageUsage)
	addCostFlag(cmd)
	addToleranceFlag(cmd)
	return cmd
}

// verifyOptions are what `gctune verify` is asked besides the configuration.
type verifyOptions struct {
	// Study is the study's name, Argv the command run (after --).
	Study string
	Argv  []string
	// Runs is the measured runs of each configuration (at least 1).
	Runs int
	// Trial, when TrialSet, is a trial whose configuration also runs.
	Trial    int
	TrialSet bool
	// Timeout ends a run that takes longer (0: no limit).
	Timeout time.Duration
	// NoWarmup skips the warm-up run of each configuration.
	NoWarmup bool
	// ShowOutput passes the command's output through to ew (with the ExecRunner).
	ShowOutput bool
	// Quiet prints no line per run; JSON prints verify.Report.
	Quiet, JSON bool
	// Runner runs the command (nil: verify.ExecRunner).
	Runner verify.Runner
}

// runVerify runs the command under the defaults, the recommendation and o.Trial
// (verify.Measure, which stores each run in the study as it finishes), and writes the measured
// speedups beside the predicted ones to w, a line per run to ew.
func runVerify(ctx context.Context, w, ew io.Writer, cfg Config, o verifyOptions) error {
	if err := cmdutil.CheckCount("runs", o.Runs, 1, maxVerifyRuns, ""); err != nil {
		return err
	}
	if o.Timeout < 0 {
		return cmdutil.Usagef("--timeout %s: must not be negative", o.Timeout)
	}
	store, id, sp, err := openStudy(ctx, cfg.Storage, o.Study, false)
	if err != nil {
		return err
	}
	defer store.Close()
	if err := checkStudyCost(cfg, sp, o.Study); err != nil {
		return err
	}
	configs, err := verifyConfigs(ctx, cfg, store, id, o, sp)
	if err != nil {
		return err
	}
	plan := verify.Plan{Configs: configs, Argv: o.Argv, Runs: o.Runs, Warmup: !o.NoWarmup, Timeout: o.Timeout}
	rec := verify.Recording{Store: store, StudyID: id}
	if !o.Quiet && !o.JSON {
		verify.WriteStart(ew, o.Study, plan)
		rec.OnRun = func(mr verify.MeasuredRun, r verify.Run) { verify.WriteRunLine(ew, mr.Seq+1, plan.TotalRuns(), r) }
	}
	runner := o.Runner
	if runner == nil {
		var er verify.ExecRunner
		if o.ShowOutput {
			er.Output = ew
		}
		runner = er
	}
	m, err := verify.Measure(ctx, plan, runner, rec)
	if errors.Is(err, verify.ErrStart) {
		return cmdutil.AsUsage(err)
	}
	if err != nil {
		return err
	}
	doc := verify.NewReport(o.Study, store.URL(), plan, m)
	if o.JSON {
		err = cmdutil.WriteJSON(w, doc)
	} else {
		err = doc.WriteText(w)
	}
	if err != nil {
		return err
	}
	if m.Failed != nil {
		return m.Failed
	}
	if m.Interrupted {
		return cmdutil.Interruptedf("verify stopped before its last run; the runs that finished are stored in study %s", termtext.Quote(o.Study))
	}
	return nil
}

// verifyConfigs returns the defaults, the study's recommendation (what export writes) and,
// with --trial, that trial as it is (verify.Configs).
func verifyConfigs(ctx context.Context, cfg Config, store *trialstore.Store, id int, o verifyOptions, sp *study.Problem) ([]verify.Config, error) {
	trials, err := store.Storage().GetAllTrials(id)
	if err != nil {
		return nil, err
	}
	if _, ok := trialattr.Best(trials); !ok {
		return nil, cmdutil.Usagef("study %q has no completed feasible trial yet: nothing to verify", o.Study)
	}
	prob, err := sp.ReopenObjective(reopenOptions(cfg, study.ReopenOptions{}))
	if err != nil {
		return nil, err
	}
	meta := study.ExportMeta(store, id, o.Study, sp, cfg.build.version)
	settings := study.RecommendationSettings{Tolerance: cfg.Search.Tolerance, Version: cfg.build.recommendation}
	best, err := study.ExportAnswer(ctx, store, id, o.Study, prob, trials, study.Choice{}, settings, meta)
	if err != nil {
		return nil, err
	}
	var trial *export.Config
	if o.TrialSet {
		if trial, err = study.ExportAnswer(ctx, store, id, o.Study, prob, trials, study.Choice{Trial: o.Trial, HasTrial: true}, settings, meta); err != nil {
			return nil, err
		}
	}
	return verify.Configs(sp.VM, best, trial)
}
