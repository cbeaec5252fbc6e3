package main

import (
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/buildinfo"
	"github.com/gctune/gctune/internal/cmdutil"
)

// NewVersionCmd returns `gctune version`.
func NewVersionCmd(ro *rootOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print gctune's version, commit and Go version",
		Args:  cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runVersionCmd(cmd, ro)
		},
	}
}

// runVersionCmd prints the version (buildinfo.Resolve), as text or JSON: `gctune version` and
// `gctune --version` alike.
func runVersionCmd(cmd *cobra.Command, ro *rootOptions) error {
	bi, _ := debug.ReadBuildInfo()
	v := buildinfo.Resolve(ro.build, bi)
	if ro.json {
		return cmdutil.WriteJSON(cmd.OutOrStdout(), v)
	}
	return v.WriteText(cmd.OutOrStdout())
}

// buildStamp is the running build's identity as the commands write it (buildinfo.Stamp):
// version for what an output records, recommendation for a stored recommendation's key.
type buildStamp struct {
	version, recommendation string
}

// newBuildStamp resolves b with the binary's embedded build information.
func newBuildStamp(b buildinfo.Build) buildStamp {
	bi, _ := debug.ReadBuildInfo()
	s := buildinfo.NewStamp(b, bi)
	return buildStamp{version: s.Version, recommendation: s.Recommendation}
}
