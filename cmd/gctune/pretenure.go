package main

import (
	"context"
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/pretenure"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/uncertainty"
)

// NewPretenureCmd returns `gctune pretenure`; its RunE calls runF (nil: runPretenure).
func NewPretenureCmd(ro *rootOptions, runF runFunc[pretenureOptions]) *cobra.Command {
	run := orRun(runF, runPretenure)
	var o pretenureOptions
	cmd := &cobra.Command{
		Use:         "pretenure WORKLOAD|PROFILE",
		Annotations: cmdutil.Declare(argsProfiles, nil, nil),
		Short:       "Advise which allocation sites to allocate in old space (basicNewTenured), on top of GC parameters",
		Long: `Try pretenuring the most promising allocation sites of a profile on top of the configured GC
parameters (the tuned ones: --config best.yaml from 'gctune export --format yaml'), as
Behavior>>basicNewTenured would allocate them, and judge each on the uncertainty model's
perturbed replicas, the ones a recommendation is judged on (docs/sites.md).

The sites tried are those whose objects the scavenger copies and then tenures the most at
these parameters, weighted by the share of their objects that live long. Each is reported with
its paired gain over the same parameters without it, the range of the gains over the replicas,
the full GCs on each side, and the change to make in the Pharo code. It is a code change, not a
GC parameter: it is never part of an exported configuration.`,
		Example: `  gctune pretenure dataframe-500mb --headroom 512MiB --eden 64MiB
  gctune export mystudy --format yaml -o best.yaml && gctune pretenure run.csv --config best.yaml`,
		Args: cmdutil.ExactArgs(1),
		RunE: ro.withConfig(func(cmd *cobra.Command, args []string, cfg Config) error {
			o.Ref, o.JSON = args[0], ro.json
			return run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, o)
		}),
	}
	addSimulateFlags(cmd)
	addCostFlag(cmd)
	addProfileFlags(cmd)
	addWorkloadFlags(cmd, "seed")
	addRebuildFlags(cmd)
	f := cmd.Flags()
	f.IntVar(&o.Candidates, "candidates", pretenure.DefaultCandidates, "how many sites to try")
	f.IntVar(&o.Replicas, "replicas", 0, "replicas to judge on (0: the uncertainty section's K)")
	f.Uint64Var(&o.ReplicaSeed, "replica-seed", 1, "seed the replicas are drawn from (a study draws them from its own seed)")
	f.Float64Var(&o.Tolerance, "tolerance", pretenure.DefaultTolerance, "the gain a site must beat to be advised")
	return cmd
}

// pretenureOptions are what `gctune pretenure` is asked besides the configuration.
type pretenureOptions struct {
	Ref         string
	JSON        bool
	Candidates  int
	Replicas    int
	ReplicaSeed uint64
	Tolerance   float64
}

// pretenureDocOut is `gctune pretenure --json`.
type pretenureDocOut struct {
	Input   study.Input       `json:"input"`
	Profile study.ProfileInfo `json:"profile"`
	Advice  *pretenure.Advice `json:"advice"`
}

// runPretenure opens the profile, builds the objective problem of the configuration's
// uncertainty model and advises on top of the configured parameters.
func runPretenure(ctx context.Context, w, ew io.Writer, cfg Config, o pretenureOptions) error {
	if o.Candidates < 1 || o.Candidates > pretenure.MaxCandidates {
		return cmdutil.Usagef("--candidates %d: want 1 to %d", o.Candidates, pretenure.MaxCandidates)
	}
	if o.Replicas < 0 || o.Replicas > uncertainty.MaxReplicas {
		return cmdutil.Usagef("--replicas %d: want 0 (the model's) to %d", o.Replicas, uncertainty.MaxReplicas)
	}
	if !(o.Tolerance > 0 && o.Tolerance < 1) {
		return cmdutil.Usagef("--tolerance %v: want a fraction in (0, 1)", o.Tolerance)
	}
	params, err := cfg.Simulate.Params()
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
	p, info, err := openProfile(ctx, o.Ref, open)
	if err != nil {
		return inputError(err)
	}
	if !p.HasSites() {
		return cmdutil.Usagef("%s names no allocation sites (a FiLiP export since 2024-04, or a spec with site:)", termtext.Quote(o.Ref))
	}
	m := cfg.Uncertainty.Effective()
	if cfg.Uncertainty.Off {
		m = uncertainty.Model{}
	}
	prob, err := pretenure.NewProblem(objective.Workload{Name: o.Ref, Profile: p}, cost, cfg.Simulate.VMFacts(), m, o.Replicas, o.ReplicaSeed)
	if err != nil {
		return cmdutil.AsUsage(err)
	}
	adv, err := pretenure.Advise(prob, params, pretenure.Options{Candidates: o.Candidates, Tolerance: o.Tolerance})
	if errors.Is(err, pretenure.ErrNoSites) {
		return cmdutil.Usagef("%s: %v", termtext.Quote(o.Ref), err)
	}
	if err != nil {
		return err
	}
	doc := pretenureDocOut{Input: study.NewInput(info, open), Profile: study.NewProfileInfo(info, p), Advice: adv}
	printProfileInfo(ew, doc.Profile)
	if o.JSON {
		return cmdutil.WriteJSON(w, doc)
	}
	return adv.WriteText(w)
}
