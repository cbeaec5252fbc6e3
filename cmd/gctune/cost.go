package main

import (
	"bytes"
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/costfit"
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/infile"
	"github.com/gctune/gctune/study"
)

// builtinCost names the built-in cost model where output says which cost a command used.
const builtinCost = "built-in"

// addCostFlag adds --cost, bound to the config key cost, to a command that simulates.
func addCostFlag(cmd *cobra.Command) {
	cmdutil.AddBoundFlag(cmd, "cost", "", "cost", "cost model file from 'gctune calibrate -o' (cost; default: the built-in model)")
}

// loadCost returns the configured cost model and its name: the file named by the config key
// cost (--cost, GCTUNE_COST), or the built-in model. A missing or malformed file is a usage
// error naming it.
func loadCost(cfg Config) (heapsim.Cost, string, error) {
	return loadCostContext(context.Background(), cfg)
}

// loadCostContext is loadCost, its wait for a FIFO's writer given up when ctx is done. The
// file is read no further than costfit.MaxCostBytes+1 bytes (/dev/zero is refused).
func loadCostContext(ctx context.Context, cfg Config) (heapsim.Cost, string, error) {
	if cfg.Cost == "" {
		return heapsim.DefaultCost(), builtinCost, nil
	}
	data, err := infile.ReadAll(ctx, cfg.Cost, costfit.MaxCostBytes, "cost file")
	switch {
	case interruptedInput(err) != nil:
		return heapsim.Cost{}, "", interruptedInput(err)
	case errors.Is(err, infile.ErrTooLarge):
		return heapsim.Cost{}, "", cmdutil.Usagef("cost file %s: larger than the %d MiB a cost file may have: not a cost file", cfg.Cost, costfit.MaxCostBytes>>20)
	case err != nil:
		return heapsim.Cost{}, "", cmdutil.Usagef("cost %w", err)
	}
	_, c, err := costfit.ReadFile(bytes.NewReader(data), cfg.Cost)
	if err != nil {
		return heapsim.Cost{}, "", cmdutil.AsUsage(err)
	}
	return c, cfg.Cost, nil
}

// checkStudyCost refuses a configured cost model (--cost, the config key) that differs from
// the one study name was created with: its trials' times were computed with the study's, and
// resume, worker, report and explain keep using that one. Without a configured cost the
// study's own is used silently.
func checkStudyCost(cfg Config, sp *study.Problem, name string) error {
	if cfg.Cost == "" {
		return nil
	}
	c, file, err := loadCost(cfg)
	if err != nil {
		return err
	}
	return sp.CheckCost(c, file, name)
}
