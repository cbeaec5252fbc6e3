package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/study"
)

// clockFlag returns --clock's value when it was given on the command line, else nil: the
// clock the configuration decoded (cfg.Lifetimes.Clock, which the flag sets when given), so
// that a bad value is refused once, at the flag.
func clockFlag(cmd *cobra.Command, cfg Config) *filip.Clock {
	if f := cmd.Flags().Lookup("clock"); f != nil && f.Changed {
		clock := cfg.Lifetimes.Clock
		return &clock
	}
	return nil
}

// openWorkloads opens the workloads of a new study as configured (study.OpenWorkloads), refusing
// profiles that are pipes (refuseStreamProfile); cost simulates a sampled export's default run
// for its counts.
func openWorkloads(refs []string, cfg Config, cost heapsim.Cost) (*study.Workloads, error) {
	opts, err := cfg.openOptions()
	if err != nil {
		return nil, err
	}
	return study.OpenWorkloads(refs, study.OpenSettings{Open: opts, Clock: cfg.Lifetimes.Clock,
		LongLivedThreshold: cfg.Lifetimes.LongLivedThreshold, Check: refuseStreamProfile,
		VM: cfg.Simulate.VMFacts(), Cost: cost})
}

// reopenOptions are study.ReopenOptions with the configured long-lived threshold.
func reopenOptions(cfg Config, ro study.ReopenOptions) study.ReopenOptions {
	ro.LongLivedThreshold = cfg.Lifetimes.LongLivedThreshold
	return ro
}

// profileInfos says how each of the problem's workloads was read (study.Problem.Opened).
func profileInfos(sp *study.Problem) []study.ProfileInfo {
	return openedInfos(sp.Opened)
}

// openedInfos describes opened workloads (study.NewProfileInfo), with the study's clock beside a
// FiLiP export read on another one.
func openedInfos(os []study.Opened) []study.ProfileInfo {
	var out []study.ProfileInfo
	for _, o := range os {
		d := study.NewProfileInfo(o.Info, o.Profile)
		d.Ref = o.Ref
		if o.OtherClock {
			d.ClockReason += fmt.Sprintf("; the study read it with --clock %s", o.StudyClock)
			d.Line = formatProfileLine(d)
		}
		out = append(out, d)
	}
	return out
}

// workerCount resolves workers = 0 to the number of cores.
func workerCount(n int) int {
	if n <= 0 {
		return runtime.NumCPU()
	}
	return n
}

// printPlan writes the rules the profile produced (search.Plan.WriteText).
func printPlan(w io.Writer, plan search.Plan) { _ = plan.WriteText(w) }

// addToleranceFlag declares --tolerance (search.tolerance) on cmd.
func addToleranceFlag(cmd *cobra.Command) {
	cmdutil.AddBoundFlag(cmd, "tolerance", defaultConfig().Search.Tolerance, "search.tolerance",
		"recommend the smallest footprint within this fraction of the best, and put back changes worth less (search.tolerance)")
}
