package main

import (
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/lifetimes"
)

// NewWorkloadsCmd returns `gctune workloads`, the table of bundled workloads.
func NewWorkloadsCmd(ro *rootOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "workloads",
		Short: "List the bundled workloads",
		Long: `List the workloads bundled in the binary: synthetic specs built from published
measurements (see docs/workloads.md). Any of their names can stand where a profile is expected,
as in 'gctune lifetimes dataframe-500mb'.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runWorkloads(cmd.OutOrStdout(), workloadsOptions{JSON: ro.json})
		},
	}
}

type workloadsOptions struct {
	JSON bool
}

// workloadDoc is one entry of `gctune workloads --json`.
type workloadDoc struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Records is the number of records the workload generates at its default resolution.
	Records int `json:"records"`
}

type workloadsDoc struct {
	Workloads []workloadDoc `json:"workloads"`
}

func runWorkloads(w io.Writer, o workloadsOptions) error {
	doc := workloadsDoc{Workloads: []workloadDoc{}}
	for _, wl := range lifetimes.Bundled() {
		doc.Workloads = append(doc.Workloads, workloadDoc{Name: wl.Name, Description: wl.Description, Records: wl.Records})
	}
	if o.JSON {
		return writeJSON(w, doc)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	ew := errwriter.New(tw)
	ew.Printf("NAME\tRECORDS\tDESCRIPTION\n")
	for _, wl := range doc.Workloads {
		ew.Printf("%s\t%s\t%s\n", wl.Name, formatCount(uint64(max(wl.Records, 0))), wl.Description)
	}
	if ew.Err() != nil {
		return ew.Err()
	}
	return tw.Flush()
}
