package main

import (
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/trialstore"
)

// makeDataFolder is trialstore.MakeDataFolder, its error the user's (exit code 2).
func makeDataFolder(url string) error { return cmdutil.AsUsage(trialstore.MakeDataFolder(url)) }
