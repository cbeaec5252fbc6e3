package main

import (
	"cmp"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// NewVersionCmd returns `gctune version`.
func NewVersionCmd(ro *rootOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print gctune's version, commit and Go version",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runVersionCmd(cmd, ro)
		},
	}
}

// runVersionCmd prints the version: `gctune version` and `gctune --version` alike.
func runVersionCmd(cmd *cobra.Command, ro *rootOptions) error {
	bi, _ := debug.ReadBuildInfo()
	return runVersion(cmd.OutOrStdout(), versionOptions{Build: ro.build, BuildInfo: bi, JSON: ro.json})
}

type versionOptions struct {
	Build BuildInfo
	// BuildInfo is the binary's embedded build information (nil when unavailable); its vcs
	// settings fill in the commit and date that -ldflags did not set.
	BuildInfo *debug.BuildInfo
	JSON      bool
}

// versionInfo is `gctune version --json`.
type versionInfo struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Modified bool   `json:"modified,omitempty"`
	Date     string `json:"date,omitempty"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

func runVersion(w io.Writer, o versionOptions) error {
	v := resolveVersion(o.Build, o.BuildInfo)
	if o.JSON {
		return writeJSON(w, v)
	}
	commit := v.Commit
	if v.Modified {
		commit += " (modified)"
	}
	if v.Date != "" {
		commit += ", " + v.Date
	}
	_, err := fmt.Fprintf(w, "gctune %s\ncommit  %s\ngo      %s %s\n", v.Version, commit, v.Go, v.Platform)
	return err
}

// resolveVersion is the build's version, commit and date: what -ldflags set, completed from the
// binary's embedded build information bi (nil when unavailable): the module version of a
// `go install module@version`, the vcs revision, time and modified flag of a build from a
// checkout.
func resolveVersion(build BuildInfo, bi *debug.BuildInfo) versionInfo {
	v := versionInfo{
		Version:  build.Version,
		Commit:   build.Commit,
		Date:     build.Date,
		Go:       runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
	}
	if v.Version == "" {
		v.Version = "dev"
	}
	if bi != nil {
		if v.Version == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v.Version = bi.Main.Version // go install module@version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if v.Commit == "" {
					v.Commit = s.Value
				}
			case "vcs.time":
				if v.Date == "" {
					v.Date = s.Value
				}
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if v.Commit == "" {
		v.Commit = "unknown"
	}
	return v
}

// recommendationVersion is the build's part of a stored recommendation's key
// (study.RecommendationSettings.Version): the version and the commit, so that a study's
// recommendation made by another gctune, a release or a build from another commit alike, is
// made again rather than reused. A build from a modified checkout has no identity to key on:
// "" makes its recommendations every time and never reuses one.
func recommendationVersion(v versionInfo) string {
	if v.Modified {
		return ""
	}
	return v.Version + "+" + v.Commit
}

// buildStamp is the running build's identity as the commands write it, resolved once from
// the BuildInfo main injects (no command reads main's -ldflags variables): version for what
// an output records (an export's, a new study's, a cost file's, the report's), recommendation
// for a stored recommendation's key (recommendationVersion).
type buildStamp struct {
	version, recommendation string
}

// newBuildStamp resolves b with the binary's embedded build information.
func newBuildStamp(b BuildInfo) buildStamp {
	bi, _ := debug.ReadBuildInfo()
	s := buildStamp{version: cmp.Or(b.Version, "dev"), recommendation: recommendationVersion(resolveVersion(b, bi))}
	return s
}
