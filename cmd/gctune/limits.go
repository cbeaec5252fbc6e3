package main

import (
	"github.com/gctune/gctune/config"
	"github.com/gctune/gctune/internal/cmdutil"
)

// Upper limits of the count flags that are no configuration key (the keys' limits are in
// package config: config.MaxTrials, config.MaxWorkers). README, Guarantees, lists them all.
const (
	// maxVerifyRuns bounds verify --runs: measured runs of each configuration.
	maxVerifyRuns = 10_000
	// maxSweepPoints bounds report --sweep-points, as report.Options.Validate does.
	maxSweepPoints = 1000
	// maxRetries bounds worker --retries: attempts at a database operation.
	maxRetries = 1_000
)

// checkTrialsTarget refuses resume's or worker's --trials, and resume's --more, past
// config.MaxTrials.
func checkTrialsTarget(trials, more int) error {
	if err := cmdutil.CheckCount("trials", trials, 0, config.MaxTrials, "0 = the study's own target"); err != nil {
		return err
	}
	return cmdutil.CheckCount("more", more, 0, config.MaxTrials, "")
}
