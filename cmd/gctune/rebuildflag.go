package main

import (
	"github.com/spf13/cobra"

	"github.com/gctune/gctune/profile/filip"
)

// addRebuildFlags adds --rebuild MODE (lifetimes.rebuild) and --no-rebuild (the same as
// --rebuild off; loadConfig applies it) to a command that opens profiles, and the flags that
// say what an export's metadata would (addInputFlags: --rate, --meta).
func addRebuildFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("rebuild", defaultConfig().Lifetimes.Rebuild, "rebuild of a sampled FiLiP export on the bytes clock: auto, short, long, stored or off (lifetimes.rebuild)")
	f.Bool("no-rebuild", false, "weigh every record of a sampled export by 1/rate instead of rebuilding it (--rebuild off)")
	bindFlag(cmd, "rebuild", "lifetimes.rebuild")
	addInputFlags(cmd)
}

// rebuildMode is the configured rebuild mode (validated by Config.Validate).
func rebuildMode(cfg Config) filip.Hypothesis {
	h, _ := filip.ParseHypothesis(cfg.Lifetimes.Rebuild)
	return h
}
