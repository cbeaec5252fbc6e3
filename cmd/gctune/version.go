package main

import (
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
	v := versionInfo{
		Version:  o.Build.Version,
		Commit:   o.Build.Commit,
		Date:     o.Build.Date,
		Go:       runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
	}
	if v.Version == "" {
		v.Version = "dev"
	}
	if o.BuildInfo != nil {
		if v.Version == "dev" && o.BuildInfo.Main.Version != "" && o.BuildInfo.Main.Version != "(devel)" {
			v.Version = o.BuildInfo.Main.Version // go install module@version
		}
		for _, s := range o.BuildInfo.Settings {
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
