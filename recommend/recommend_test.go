package recommend

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/testfixture"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/tunable"
)

// testProblem opens the bundled workload name (seed 1) into a problem with the calibrated
// cost model and the VM defaults.
func testProblem(t testing.TB, name string) *objective.Problem {
	t.Helper()
	return testfixture.BundledProblem(t, objective.Settings{}, name)
}

// stored evaluates points as a study would have stored them.
func stored(t testing.TB, prob *objective.Problem, pts []tunable.Point) []goptuna.FrozenTrial {
	t.Helper()
	var out []goptuna.FrozenTrial
	for i, pt := range pts {
		res, err := prob.Evaluate(pt.Params(prob.Base()))
		require.NoError(t, err)
		params := map[string]interface{}{}
		for k, v := range pt.Internal() {
			params[k] = v
		}
		out = append(out, goptuna.FrozenTrial{Number: i, State: goptuna.TrialStateComplete, Value: res.Value, Params: params,
			UserAttrs: map[string]string{trialattr.Feasible: strconv.FormatBool(res.Feasible),
				trialattr.Footprint: strconv.FormatUint(res.Metrics.PeakFootprintBytes, 10)}})
	}
	return out
}

func randomPoints(n int, seed uint64) []tunable.Point {
	rng := rand.New(rand.NewPCG(seed, 7))
	space := tunable.DefaultSpace()
	logU := func(b tunable.Bounds) float64 { return b.Low * math.Exp(rng.Float64()*math.Log(b.High/b.Low)) }
	var pts []tunable.Point
	for range n {
		pts = append(pts, tunable.Point{NewSpaceBytes: logU(space.NewSpaceBytes), HeadroomBytes: logU(space.HeadroomBytes),
			ShrinkBytes: logU(space.ShrinkBytes), Ratio: logU(space.Ratio),
			Proportion: space.Proportion.Low + rng.Float64()*(space.Proportion.High-space.Proportion.Low)})
	}
	return pts
}

// TestRecommendPutsBackIdleChanges: every change put back cost less than the tolerance, every
// change kept costs at least the tolerance (or was refused for a stated reason), and the
// figures are those of simulating the recommendation itself.
func TestRecommendPutsBackIdleChanges(t *testing.T) {
	prob := testProblem(t, "cache-churn")
	const tol = 0.01
	r, err := Recommend(context.Background(), prob, stored(t, prob, randomPoints(24, 3)), Settings{Tolerance: tol})
	require.NoError(t, err)
	res, err := prob.Evaluate(r.Params(prob.Base()))
	require.NoError(t, err)
	assert.Equal(t, res.Value, r.Value, "the recommendation is simulated")
	assert.Equal(t, res.Metrics.PeakFootprintBytes, r.PeakFootprintBytes)
	assert.LessOrEqual(t, r.Value, r.Chosen.Value*(1+tol)*(1+1e-12))
	assert.NotEmpty(t, r.PutBack, "random points change all five; some are idle on cache-churn")
	for _, st := range r.PutBack {
		assert.Less(t, st.Cost, tol, st.Param)
		assert.False(t, r.Changed(st.Param), st.Param)
	}
	for _, st := range r.Kept {
		assert.True(t, r.Changed(st.Param), st.Param)
		assert.NotEmpty(t, st.Why, st.Param)
		if st.Feasible && st.Objective <= r.Chosen.Value*(1+tol) && st.PeakFootprintBytes <= uint64(float64(r.Chosen.PeakFootprintBytes)*(1+tol)) {
			assert.GreaterOrEqual(t, st.Cost, tol, "%s was kept though it cost less than the tolerance", st.Param)
		}
		// Its cost is measured against the recommendation.
		one, err := prob.Evaluate(Params(r.Point, withParam(r.AtDefault, st.Param), prob.Base()))
		require.NoError(t, err)
		assert.InDelta(t, one.Value/r.Value-1, st.Cost, 1e-12, st.Param)
	}
	assert.Len(t, r.Kept, 5-len(r.AtDefault))
	def := tunable.DefaultPoint(prob.Base()).Rounded()
	for _, name := range r.AtDefault {
		tn, _ := tunable.Named(name)
		assert.Equal(t, tn.Get(def), tn.Get(r.Point), name)
	}
}

// TestRecommendKeepDefaults: a study whose best is barely faster than the defaults says to
// keep them, and still carries the configuration.
func TestRecommendKeepDefaults(t *testing.T) {
	prob := testProblem(t, "cache-churn")
	def := tunable.DefaultPoint(prob.Base())
	idle := def
	idle.ShrinkBytes = 64 << 20 // the shrink threshold does little on its own
	r, err := Recommend(context.Background(), prob, stored(t, prob, []tunable.Point{def, idle}), Settings{Tolerance: 0.01})
	require.NoError(t, err)
	assert.True(t, r.KeepDefaults, "speedup %v", r.Speedup)
	assert.InDelta(t, 1, r.Speedup, KeepDefaultsWithin)
}

// TestRecommendDeterministic: the same trials give the same recommendation, run after run.
func TestRecommendDeterministic(t *testing.T) {
	prob := testProblem(t, "cache-churn")
	trials := stored(t, prob, randomPoints(8, 5))
	a, err := Recommend(context.Background(), prob, trials, Settings{Tolerance: 0.01})
	require.NoError(t, err)
	b, err := Recommend(context.Background(), prob, trials, Settings{Tolerance: 0.01})
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

func TestRecommendNoCandidate(t *testing.T) {
	prob := testProblem(t, "cache-churn")
	_, err := Recommend(context.Background(), prob, nil, Settings{Tolerance: 0.01})
	require.ErrorIs(t, err, ErrNoCandidate)
	_, err = Recommend(context.Background(), prob, nil, Settings{Tolerance: 2})
	require.Error(t, err)
}

func TestRefusalOnEachWorkload(t *testing.T) {
	cur := objective.Result{Value: 0.88, Feasible: true, Slowdowns: []float64{0.88, 0.83}}
	// Putting the parameter back costs 0.1 % on the max, 4 % on the second workload.
	st := Step{Feasible: true, Objective: 0.881, Cost: 0.881/0.88 - 1, Slowdowns: []float64{0.881, 0.863}}
	assert.Contains(t, refusal(st, cur, cur, 0.01), "would slow one workload")
	st.Slowdowns = []float64{0.881, 0.835}
	assert.Empty(t, refusal(st, cur, cur, 0.01))
}
