package main

import (
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/spf13/cobra"
)

// addRebuildFlags adds --rebuild MODE (lifetimes.rebuild) and --no-rebuild (the same as
// --rebuild off; loadConfig applies it) to a command that opens profiles, and the flags that
// say what an export's metadata would (addInputFlags: --rate, --meta).
func addRebuildFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("rebuild", defaultConfig().Lifetimes.Rebuild.String(), "rebuild of a sampled FiLiP export on the bytes clock: auto, short, long, stored or off (lifetimes.rebuild)")
	f.Bool("no-rebuild", false, "weigh every record of a sampled export by 1/rate instead of rebuilding it (--rebuild off)")
	cmdutil.BindFlag(cmd, "rebuild", "lifetimes.rebuild")
	addInputFlags(cmd)
}
