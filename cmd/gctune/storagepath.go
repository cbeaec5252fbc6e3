package main

import "github.com/gctune/gctune/trialstore"

// resolveStorage is trialstore.Resolve: the study database a command uses.
func resolveStorage(storage string) string { return trialstore.Resolve(storage) }

// makeDataFolder is trialstore.MakeDataFolder, its error the user's (exit code 2).
func makeDataFolder(url string) error { return asUsage(trialstore.MakeDataFolder(url)) }

// storagePathForDisplay is trialstore.DisplayPath.
func storagePathForDisplay(url string, sqlite bool) string {
	return trialstore.DisplayPath(url, sqlite)
}
