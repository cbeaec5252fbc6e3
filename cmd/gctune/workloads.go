package main

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/profile/spec"
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
		Args: noArgs,
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

// workloadDoc is one entry of `gctune workloads --json`.
type workloadDoc struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Records is the number of records the workload generates with the document's seed and
	// resolution (what simulate and lifetimes count).
	Records int `json:"records"`
}

type workloadsDoc struct {
	// Seed and Resolution are the generator's (0: each spec's own resolution).
	Seed       uint64        `json:"seed"`
	Resolution float64       `json:"resolution"`
	Workloads  []workloadDoc `json:"workloads"`
}

func runWorkloads(w io.Writer, o workloadsOptions) error {
	doc, err := countWorkloads(o.Seed, o.Resolution)
	if err != nil {
		return err
	}
	return printWorkloads(w, doc, o.JSON)
}

// countWorkloads lists the bundled workloads with the records each generates with seed and
// resolution: counted by generating each, as the commands that open them do; two at once.
func countWorkloads(seed uint64, resolution float64) (workloadsDoc, error) {
	bundled := spec.Bundled()
	doc := workloadsDoc{Seed: seed, Resolution: resolution, Workloads: make([]workloadDoc, len(bundled))}
	errs := make([]error, len(bundled))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i, wl := range bundled {
		doc.Workloads[i] = workloadDoc{Name: wl.Name, Description: wl.Description}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			p, _, err := source.Open(wl.Name, source.Options{Seed: seed, Resolution: resolution})
			if err != nil {
				errs[i] = fmt.Errorf("workload %s: %w", wl.Name, err)
				return
			}
			doc.Workloads[i].Records = p.Len()
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return workloadsDoc{}, err
	}
	return doc, nil
}

// printWorkloads writes the table of workloads, or with asJSON the document.
func printWorkloads(w io.Writer, doc workloadsDoc, asJSON bool) error {
	if asJSON {
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
