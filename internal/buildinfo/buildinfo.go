package buildinfo

import (
	"runtime"
	"runtime/debug"
)

// Build identifies the binary as main was built: what -ldflags set, "" where they set
// nothing.
type Build struct {
	Version string
	Commit  string
	Date    string
}

// Info is the build's identity resolved, `gctune version --json`.
type Info struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Modified bool   `json:"modified,omitempty"`
	Date     string `json:"date,omitempty"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// Resolve is the build's version, commit and date: what -ldflags set (b), completed from the
// binary's embedded build information bi (nil when unavailable): the module version of a
// `go install module@version`, the vcs revision, time and modified flag of a build from a
// checkout. The version is "dev" and the commit "unknown" when neither says.
func Resolve(b Build, bi *debug.BuildInfo) Info {
	v := Info{
		Version:  b.Version,
		Commit:   b.Commit,
		Date:     b.Date,
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
