package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/simulate"
)

// NewSampleCmd returns `gctune sample PROFILE --rate 1/N -o OUT.csv`: a FiLiP export of any
// profile, written as the current exporter would write it.
func NewSampleCmd(ro *rootOptions) *cobra.Command {
	var o sampleOptions
	cmd := &cobra.Command{
		Use:         "sample WORKLOAD|PROFILE -o OUT.csv",
		Annotations: cmdutil.Declare(argsProfiles, []string{"output"}, nil),
		Short:       "Write a profile as a sampled FiLiP export (what FiLiP would record at a given rate)",
		Long: `Write a profile (a bundled workload, a spec, a .gcprof or a FiLiP export) as the current
FiLiP exporter would write it had it profiled that run at --rate: OUT.csv (quoted header of the
current layout, raw rows in allocation order) and OUT.json beside it (NeoJSON's pretty form).

Counter sampling as IllAbstractProfiler>>registerAllocation: does it: every N-th allocation,
whatever its size, at position --phase of each window of N (FiLiP itself records the first,
phase 0). Times are VM parameter 34, bytes allocated since the VM started, from --start-bytes;
each recorded allocation adds --overhead-bytes, the profiler's own objects. Objects alive at the
end are force-finalized at stop time. totalScavenges and totalFullGCs are those of a simulation
of the VM defaults; survivedScavenges and survivedFullGCs are written 0.

It tells what a sampled export of an application looks like, and what rate an analysis
needs: compare 'gctune optimize OUT.csv' with 'gctune optimize PROFILE'.`,
		Example: `  gctune sample dataframe-3.1gb --rate 1/1000 -o df.csv
  gctune sample my-workload.yaml --rate 1/100 --phase 37 --seed 2 -o run.csv --force`,
		Args: cmdutil.ExactArgs(1),
		RunE: ro.withConfig(func(cmd *cobra.Command, args []string, cfg Config) error {
			var err error
			if o.Open, err = cfg.openOptions(); err != nil {
				return err
			}
			o.Ref = args[0]
			o.VM = cfg.Simulate.VMFacts()
			o.JSON = ro.json
			o.Ctx = cmd.Context()
			return runSample(cmd.OutOrStdout(), o)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&o.Rate, "rate", "1/100", "sampling rate 1/N (also 0.01 or 1): every N-th allocation is recorded")
	f.Uint64Var(&o.Phase, "phase", 0, "which allocation of each window of N is recorded, in [0, N)")
	f.Uint64Var(&o.Seed, "seed", 1, "seed of the order in which the objects of neighbouring records are allocated")
	f.Uint64Var(&o.StartBytes, "start-bytes", filip.DefaultSampleStartBytes, "VM parameter 34 when profiling starts (> 0)")
	f.Uint64Var(&o.OverheadBytes, "overhead-bytes", filip.DefaultSampleOverheadBytes, "bytes the profiler allocates per recorded allocation (its ephemeron and senders array)")
	f.StringVar(&o.Code, "profiled-code", "", "the JSON's profiledCode (default: a line naming the profile)")
	f.StringVarP(&o.Out, "output", "o", "", "the CSV to write (required); its .json is written beside it")
	f.BoolVar(&o.Force, "force", false, "replace OUT.csv and OUT.json if they exist")
	addWorkloadFlags(cmd, "workload-seed")
	addRebuildFlags(cmd)
	return cmd
}

type sampleOptions struct {
	// Ctx, when set, gives up the wait for a FIFO profile's writer (nil: never).
	Ctx        context.Context
	Ref        string
	Open       source.Options
	VM         heapsim.Params
	Rate       string
	Phase      uint64
	Seed       uint64
	StartBytes uint64
	// OverheadBytes is per recorded allocation.
	OverheadBytes uint64
	Code          string
	Out           string
	Force         bool
	JSON          bool
}

// parseRate reads a sampling rate given with flag (filip.ParseRate).
func parseRate(flag, s string) (uint64, error) {
	n, err := filip.ParseRate(s)
	if err != nil {
		return 0, fmt.Errorf("%s %w", flag, err)
	}
	return n, nil
}

// runSample checks the options, opens the profile and writes its sampled export
// (simulate.Sample).
func runSample(w io.Writer, o sampleOptions) error {
	every, err := parseRate("--rate", o.Rate)
	if err != nil {
		return cmdutil.AsUsage(err)
	}
	if o.Phase >= every {
		return cmdutil.Usagef("--phase %d: want 0 to %d for rate 1/%d", o.Phase, every-1, every)
	}
	if o.StartBytes == 0 {
		return cmdutil.Usagef("--start-bytes 0: parameter 34 counts the bytes allocated since the VM started, never 0 when profiling starts")
	}
	if o.Out == "" {
		return cmdutil.Usagef("sample needs -o OUT.csv")
	}
	if !strings.EqualFold(filepath.Ext(o.Out), ".csv") {
		return cmdutil.Usagef("-o %s: the export's name must end in .csv (its metadata goes beside it, in .json)", o.Out)
	}
	metaPath := filip.SampleMetaPath(o.Out)
	for _, p := range []string{o.Out, metaPath} {
		if err := outfile.Check(p); err != nil {
			return err
		}
		// A file (or a link to one) is replaced only with --force; a device or FIFO is
		// written in place, a dangling link creates its target.
		if replaces, err := outfile.Replaces(p); err != nil {
			return err
		} else if replaces && !o.Force {
			return cmdutil.Usagef("%s exists: not replaced (--force replaces it)", p)
		}
	}
	ctx := o.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	stopped := func() error {
		return cmdutil.Interruptedf("sample stopped before %s and %s were complete: neither written (run it again)", termtext.Quote(o.Out), termtext.Quote(metaPath))
	}
	p, _, err := openProfile(ctx, o.Ref, o.Open)
	if err != nil {
		return inputError(err)
	}
	if ctx.Err() != nil {
		return stopped()
	}
	code := o.Code
	if code == "" {
		code = "[ \"gctune sample " + o.Ref + "\" ]"
	}
	opts := filip.SampleOptions{Every: every, Phase: o.Phase, Seed: o.Seed, StartBytes: o.StartBytes,
		OverheadBytes: o.OverheadBytes, ProfiledCode: code}
	doc, err := simulate.Sample(ctx, o.Ref, p, o.Out, o.VM, opts)
	switch {
	case err != nil && ctx.Err() != nil:
		return stopped()
	case errors.Is(err, filip.ErrBadSample):
		return cmdutil.AsUsage(err)
	case err != nil:
		return err
	}
	if o.JSON {
		return cmdutil.WriteJSON(w, doc)
	}
	return doc.WriteText(w)
}
