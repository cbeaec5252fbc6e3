package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/outfile"
)

// outputFlags names, per command, the flags that name a file the command writes (dirFlags: a
// directory it writes files into). checkOutputFlags checks them all before the command does
// any work, so an unwritable output is found in a second, not after a long search or report.
var outputFlags = map[string]struct{ files, dirs []string }{
	"export":    {files: []string{"output"}},
	"report":    {files: []string{"output"}, dirs: []string{"png"}},
	"lifetimes": {files: []string{"plot"}},
	"simulate":  {files: []string{"events"}},
	"calibrate": {files: []string{"output"}},
	"sample":    {files: []string{"output"}},
}

// checkOutputFlags is the root's PersistentPreRunE: it checks the output flags of cmd (see
// outputFlags) with outfile.Check. Errors are *outfile.Error (exit code 2) naming the flag.
func checkOutputFlags(cmd *cobra.Command, _ []string) error {
	spec, ok := outputFlags[cmd.Name()]
	if !ok {
		return nil
	}
	for _, name := range spec.files {
		f := cmd.Flags().Lookup(name)
		if f == nil || f.Value.String() == "" {
			continue
		}
		if err := outfile.Check(f.Value.String()); err != nil {
			return fmt.Errorf("--%s: %w", name, err)
		}
	}
	for _, name := range spec.dirs {
		f := cmd.Flags().Lookup(name)
		if f == nil || f.Value.String() == "" {
			continue
		}
		if err := checkOutputDir(f.Value.String()); err != nil {
			return fmt.Errorf("--%s: %w", name, err)
		}
	}
	return nil
}

// checkOutputDir checks that files can be written into dir: an existing directory where a new
// file can be created, or a directory that can be created in an existing one.
func checkOutputDir(dir string) error {
	if st, err := os.Stat(dir); err == nil {
		if !st.IsDir() {
			return &outfile.Error{Path: dir, Err: fmt.Errorf("not a directory")}
		}
		return outfile.Check(filepath.Join(dir, "figure.png"))
	}
	return outfile.Check(filepath.Clean(dir))
}
