package report

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/testfixture"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/tunable"
)

// testProblem opens bundled workloads (seed 1, as config.yaml's default) into a problem
// with the calibrated cost model and the VM defaults.
func testProblem(t testing.TB, budget uint64, names ...string) *objective.Problem {
	t.Helper()
	return testfixture.BundledProblem(t, objective.Settings{MaxFootprintBytes: budget}, names...)
}

// testTrials evaluates n random points of space (seed fixed) and the default point, as a
// study would have stored them.
func testTrials(t testing.TB, prob *objective.Problem, space tunable.Space, n int) []goptuna.FrozenTrial {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	logU := func(b tunable.Bounds) float64 {
		lo, hi := b.Low, b.High
		return lo * math.Exp(rng.Float64()*math.Log(hi/lo))
	}
	var trials []goptuna.FrozenTrial
	for i := range n {
		pt := tunable.DefaultPoint(prob.Base())
		if i > 0 {
			pt = tunable.Point{NewSpaceBytes: logU(space.NewSpaceBytes), HeadroomBytes: logU(space.HeadroomBytes),
				ShrinkBytes: logU(space.ShrinkBytes), Ratio: logU(space.Ratio),
				Proportion: space.Proportion.Low + rng.Float64()*(space.Proportion.High-space.Proportion.Low)}
		}
		res, err := prob.Evaluate(pt.Params(prob.Base()))
		require.NoError(t, err)
		params := map[string]interface{}{}
		for k, v := range pt.Internal() {
			params[k] = v
		}
		trials = append(trials, goptuna.FrozenTrial{Number: i, ID: i + 1, State: goptuna.TrialStateComplete,
			Value: res.Value, Params: params, UserAttrs: map[string]string{
				trialattr.Feasible:  strconv.FormatBool(res.Feasible),
				trialattr.Footprint: strconv.FormatUint(res.Metrics.PeakFootprintBytes, 10),
			}})
	}
	trials = append(trials, goptuna.FrozenTrial{Number: n, ID: n + 1, State: goptuna.TrialStateFail})
	return trials
}

// The fixture's problem.
var fixtureWorkloads = []string{"cache-churn", "image-processing"}

const (
	fixtureBudget = 3 << 30
	fixtureTrials = 16
)

var (
	fixtureOnce sync.Once
	fixture     *Report
	fixtureErr  error
)

// newTestReport builds (once per test binary) a real report on two bundled workloads,
// cache-churn (whose default run shows all four pathologies) and image-processing, from 16
// random trials and a 3 GiB budget (some of them over it), with 5 sweep points per parameter.
// The workloads are among the smallest bundled ones, so that the suite stays fast under -race.
func newTestReport(t testing.TB) *Report {
	t.Helper()
	fixtureOnce.Do(func() {
		prob := testProblem(t, fixtureBudget, fixtureWorkloads...)
		space := tunable.DefaultSpace()
		in := Input{Study: "fixture <study>", Version: "test", Problem: prob, Space: space,
			Trials: testTrials(t, prob, space, fixtureTrials), Trial: -1}
		fixture, fixtureErr = Build(context.Background(), in, Options{SweepPoints: 5, Workers: 2})
	})
	require.NoError(t, fixtureErr)
	return fixture
}

// mustFigures returns r's figures, failing the test on an error.
func mustFigures(t testing.TB, r *Report) []Figure {
	t.Helper()
	figs, err := Figures(r)
	require.NoError(t, err)
	return figs
}

// previewEnv returns $name for a preview test (one that writes files to look at), skipping
// the test when it is unset; hint says what to set.
func previewEnv(t testing.TB, name, hint string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		t.Skip(hint)
	}
	return v
}

// envInt returns $name as an integer, def when it is unset.
func envInt(t testing.TB, name string, def int) int {
	t.Helper()
	n := def
	if v := os.Getenv(name); v != "" {
		_, err := fmt.Sscan(v, &n)
		require.NoError(t, err, name)
	}
	return n
}
