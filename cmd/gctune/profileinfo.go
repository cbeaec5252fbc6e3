package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/study"
)

// addClockFlag adds --clock, bound to lifetimes.clock: every command that reads a profile takes
// it.
func addClockFlag(cmd *cobra.Command) {
	addBoundFlag(cmd, "clock", defaultConfig().Lifetimes.Clock.String(), "lifetimes.clock",
		"clock of FiLiP timestamps: auto (from the exporter's era), bytes or us (lifetimes.clock)")
}

// addProfileFlags adds --clock and --skip-bad-rows, for the commands that open a profile by
// reference.
func addProfileFlags(cmd *cobra.Command) {
	addClockFlag(cmd)
	addBoundFlag(cmd, "skip-bad-rows", defaultConfig().Lifetimes.SkipBadRows, "lifetimes.skip_bad_rows",
		"skip malformed FiLiP rows instead of failing (lifetimes.skip_bad_rows)")
}

// profileInfoDoc says how a profile was read (study.ProfileInfo).
type profileInfoDoc = study.ProfileInfo

// newProfileInfo describes an opened profile (study.NewProfileInfo).
func newProfileInfo(info *source.Info, p *profile.Profile) profileInfoDoc {
	return study.NewProfileInfo(info, p)
}

// formatProfileLine is the one line every command prints about a profile it read.
func formatProfileLine(d profileInfoDoc) string { return d.FormatLine() }

// printProfileInfos writes each profile's line and warnings, a line said once
// (study.WriteProfileInfos); a failed write shows in the command's output.
func printProfileInfos(w io.Writer, ds []profileInfoDoc) { _ = study.WriteProfileInfos(w, ds) }

// withDefaultRuns returns the profiles with the objective's simulated default runs beside
// them (study.WithDefaultRuns).
func withDefaultRuns(ds []profileInfoDoc, prob *objective.Problem) []profileInfoDoc {
	return study.WithDefaultRuns(ds, prob)
}

// printProfileInfo writes the profile's line and then its warnings, one line each.
func printProfileInfo(w io.Writer, d profileInfoDoc) { _ = d.WriteText(w) }

// formatProfiledBeside says how the simulated default run's GC counts compare with the
// profiled run's (study.ProfiledBeside).
func formatProfiledBeside(d *study.ProfiledRun, sim *heapsim.Stats) string {
	return study.ProfiledBeside(d, sim)
}
