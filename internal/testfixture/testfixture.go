package testfixture

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/profile/spec"
)

// Seed is the generation seed of every profile built here, config.yaml's default.
const Seed = 1

// Spec parses specYAML as the workload spec file name+".yaml" and generates its profile
// with Seed, as workload name.
func Spec(tb testing.TB, name, specYAML string) objective.Workload {
	tb.Helper()
	sp, err := spec.Parse([]byte(specYAML), name+".yaml")
	require.NoError(tb, err)
	p, err := sp.Generate(spec.GenerateOptions{Seed: Seed})
	require.NoError(tb, err)
	return objective.Workload{Name: name, Profile: p}
}

// Bundled opens ref (a bundled workload's name or a profile file) with Seed, as workload ref.
func Bundled(tb testing.TB, ref string) objective.Workload {
	tb.Helper()
	p, _, err := source.Open(ref, source.Options{Seed: Seed})
	require.NoError(tb, err)
	return objective.Workload{Name: ref, Profile: p}
}

// Problem is the problem of workloads under s, with the calibrated cost model and the VM
// defaults.
func Problem(tb testing.TB, s objective.Settings, workloads ...objective.Workload) *objective.Problem {
	tb.Helper()
	prob, err := objective.NewProblem(workloads, heapsim.DefaultCost(), heapsim.DefaultParams(), s)
	require.NoError(tb, err)
	return prob
}

// BundledProblem is the Problem of the bundled workloads names, each opened by Bundled.
func BundledProblem(tb testing.TB, s objective.Settings, names ...string) *objective.Problem {
	tb.Helper()
	ws := make([]objective.Workload, 0, len(names))
	for _, name := range names {
		ws = append(ws, Bundled(tb, name))
	}
	return Problem(tb, s, ws...)
}

// Summary is the lifetime analysis of w's profile with the default analysis options.
func Summary(tb testing.TB, w objective.Workload) *lifetimes.Summary {
	tb.Helper()
	sum, err := lifetimes.Summarize(w.Profile, lifetimes.AnalysisOptions{})
	require.NoError(tb, err)
	return sum
}
