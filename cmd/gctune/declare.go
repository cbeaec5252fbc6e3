package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// What a command declares of itself, as cobra annotations set where the command is built: the
// root's checks (outputs.go) and shell completions (complete.go) read them, so no table keyed
// by command name says what a command takes or writes.
const (
	// annArgs says what the command's arguments are: argsStudy, argsProfiles or
	// argsNewStudyProfiles.
	annArgs = "gctune:args"
	// annOutputs and annOutputDirs name (comma-separated) the flags that name a file the
	// command writes, and a directory it writes files into.
	annOutputs    = "gctune:outputs"
	annOutputDirs = "gctune:output-dirs"
)

// The kinds of arguments a command takes.
const (
	argsStudy            = "study"              // the first argument is a study of the storage
	argsProfiles         = "profiles"           // every argument is a workload or profile file
	argsNewStudyProfiles = "new-study+profiles" // a new study's name, then profiles
)

// declare is a command's annotations: what its arguments are (args, "" for none of these) and
// the flags naming the files (outputs) and directories (dirs) it writes.
func declare(args string, outputs, dirs []string) map[string]string {
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

// argsOf is what c declared of its arguments ("" when nothing).
func argsOf(c *cobra.Command) string { return c.Annotations[annArgs] }

// takesProfiles reports whether c's arguments are (or end with) profiles.
func takesProfiles(c *cobra.Command) bool {
	a := argsOf(c)
	return a == argsProfiles || a == argsNewStudyProfiles
}

// outputsOf is the flags c declared as naming files and directories it writes.
func outputsOf(c *cobra.Command) (files, dirs []string) {
	split := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(s, ",")
	}
	return split(c.Annotations[annOutputs]), split(c.Annotations[annOutputDirs])
}
