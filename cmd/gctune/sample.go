package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/outfile"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
)

// NewSampleCmd returns `gctune sample PROFILE --rate 1/N -o OUT.csv`: a FiLiP export of any
// profile, written as the current exporter would write it.
func NewSampleCmd(ro *rootOptions) *cobra.Command {
	var o sampleOptions
	cmd := &cobra.Command{
		Use:         "sample WORKLOAD|PROFILE -o OUT.csv",
		Annotations: declare(argsProfiles, []string{"output"}, nil),
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
		Args: exactArgs(1),
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

// sampleDoc is `gctune sample --json`.
type sampleDoc struct {
	Source             string  `json:"source"`
	CSV                string  `json:"csv"`
	Meta               string  `json:"meta"`
	Every              uint64  `json:"every"`
	Phase              uint64  `json:"phase"`
	Seed               uint64  `json:"seed"`
	SamplingRate       float64 `json:"samplingRate"`
	Allocations        uint64  `json:"allocations"`
	Rows               uint64  `json:"rows"`
	AliveAtEnd         uint64  `json:"aliveAtEnd"`
	StartBytes         uint64  `json:"startBytes"`
	EndBytes           uint64  `json:"endBytes"`
	TotalExecutionTime uint64  `json:"totalExecutionTime"`
	TotalScavenges     int     `json:"totalScavenges"`
	TotalFullGCs       int     `json:"totalFullGCs"`
}

// parseSampleRate reads --rate: "1/N", a fraction 1/N written as a decimal ("0.01") or "1",
// and returns N.
func parseSampleRate(s string) (uint64, error) { return parseRate("--rate", s) }

// parseRate reads a sampling rate given with flag: "1/N", a fraction 1/N written as a decimal
// ("0.01") or "1", and returns N.
func parseRate(flag, s string) (uint64, error) {
	bad := fmt.Errorf("%s %q: want 1/N with N a positive integer (1/100, 0.001 or 1)", flag, s)
	s = strings.TrimSpace(s)
	if num, den, ok := strings.Cut(s, "/"); ok {
		if strings.TrimSpace(num) != "1" {
			return 0, bad
		}
		n, err := strconv.ParseUint(strings.TrimSpace(den), 10, 64)
		if err != nil || n == 0 || n > math.MaxUint32 {
			return 0, bad
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f > 0 && f <= 1) {
		return 0, bad
	}
	n := math.Round(1 / f)
	if n > math.MaxUint32 || math.Abs(1/n-f) > 1e-9*f {
		return 0, bad
	}
	return uint64(n), nil
}

func runSample(w io.Writer, o sampleOptions) error {
	every, err := parseSampleRate(o.Rate)
	if err != nil {
		return asUsage(err)
	}
	if o.Phase >= every {
		return usageErrorf("--phase %d: want 0 to %d for rate 1/%d", o.Phase, every-1, every)
	}
	if o.StartBytes == 0 {
		return usageErrorf("--start-bytes 0: parameter 34 counts the bytes allocated since the VM started, never 0 when profiling starts")
	}
	if o.Out == "" {
		return usageErrorf("sample needs -o OUT.csv")
	}
	if !strings.EqualFold(filepath.Ext(o.Out), ".csv") {
		return usageErrorf("-o %s: the export's name must end in .csv (its metadata goes beside it, in .json)", o.Out)
	}
	metaPath := sampleMetaPath(o.Out)
	for _, p := range []string{o.Out, metaPath} {
		if err := outfile.Check(p); err != nil {
			return err
		}
		// A file (or a link to one) is replaced only with --force; a device or FIFO is
		// written in place, a dangling link creates its target.
		if replaces, err := outfile.Replaces(p); err != nil {
			return err
		} else if replaces && !o.Force {
			return usageErrorf("%s exists: not replaced (--force replaces it)", p)
		}
	}
	ctx := o.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	stopped := func() error {
		return interruptedf("sample stopped before %s and %s were complete: neither written (run it again)", quoteName(o.Out), quoteName(metaPath))
	}
	p, _, err := openProfile(ctx, o.Ref, o.Open)
	if err != nil {
		return inputError(err)
	}
	if ctx.Err() != nil {
		return stopped()
	}
	st, err := heapsim.Run(p, o.VM, heapsim.DefaultCost(), heapsim.Options{})
	if err != nil {
		return fmt.Errorf("simulate the VM defaults for totalScavenges: %w", err)
	}
	if ctx.Err() != nil {
		return stopped()
	}
	code := o.Code
	if code == "" {
		code = "[ \"gctune sample " + o.Ref + "\" ]"
	}
	opts := filip.SampleOptions{Every: every, Phase: o.Phase, Seed: o.Seed, StartBytes: o.StartBytes,
		OverheadBytes: o.OverheadBytes, Scavenges: st.Scavenges, FullGCs: st.FullGCs, ProfiledCode: code}
	rep, err := filip.WriteSampleFiles(ctx, p, o.Out, opts)
	if err != nil && ctx.Err() != nil {
		return stopped()
	}
	if err != nil {
		if errors.Is(err, filip.ErrBadSample) {
			return asUsage(err)
		}
		return err
	}
	doc := sampleDoc{Source: o.Ref, CSV: o.Out, Meta: metaPath, Every: every, Phase: o.Phase, Seed: o.Seed,
		SamplingRate: rep.SamplingRate, Allocations: rep.Allocations, Rows: rep.Rows, AliveAtEnd: rep.AliveAtEnd,
		StartBytes: rep.StartBytes, EndBytes: rep.EndBytes, TotalExecutionTime: rep.TotalExecutionTime,
		TotalScavenges: st.Scavenges, TotalFullGCs: st.FullGCs}
	if o.JSON {
		return writeJSON(w, doc)
	}
	ew := errwriter.New(w)
	ew.Printf("wrote %s and %s: %s rows of %s allocations (1/%d, phase %d, seed %d), %s force-finalized at stop\n",
		quoteName(o.Out), quoteName(metaPath), formatCount(rep.Rows), formatCount(rep.Allocations), every, o.Phase, o.Seed, formatCount(rep.AliveAtEnd))
	ew.Printf("  parameter 34 from %s to %s (totalExecutionTime %s bytes); totalScavenges %d, totalFullGCs %d (simulated VM defaults)\n",
		formatCount(rep.StartBytes), formatCount(rep.EndBytes), formatCount(rep.TotalExecutionTime), st.Scavenges, st.FullGCs)
	return ew.Err()
}

// sampleMetaPath is the metadata file sample writes beside the CSV out (filip.SampleMetaPath).
func sampleMetaPath(out string) string { return filip.SampleMetaPath(out) }
