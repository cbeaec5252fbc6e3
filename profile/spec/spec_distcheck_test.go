package spec

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSpecDistChecks pins the validator's message for each distribution kind's parameter
// checks (one bad parameter each, sizes and lifetimes).
func TestSpecDistChecks(t *testing.T) {
	for _, c := range []struct{ size, life, want string }{
		{"{dist: fixed, value: 0}", "until-end", "classes[0].size.value: missing or zero: a size must be positive"},
		{"{dist: fixed, value: 5GB}", "until-end", "classes[0].size.value: 5e+09 bytes is more than 4.29497e+09"},
		{"{dist: uniform, min: 16, max: 5GB}", "until-end", "classes[0].size.max: 5e+09 bytes is more than 4.29497e+09"},
		{"24", "{dist: uniform, min: 5e18}", "phases[0].mix[0].lifetime.min: 5e+18 bytes of allocation is more than 4.61169e+18"},
		{"24", "{dist: exponential, min: 1}", "phases[0].mix[0].lifetime.mean: missing or zero: distribution exponential needs mean > 0"},
		{"{dist: exponential, mean: 5GB}", "until-end", "classes[0].size.mean: 5e+09 bytes is more than 4.29497e+09"},
		{"{dist: exponential, mean: 48, min: 64, max: 32}", "until-end", "classes[0].size.min: 64 is above max (32)"},
		{"{dist: exponential, mean: 48, max: 5GB}", "until-end", "classes[0].size.max: 5e+09 bytes is more than 4.29497e+09"},
		{"{dist: lognormal, median: 48, sigma: 21}", "until-end", "classes[0].size.sigma: 21: want a sigma (of the log) up to 20"},
		{"{dist: lognormal, sigma: 1}", "until-end", "classes[0].size.median: missing or zero: distribution lognormal needs median > 0"},
		{"{dist: normal, stddev: 1}", "until-end", "classes[0].size.mean: missing or zero: distribution normal needs mean > 0"},
		{"{dist: gamma, mean: 48, max: 64}", "until-end", "classes[0].size.shape: missing or zero: distribution gamma needs shape > 0"},
		{"{dist: gamma, mean: 48, shape: 1e7}", "until-end", "classes[0].size.shape: 1e+07: want a shape in [0.001, 1e6]"},
		{"{dist: weibull, scale: 48, shape: 0.0001}", "until-end", "classes[0].size.shape: 0.0001: want a shape in [0.001, 1e6]"},
		{"{dist: weibull, shape: 2}", "until-end", "classes[0].size.scale: missing or zero: distribution weibull needs scale > 0"},
		{"{dist: pareto, scale: 48, max: 64}", "until-end", "classes[0].size.alpha: missing or zero: distribution pareto needs alpha > 0"},
		{"{dist: pareto, scale: 48, alpha: 1e7}", "until-end", "classes[0].size.alpha: 1e+07: want an alpha in [0.001, 1e6]"},
		{"{dist: choice, max: 64}", "until-end", "classes[0].size.values: missing: choice needs a list of values"},
		{"{dist: choice, values: [16, 0]}", "until-end", "classes[0].size.values[1]: 0: want a size in (0, 4.29497e+09] bytes"},
		{"{dist: choice, values: [16], weights: [0]}", "until-end", "classes[0].size.weights: weights sum to 0, want a positive total"},
		{"24", "{dist: fraction-of-run, fraction: 2}", "phases[0].mix[0].lifetime.fraction: 2: want a fraction of the run in [0, 1]"},
	} {
		doc := fmt.Sprintf("{name: d, classes: [{name: A, size: %s}], phases: [{name: p, allocate: 1MB, mix: [{class: A, share: 1, lifetime: %s}]}]}", c.size, c.life)
		_, err := Parse([]byte(doc), "d.yaml")
		if assert.Error(t, err, doc) {
			assert.Equal(t, "spec d.yaml:1: "+c.want, err.Error(), doc)
		}
	}
}
