package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialattr"
)

// exportOptions are what `gctune export` is asked besides the configuration.
type exportOptions struct {
	// Study is the study's name.
	Study string
	// Format is --format, or json with --json (export.ParseFormat: runExport refuses another).
	Format export.Format
	// Trial, when TrialSet, is the trial exported as it is instead of the recommendation.
	Trial    int
	TrialSet bool
	// Pareto lists the time-versus-footprint front instead.
	Pareto bool
	// Output is the file written ("": w).
	Output string
	// Force uses workloads that changed since the study began.
	Force bool
	// JSON prints the front as JSON (the configuration's format is Format).
	JSON bool
}

// NewExportCmd returns `gctune export`; its RunE calls runF (nil: runExport).
func NewExportCmd(ro *rootOptions, runF runFunc[exportOptions]) *cobra.Command {
	run := orRun(runF, runExport)
	var (
		o      exportOptions
		format string
	)
	cmd := &cobra.Command{
		Use:         "export STUDY",
		Annotations: cmdutil.Declare(argsStudy, []string{"output"}, nil),
		Short:       "Write a study's recommended configuration, ready to apply in Pharo",
		Long: `Write the study's recommended configuration (or --trial N as it is) in one of four formats.

The recommendation is the trial with the smallest peak footprint among those within --tolerance
(1 %) of the fastest, with every change that costs less than the tolerance put back to the VM
default (each confirmed by simulation); a parameter at the default is not set. When it is less
than 2 % faster than the defaults, the st script sets nothing and says to keep them.

  st     a Pharo startup script: the --edenSize= launch flag (the new-space size only takes
         effect at launch) and Smalltalk vm parameterAt: 25/24/55/6 put: ... for the rest,
         each line saying its VM parameter, unit, value, when it takes effect, what persists
  json   the parameters, the prediction, how it was chosen and the study's provenance
  yaml   the same as a gctune configuration file: gctune simulate WORKLOAD --config FILE
  flags  gctune's own flags, to check the prediction with gctune simulate

--pareto lists the trials on the time-versus-footprint front instead.`,
		Example: `  gctune export dataframe-3.1gb --format st > gc.st
  pharo --headless --edenSize=64m My.image st gc.st
  gctune export dataframe-3.1gb --format yaml -o best.yaml && gctune simulate dataframe-3.1gb --config best.yaml
  gctune export dataframe-3.1gb --tolerance 0 --trial 42
  gctune export dataframe-3.1gb --pareto`,
		Args: cmdutil.ExactArgs(1),
		RunE: ro.withConfig(func(cmd *cobra.Command, args []string, cfg Config) error {
			if ro.json && !o.Pareto {
				format = string(export.JSON)
			}
			o.Study, o.Format, o.TrialSet, o.JSON = args[0], export.Format(format), cmd.Flags().Changed("trial"), ro.json
			return run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, o)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", string(export.ST), "st, json, yaml or flags")
	f.IntVar(&o.Trial, "trial", 0, "export this trial number as it is instead of the recommendation")
	f.BoolVar(&o.Pareto, "pareto", false, "list the time-versus-footprint Pareto front")
	f.StringVarP(&o.Output, "output", "o", "", "write to FILE instead of standard output (written whole or not at all)")
	f.BoolVar(&o.Force, "force", false, "use workload files that changed since the study began")
	addToleranceFlag(cmd)
	addStorageFlag(cmd, storageUsage)
	return cmd
}

// runExport writes the study's recommendation (or o.Trial as it is, or the Pareto front) to
// o.Output, or to w.
func runExport(ctx context.Context, w, _ io.Writer, cfg Config, o exportOptions) error {
	name := o.Study
	format, err := export.ParseFormat(string(o.Format))
	if err != nil {
		return cmdutil.Usagef("--format %q: want st, json, yaml or flags", o.Format)
	}
	store, id, sp, err := openStudy(ctx, cfg.Storage, name, true)
	if err != nil {
		return err
	}
	defer store.Close()
	trials, err := store.Storage().GetAllTrials(id)
	if err != nil {
		return err
	}
	write := func(fn func(io.Writer) error) error {
		if o.Output == "" {
			return fn(w)
		}
		return outfile.Write(o.Output, fn)
	}
	if o.Pareto {
		front := trialattr.ParetoFront(trials, trialattr.Footprint)
		if len(front) == 0 {
			return cmdutil.Usagef("study %q has no completed feasible trial yet", name)
		}
		rows := export.Pareto(front, sp.DefaultValue)
		if o.JSON {
			return write(func(w io.Writer) error { return cmdutil.WriteJSON(w, rows) })
		}
		return write(func(w io.Writer) error { return export.WriteParetoText(w, rows, name) })
	}
	var prob *objective.Problem
	if !o.TrialSet { // a trial as it is needs no workload
		if prob, err = sp.ReopenObjective(reopenOptions(cfg, study.ReopenOptions{Force: o.Force})); err != nil {
			return err
		}
	}
	c, err := study.ExportAnswer(ctx, store, id, name, prob, trials, study.Choice{Trial: o.Trial, HasTrial: o.TrialSet},
		study.RecommendationSettings{Tolerance: cfg.Search.Tolerance, Version: cfg.build.recommendation},
		study.ExportMeta(store, id, name, sp, cfg.build.version))
	if err != nil {
		return err
	}
	return write(func(w io.Writer) error { return export.Write(w, format, c, cfg.build.version) })
}
