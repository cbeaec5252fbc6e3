package main

import (
	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/cmdutil"
)

// Usages of --storage: the short one, and the one of the commands that create or run studies,
// which says what the value may be.
const (
	storageUsage    = "study database (storage, GCTUNE_STORAGE; default ./gctune.db if there is one, else gctune.db in $XDG_DATA_HOME/gctune or ~/.local/share/gctune)"
	storageURLUsage = "study database: a SQLite file or postgres://user@host/db (storage, GCTUNE_STORAGE; default ./gctune.db if there is one, else gctune.db in $XDG_DATA_HOME/gctune or ~/.local/share/gctune)"
)

// addStorageFlag adds --storage (the config key storage) with the given usage.
func addStorageFlag(cmd *cobra.Command, usage string) {
	cmdutil.AddBoundFlag(cmd, "storage", defaultConfig().Storage, "storage", usage)
}

// addWorkloadFlags adds the workload section's flags to a command that generates bundled
// workloads and specs: the seed, as seedFlag (--seed, or --workload-seed where the command's
// --seed is another), and --resolution.
func addWorkloadFlags(cmd *cobra.Command, seedFlag string) {
	d := defaultConfig().Workload
	cmdutil.AddBoundFlag(cmd, seedFlag, d.Seed, "workload.seed", "seed for generating bundled workloads and specs (workload.seed)")
	cmdutil.AddBoundFlag(cmd, "resolution", d.Resolution, "workload.resolution",
		"records per object when generating, in (0, 1]; 0 = the spec's own (workload.resolution)")
}
