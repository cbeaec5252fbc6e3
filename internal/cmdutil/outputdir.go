package cmdutil

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/gctune/gctune/internal/outfile"
)

// CheckOutputDir checks that files can be written into dir: an existing directory where a new
// file can be created, or a directory that can be created in an existing one. Its errors are
// *outfile.Error (exit code 2).
func CheckOutputDir(dir string) error {
	if st, err := os.Stat(dir); err == nil {
		if !st.IsDir() {
			return &outfile.Error{Path: dir, Err: errors.New("not a directory")}
		}
		return outfile.Check(filepath.Join(dir, "figure.png"))
	}
	return outfile.Check(filepath.Clean(dir))
}
