package main

import "github.com/gctune/gctune/internal/cmdutil"

// The kinds of arguments a command takes (cmdutil.Declare).
const (
	argsStudy            = cmdutil.ArgsStudy
	argsProfiles         = cmdutil.ArgsProfiles
	argsNewStudyProfiles = cmdutil.ArgsNewStudyProfiles
)
