package cmdutil

import (
	"strings"

	"github.com/spf13/cobra"
)

// What a command declares of itself, as cobra annotations set where the command is built: the
// root's checks (CheckOutputDir and the output checks of package main) and shell completions
// read them, so no table keyed by command name says what a command takes or writes.
const (
	// annArgs says what the command's arguments are: ArgsStudy, ArgsProfiles or
	// ArgsNewStudyProfiles.
	annArgs = "gctune:args"
	// annOutputs and annOutputDirs name (comma-separated) the flags that name a file the
	// command writes, and a directory it writes files into.
	annOutputs    = "gctune:outputs"
	annOutputDirs = "gctune:output-dirs"
)

// The kinds of arguments a command takes.
const (
	ArgsStudy            = "study"              // the first argument is a study of the storage
	ArgsProfiles         = "profiles"           // every argument is a workload or profile file
	ArgsNewStudyProfiles = "new-study+profiles" // a new study's name, then profiles
)

// Declare is a command's annotations (cobra.Command.Annotations): what its arguments are
// (args, "" for none of these) and the flags naming the files (outputs) and directories (dirs)
// it writes.
func Declare(args string, outputs, dirs []string) map[string]string {
	a := map[string]string{}
	if args != "" {
		a[annArgs] = args
	}
	if len(outputs) > 0 {
		a[annOutputs] = strings.Join(outputs, ",")
	}
	if len(dirs) > 0 {
		a[annOutputDirs] = strings.Join(dirs, ",")
	}
	return a
}

// ArgsOf is what c declared of its arguments ("" when nothing).
func ArgsOf(c *cobra.Command) string { return c.Annotations[annArgs] }

// TakesProfiles reports whether c's arguments are (or end with) profiles.
func TakesProfiles(c *cobra.Command) bool {
	a := ArgsOf(c)
	return a == ArgsProfiles || a == ArgsNewStudyProfiles
}

// OutputsOf is the flags c declared as naming files and directories it writes.
func OutputsOf(c *cobra.Command) (files, dirs []string) {
	split := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(s, ",")
	}
	return split(c.Annotations[annOutputs]), split(c.Annotations[annOutputDirs])
}
