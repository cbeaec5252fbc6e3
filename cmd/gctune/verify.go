package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
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
				return usageErrorf("verify needs a study and, after --, the command to run: gctune verify STUDY -- COMMAND [ARGS...]")
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
	// Quiet prints no line per run; JSON prints verifyDoc.
	Quiet, JSON bool
	// Runner runs the command (nil: verify.ExecRunner).
	Runner verify.Runner
}

// verifyDoc is `gctune verify --json`.
type verifyDoc struct {
	Study       string                 `json:"study"`
	Storage     string                 `json:"storage"`
	Session     string                 `json:"session"`
	Command     []string               `json:"command"`
	Runs        int                    `json:"runs"`
	Warmup      bool                   `json:"warmup"`
	Interrupted bool                   `json:"interrupted,omitempty"`
	Error       string                 `json:"error,omitempty"`
	Configs     []verify.ConfigSummary `json:"configs"`
	Measured    []verify.MeasuredRun   `json:"measured"`
}

// runVerify runs the command under the defaults, the recommendation and o.Trial
// (verify.Measure, which stores each run in the study as it finishes), and writes the measured
// speedups beside the predicted ones to w, a line per run to ew.
func runVerify(ctx context.Context, w, ew io.Writer, cfg Config, o verifyOptions) error {
	if err := checkCount("runs", o.Runs, 1, maxVerifyRuns, ""); err != nil {
		return err
	}
	if o.Timeout < 0 {
		return usageErrorf("--timeout %s: must not be negative", o.Timeout)
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
	total := len(configs) * (o.Runs + map[bool]int{true: 1, false: 0}[plan.Warmup])
	progress := !o.Quiet && !o.JSON
	if progress {
		fmt.Fprintf(ew, "verify %s: %d runs of %s (%s), %d rounds after one warm-up each\n", o.Study, total,
			strings.Join(o.Argv, " "), configNames(configs), o.Runs)
	}
	rec := verify.Recording{Store: store, StudyID: id}
	if progress {
		rec.OnRun = func(mr verify.MeasuredRun, r verify.Run) { printVerifyRun(ew, mr.Seq+1, total, r) }
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
		return asUsage(err)
	}
	if err != nil {
		return err
	}
	doc := verifyDoc{Study: o.Study, Storage: store.URL(), Session: m.Session, Command: o.Argv, Runs: o.Runs,
		Warmup: plan.Warmup, Interrupted: m.Interrupted, Configs: m.Configs, Measured: m.Measured}
	if m.Failed != nil {
		doc.Error = m.Failed.Error()
	}
	if o.JSON {
		if err := writeJSON(w, doc); err != nil {
			return err
		}
	} else if err := printVerify(w, &doc); err != nil {
		return err
	}
	if m.Failed != nil {
		return m.Failed
	}
	if m.Interrupted {
		return interruptedf("verify stopped before its last run; the runs that finished are stored in study %s", quoteName(o.Study))
	}
	return nil
}

// printVerifyRun writes run r's progress line: the n-th of total.
func printVerifyRun(ew io.Writer, n, total int, r verify.Run) {
	round := fmt.Sprintf("round %d", r.Round+1)
	if r.Round < 0 {
		round = "warm-up"
	}
	note := ""
	if r.StatsErr != "" {
		note = "  (gctune-stats line unreadable: " + r.StatsErr + ")"
	} else if r.Measured != nil {
		if gc, ok := r.Measured.GC(); ok {
			note = fmt.Sprintf("  (in Pharo: %s, GC %s)", numfmt.SecondsText(r.Measured.WallSeconds), numfmt.SecondsText(gc))
		}
	}
	fmt.Fprintf(ew, "  %d/%d %-8s %-10s %s%s\n", n, total, round, r.Config, numfmt.SecondsText(r.Wall.Seconds()), note)
}

// verifyConfigs returns the defaults, the study's recommendation (what export writes) and,
// with --trial, that trial as it is.
func verifyConfigs(ctx context.Context, cfg Config, store *trialstore.Store, id int, o verifyOptions, sp *study.Problem) ([]verify.Config, error) {
	trials, err := store.Storage().GetAllTrials(id)
	if err != nil {
		return nil, err
	}
	if _, ok := trialattr.Best(trials); !ok {
		return nil, usageErrorf("study %q has no completed feasible trial yet: nothing to verify", o.Study)
	}
	prob, err := sp.ReopenObjective(reopenOptions(cfg, study.ReopenOptions{}))
	if err != nil {
		return nil, err
	}
	ans, err := study.AnswerFor(ctx, store, id, o.Study, prob, trials, study.Choice{},
		study.RecommendationSettings{Tolerance: cfg.Search.Tolerance, Version: cfg.build.recommendation})
	if err != nil {
		return nil, err
	}
	rec := ans.Recommendation
	meta := exportMeta(store, id, o.Study, sp, cfg.build.version)
	configs := []verify.Config{{Name: verify.DefaultName, Trial: -1, EdenFlag: export.LaunchFlagOf(sp.VM),
		Script: export.DefaultsScript(sp.VM), PredictedSpeedup: 1}}
	add := func(name string, trial int, c *export.Config) error {
		var script bytes.Buffer
		if err := export.WriteST(&script, c); err != nil {
			return err
		}
		vc := verify.Config{Name: name, Trial: trial, EdenFlag: export.LaunchFlagOf(c.VM),
			Script: script.String(), PredictedSpeedup: c.Predicted.Speedup}
		vc.PredictedInterval = c.Predicted.SpeedupInterval // nil when unknown (recommend.KnownIntervals)
		configs = append(configs, vc)
		return nil
	}
	if err := add("best", rec.Trial, export.FromRecommendation(meta, rec)); err != nil {
		return nil, err
	}
	if o.TrialSet {
		t, err := study.FindTrial(trials, o.Study, o.Trial)
		if err != nil {
			return nil, err
		}
		c, err := export.FromTrial(meta, t)
		if err != nil {
			return nil, err
		}
		if err := add(fmt.Sprintf("trial-%d", t.Number), t.Number, c); err != nil {
			return nil, err
		}
	}
	return configs, nil
}

func configNames(cs []verify.Config) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

func printVerify(w io.Writer, d *verifyDoc) error {
	ew := errwriter.New(w)
	state := ""
	if d.Interrupted {
		state = " (interrupted)"
	}
	ew.Printf("verified study %s%s: %s\n", d.Study, state, strings.Join(d.Command, " "))
	predHead := "predicted"
	for _, c := range d.Configs {
		if c.PredictedInterval != nil {
			predHead = fmt.Sprintf("predicted (%s of runs)", numfmt.PercentText(c.PredictedInterval.Coverage))
		}
	}
	rows := [][]string{{"configuration", "runs", "mean", "median", "CV", "GC (Pharo)", predHead, "measured speedup (95 % t interval)"}}
	for _, c := range d.Configs {
		if c.Runs == 0 {
			continue
		}
		name := c.Name
		if c.Trial >= 0 && c.Name == "best" {
			name = fmt.Sprintf("best (trial %d)", c.Trial)
		}
		gc := "—"
		if c.Stats != nil {
			if v, ok := c.Stats.GC(); ok {
				gc = numfmt.SecondsText(v)
			}
		}
		pred, meas := "", ""
		if c.Name != verify.DefaultName {
			pred = numfmt.Speedup(c.PredictedSpeedup)
			if iv := c.PredictedInterval; iv != nil {
				pred += " [" + numfmt.Range(iv.Lo, iv.Hi, numfmt.Speedup) + "]"
			}
			meas = "—"
			if sp := c.Speedup; sp != nil {
				meas = numfmt.Speedup(sp.Estimate)
				if sp.HasInterval() {
					meas += " [" + numfmt.Range(sp.Low, sp.High, numfmt.Speedup) + "]"
				} else {
					meas += " (one round: no interval)"
				}
			}
		}
		cv := "—"
		if c.Runs > 1 {
			cv = numfmt.PercentText(c.CV)
		}
		rows = append(rows, []string{name, fmt.Sprint(c.Runs), numfmt.SecondsText(c.MeanSeconds), numfmt.SecondsText(c.MedianSeconds), cv, gc, pred, meas})
	}
	if len(rows) == 1 {
		rows = nil
		ew.Printf("no run measured\n")
	}
	wid := make([]int, 8)
	for _, r := range rows {
		for i, c := range r {
			wid[i] = max(wid[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		var cells []string
		for i, c := range r {
			if i == 0 || i == len(r)-1 {
				cells = append(cells, padRight(c, wid[i]))
			} else {
				cells = append(cells, padLeft(c, wid[i]))
			}
		}
		ew.Printf("%s\n", strings.TrimRight(strings.Join(cells, "  "), " "))
	}
	for _, c := range d.Configs {
		if line := comparisonText(c); line != "" {
			ew.Printf("%s\n", line)
		}
	}
	for _, c := range d.Configs {
		if c.Wild {
			ew.Printf("warning: the runs under %s vary wildly (coefficient of variation %s > %.0f %%): the machine is busy or the work is not the same from run to run; the speedup is uncertain\n",
				c.Name, numfmt.PercentText(c.CV), 100*verify.WildCV)
		}
	}
	ew.Printf("stored %d run(s) in study %s (session %s): 'gctune report %s' shows them, 'gctune calibrate --from-study %s' fits the cost model on the default runs\n",
		len(d.Measured), d.Study, d.Session, d.Study, d.Study)
	return ew.Err()
}

// comparisonText says how a configuration's measured speedup stands against the interval its
// prediction states: "best: the measured speedup, 1.10x, lies in the predicted 0.99-1.36x (99 %
// of runs, 1.16x expected)"; "" without a predicted interval or a measured speedup.
func comparisonText(c verify.ConfigSummary) string {
	v := c.Verdict()
	if v == "" {
		return ""
	}
	return c.Name + ": " + v
}
