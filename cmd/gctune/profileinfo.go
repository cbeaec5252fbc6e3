package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/study"
)

// addClockFlag adds --clock, bound to lifetimes.clock: every command that reads a profile takes
// it.
func addClockFlag(cmd *cobra.Command) {
	cmdutil.AddBoundFlag(cmd, "clock", defaultConfig().Lifetimes.Clock.String(), "lifetimes.clock",
		"clock of FiLiP timestamps: auto (from the exporter's era), bytes or us (lifetimes.clock)")
}

// addProfileFlags adds --clock and --skip-bad-rows, for the commands that open a profile by
// reference.
func addProfileFlags(cmd *cobra.Command) {
	addClockFlag(cmd)
	cmdutil.AddBoundFlag(cmd, "skip-bad-rows", defaultConfig().Lifetimes.SkipBadRows, "lifetimes.skip_bad_rows",
		"skip malformed FiLiP rows instead of failing (lifetimes.skip_bad_rows)")
}

// formatProfileLine is the one line every command prints about a profile it read.
func formatProfileLine(d study.ProfileInfo) string { return d.FormatLine() }

// printProfileInfos writes each profile's line and warnings, a line said once
// (study.WriteProfileInfos); a failed write shows in the command's output.
func printProfileInfos(w io.Writer, ds []study.ProfileInfo) { _ = study.WriteProfileInfos(w, ds) }

// printProfileInfo writes the profile's line and then its warnings, one line each.
func printProfileInfo(w io.Writer, d study.ProfileInfo) { _ = d.WriteText(w) }
