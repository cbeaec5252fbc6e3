package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/c-bata/goptuna"
	"github.com/spf13/cobra"

	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/studies"
)

// addToleranceFlag declares --tolerance (search.tolerance) on cmd.
func addToleranceFlag(cmd *cobra.Command) {
	addBoundFlag(cmd, "tolerance", defaultConfig().Search.Tolerance, "search.tolerance",
		"recommend the smallest footprint within this fraction of the best, and put back changes worth less (search.tolerance)")
}

// recommendationDoc is the study document that keeps a recommendation with what it was made
// from: a robust recommendation simulates hundreds of runs, so optimize and resume store it
// and export, explain, report and verify read it back while the study has not changed.
const recommendationDoc = "gctune:recommendation"

// storedRecommendation is the stored document: Key says what the recommendation was made from.
type storedRecommendation struct {
	Key            string                    `json:"key"`
	Recommendation *recommend.Recommendation `json:"recommendation"`
}

// recommendation is a study's recommendation for its trials: the one stored with the study
// when it was made from the same trials, tolerance, problem and gctune, else made now
// (recommend.Recommend) and, when save is set (optimize, resume: commands that may write the
// study), stored. A study without a candidate is a usage error naming it. It runs to the end
// even when ctx is cancelled (an interrupted optimize still prints its recommendation).
func recommendation(ctx context.Context, store *studies.Store, id int, name string, prob *objective.Problem,
	trials []goptuna.FrozenTrial, tolerance float64, save bool) (*recommend.Recommendation, error) {
	key := recommendationKey(prob, trials, tolerance)
	var stored storedRecommendation
	if store != nil {
		if err := store.LoadDoc(id, recommendationDoc, &stored); err == nil && key != "" && stored.Key == key && stored.Recommendation != nil {
			return stored.Recommendation, nil
		}
	}
	r, err := recommend.Recommend(context.WithoutCancel(ctx), prob, trials, recommend.Settings{Tolerance: tolerance})
	if errors.Is(err, recommend.ErrNoCandidate) {
		return nil, usageErrorf("study %q has no completed feasible trial yet", name)
	}
	if err != nil {
		return nil, fmt.Errorf("study %q: %w", name, err)
	}
	if save && store != nil {
		if err := store.SaveDoc(id, recommendationDoc, storedRecommendation{Key: key, Recommendation: r}); err != nil {
			return nil, fmt.Errorf("study %q: %w", name, err)
		}
	}
	return r, nil
}

// recommendationKey digests what a recommendation depends on: the gctune build, the
// tolerance, the objective's settings and workloads as opened, and every finished trial.
func recommendationKey(prob *objective.Problem, trials []goptuna.FrozenTrial, tolerance float64) string {
	type trialKey struct {
		Number int
		State  goptuna.TrialState
		Value  float64
		Attrs  map[string]string
	}
	type workloadKey struct {
		Name    string
		Records int
		End     uint64
	}
	k := struct {
		Version   string
		Tolerance float64
		Settings  objective.Settings
		Workloads []workloadKey
		Trials    []trialKey
	}{Version: version, Tolerance: tolerance, Settings: prob.Settings()}
	for _, w := range prob.Workloads() {
		k.Workloads = append(k.Workloads, workloadKey{w.Name, w.Profile.Len(), w.Profile.Meta.EndBytes})
	}
	for _, t := range trials {
		if t.State == goptuna.TrialStateComplete {
			k.Trials = append(k.Trials, trialKey{t.Number, t.State, t.Value, t.UserAttrs})
		}
	}
	b, err := json.Marshal(k)
	if err != nil {
		return "" // never matches: the recommendation is made again
	}
	sum := sha256.Sum256(append(b, recommendationFormat))
	return hex.EncodeToString(sum[:])
}

// recommendationFormat changes when the recommendation's rules change, so that a stored one
// made by the old rules is made again (a development build's version does not change).
const recommendationFormat = 5
