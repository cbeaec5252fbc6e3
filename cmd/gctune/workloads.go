package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/profile/source"
)

// NewWorkloadsCmd returns `gctune workloads`, the table of bundled workloads.
func NewWorkloadsCmd(ro *rootOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "workloads",
		Short: "List the bundled workloads",
		Long: `List the workloads bundled in the binary: synthetic specs built from published
measurements (see docs/workloads.md). Any of their names can stand where a profile is expected,
as in 'gctune lifetimes dataframe-500mb'. RECORDS is how many records each generates with the
configured workload.seed and workload.resolution, as simulate, lifetimes and optimize count
them (each workload is generated to count them, about a second in all).`,
		Args: cmdutil.NoArgs,
		RunE: ro.withConfig(func(cmd *cobra.Command, _ []string, cfg Config) error {
			return runWorkloads(cmd.OutOrStdout(), workloadsOptions{JSON: ro.json, Seed: cfg.Workload.Seed, Resolution: cfg.Workload.Resolution})
		}),
	}
}

type workloadsOptions struct {
	JSON bool
	// Seed and Resolution generate the workloads whose records are counted (workload.seed,
	// workload.resolution).
	Seed       uint64
	Resolution float64
}

func runWorkloads(w io.Writer, o workloadsOptions) error {
	doc, err := source.CountWorkloads(o.Seed, o.Resolution)
	if err != nil {
		return err
	}
	if o.JSON {
		return cmdutil.WriteJSON(w, doc)
	}
	return doc.WriteText(w)
}
