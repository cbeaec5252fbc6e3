package main

import "github.com/gctune/gctune/internal/cmdutil"

// The kinds of arguments a command takes (cmdutil.Declare).
const (
	argsStudy            = cmdutil.ArgsStudy
	argsProfiles         = cmdutil.ArgsProfiles
	argsNewStudyProfiles = cmdutil.ArgsNewStudyProfiles
)

// declare is cmdutil.Declare: a command's annotations.
func declare(args string, outputs, dirs []string) map[string]string {
	return cmdutil.Declare(args, outputs, dirs)
}
