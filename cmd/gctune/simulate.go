package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/simulate"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
)

// NewSimulateCmd returns `gctune simulate`; its RunE calls runF (nil: runSimulate).
func NewSimulateCmd(ro *rootOptions, runF runFunc[simulateOptions]) *cobra.Command {
	run := orRun(runF, runSimulate)
	var o simulateOptions
	cmd := &cobra.Command{
		Use:         "simulate WORKLOAD|PROFILE",
		Annotations: cmdutil.Declare(argsProfiles, []string{"events"}, nil),
		Short:       "Simulate the Spur collector on a workload with given GC parameters",
		Long: `Simulate the Pharo VM's Spur collector (scavenger, tenuring, remembered set, old-space
segments, full GC, growth and shrink) over a workload's object lifetimes, with the given GC
parameters and with the defaults, and print the papers' table for both and the speedup.

Parameters come from the simulate section of the configuration: ./gctune.yaml, --config FILE
(an exported configuration: gctune export --format yaml), GCTUNE_SIMULATE_* variables, or the
flags below. Sizes accept KiB/MiB/GiB and k/m/g.`,
		Example: `  gctune simulate dataframe-3.1gb
  gctune simulate dataframe-3.1gb --eden 64MiB --headroom 512MiB --shrink 512MiB --ratio 10 --survivors-proportion 1.0
  gctune simulate run.csv --config best.yaml --events events.csv
  gctune simulate --json dataframe-500mb
  echo '{"eden":"64MiB","headroom":"512MiB","ratio":10,"survivors_proportion":1}' | gctune simulate --batch dataframe-3.1gb

--batch reads one parameter set per line of standard input, a JSON object with any of the keys
eden, headroom, shrink (bytes, or strings such as "64MiB"), ratio and survivors_proportion (a
number or "pharo"; missing keys take the configured values, a key given twice is an error), simulates the workload (generated once) and writes
one JSON line per input: {"params":..., "stats":..., "speedup":...} or {"error":"..."}. It is
how benchmark scripts in other languages drive the simulator.`,
		Args: cmdutil.ExactArgs(1),
		RunE: ro.withConfig(func(cmd *cobra.Command, args []string, cfg Config) error {
			o.Ref, o.JSON, o.Stdin = args[0], ro.json, cmd.InOrStdin()
			return run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, o)
		}),
	}
	addSimulateFlags(cmd)
	addCostFlag(cmd)
	addProfileFlags(cmd)
	addWorkloadFlags(cmd, "seed")
	f := cmd.Flags()
	addRebuildFlags(cmd)
	f.StringVar(&o.Events, "events", "", "write the per-GC event log of the given parameters as CSV to FILE.csv")
	f.BoolVar(&o.Batch, "batch", false, "read parameter sets as JSON lines on standard input, answer one JSON line each")
	f.IntVar(&o.Replicas, "replicas", 0, "also run both configurations on this many perturbed replicas of the run (the uncertainty section's model) and print each one's values and interval")
	f.Uint64Var(&o.ReplicaSeed, "replica-seed", 1, "seed the replicas are drawn from (a study draws them from its own seed)")
	f.StringVar(&o.Scenario, "scenario", string(uncertainty.ScenarioLike), "what the --replicas runs are: like (inputs like this one: the allocation scaled too, as the search judges) or again (this input run again, as the headline forecast is stated)")
	f.StringArrayVar(&o.Pretenure, "pretenure", nil, "allocate this site's objects straight into old space in the given run, as basicNewTenured does: a site (\"Foo>>#bar @23\") or a method, all its sites (repeatable; docs/sites.md)")
	return cmd
}

// addSimulateFlags adds the five tunables' flags, bound to the simulate section.
func addSimulateFlags(cmd *cobra.Command) {
	d := heapsim.DefaultParams()
	for _, t := range tunable.All() {
		usage := fmt.Sprintf("%s, VM parameter %d (simulate.%s)", t.Label, t.VMParam, t.Key)
		if t.Unit == tunable.UnitProportion {
			usage = fmt.Sprintf("%s: the tenuring proportion p, ≥ 1 keeps all survivors, or %s (VM parameter %d; simulate.%s)", t.Label, tunable.DefaultWord, t.VMParam, t.Key)
		}
		cmdutil.AddBoundFlag(cmd, t.FlagName(), t.Text(d), "simulate."+t.Key, usage)
	}
}

// simulateOptions are what `gctune simulate` is asked besides the configuration (the
// parameters simulated are the configuration's simulate section).
type simulateOptions struct {
	// Ref is the workload or profile simulated.
	Ref string
	// Events, when set, is the CSV file the given run's event log goes to.
	Events string
	// JSON prints simulate.Report.
	JSON bool
	// Batch reads parameter sets as JSON lines from Stdin and answers one JSON line each
	// (simulate.Batch); Events, JSON and Replicas are then unused.
	Batch bool
	Stdin io.Reader
	// Replicas, when above 0, also judges both configurations on this many perturbed replicas
	// of the run (the configuration's uncertainty model), drawn from ReplicaSeed.
	Replicas    int
	ReplicaSeed uint64
	// Scenario is the question the replicas answer: "like" or "again" (uncertainty.Scenario).
	Scenario string
	// Pretenure names allocation sites the given run allocates in old space (simulate.Pretenure).
	Pretenure []string
}

// runSimulate simulates the workload o.Ref at the configured parameters and at the defaults
// (simulate.Simulate, or simulate.Batch for parameter sets read from o.Stdin), writing the
// result to w and how the profile was read to ew.
func runSimulate(ctx context.Context, w, ew io.Writer, cfg Config, o simulateOptions) error {
	given, err := cfg.Simulate.Params()
	if err != nil {
		return cmdutil.AsUsage(err)
	}
	open, err := cfg.openOptions()
	if err != nil {
		return err
	}
	cost, _, err := loadCostContext(ctx, cfg)
	if err != nil {
		return err
	}
	so := simulate.Options{Given: given, Default: cfg.Simulate.VMFacts(), Cost: cost}
	if !o.Batch {
		if len(o.Pretenure) > 0 && o.Replicas > 0 {
			return cmdutil.Usagef("--pretenure with --replicas: judge pretenuring on replicas with optimize's advice (docs/sites.md)")
		}
		if o.Replicas < 0 || o.Replicas > uncertainty.MaxReplicas {
			return cmdutil.Usagef("--replicas %d: want 0 (none) to %d", o.Replicas, uncertainty.MaxReplicas)
		}
		if o.Replicas > 0 {
			m := cfg.Uncertainty.Effective()
			if cfg.Uncertainty.Off {
				m = uncertainty.Default()
			}
			if m, err = m.ForScenario(o.Replicas, uncertainty.Scenario(o.Scenario)); err != nil {
				return cmdutil.AsUsage(err)
			}
			so.Replicas, so.ReplicaSeed = m, o.ReplicaSeed
		}
		so.Pretenure = o.Pretenure
		if o.Events != "" {
			so.Events = func(write func(io.Writer) error) error { return outfile.Write(o.Events, write) }
		}
	}
	p, info, err := openProfile(ctx, o.Ref, open)
	if err != nil {
		return inputError(err)
	}
	if o.Batch {
		started := func() {
			if ew != nil {
				printProfileInfo(ew, study.NewProfileInfo(info, p))
			}
		}
		return simulate.Batch(o.Stdin, w, p, simulate.BatchOptions{Ref: o.Ref, Given: so.Given, Default: so.Default, Cost: cost, Started: started})
	}
	doc, err := simulate.Simulate(p, info, open, so)
	var el *simulate.EventLogError
	switch {
	case errors.As(err, &el):
		return fmt.Errorf("--events: %w", el.Err)
	case errors.Is(err, simulate.ErrInput):
		return cmdutil.AsUsage(err)
	case err != nil:
		return err
	}
	doc.Events = o.Events
	if ew != nil {
		printProfileInfo(ew, doc.Profile)
	}
	if o.JSON {
		return cmdutil.WriteJSON(w, doc)
	}
	return doc.WriteText(w)
}
