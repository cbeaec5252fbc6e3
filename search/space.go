package search

import (
	"fmt"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/tunable"
)

// The search space as goptuna sees it: its distributions and the trial's suggestions, one per
// tunable in their fixed order.

// distributions returns the goptuna distribution of each dimension.
func distributions(s tunable.Space) map[string]interface{} {
	out := make(map[string]interface{}, len(tunable.All()))
	for _, t := range tunable.All() {
		b := t.Bounds(s)
		if t.Log {
			out[t.Name] = goptuna.LogUniformDistribution{Low: b.Low, High: b.High}
		} else {
			out[t.Name] = goptuna.UniformDistribution{Low: b.Low, High: b.High}
		}
	}
	return out
}

// suggest asks the trial for every dimension, in a fixed order.
func suggest(s tunable.Space, trial goptuna.Trial) (tunable.Point, error) {
	var p tunable.Point
	for _, t := range tunable.All() {
		b := t.Bounds(s)
		var v float64
		var err error
		if t.Log {
			v, err = trial.SuggestLogUniform(t.Name, b.Low, b.High)
		} else {
			v, err = trial.SuggestUniform(t.Name, b.Low, b.High)
		}
		if err != nil {
			return p, fmt.Errorf("search: suggest %s: %w", t.Name, err)
		}
		t.Set(&p, v)
	}
	return p, nil
}
