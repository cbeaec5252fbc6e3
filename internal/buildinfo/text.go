package buildinfo

import (
	"fmt"
	"io"
)

// WriteText writes v as `gctune version` prints it: the version, the commit (marked modified,
// with its date) and the Go version and platform, one a line.
func (v Info) WriteText(w io.Writer) error {
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
