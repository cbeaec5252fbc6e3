package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/c-bata/goptuna"
	"github.com/spf13/cobra"

	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/recommend"
)

// addToleranceFlag declares --tolerance (search.tolerance) on cmd.
func addToleranceFlag(cmd *cobra.Command) {
	addBoundFlag(cmd, "tolerance", defaultConfig().Search.Tolerance, "search.tolerance",
		"recommend the smallest footprint within this fraction of the best, and put back changes worth less (search.tolerance)")
}

// recommendTrials runs recommend.Recommend on a study's trials; a study without a candidate
// is a usage error naming it. It runs to the end even when ctx is cancelled (an interrupted
// optimize still prints its recommendation).
func recommendTrials(ctx context.Context, name string, prob *objective.Problem, trials []goptuna.FrozenTrial, tolerance float64) (*recommend.Recommendation, error) {
	r, err := recommend.Recommend(context.WithoutCancel(ctx), prob, trials, recommend.Settings{Tolerance: tolerance})
	if errors.Is(err, recommend.ErrNoCandidate) {
		return nil, usageErrorf("study %q has no completed feasible trial yet", name)
	}
	if err != nil {
		return nil, fmt.Errorf("study %q: %w", name, err)
	}
	return r, nil
}
