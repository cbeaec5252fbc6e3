package recommend

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/testfixture"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/uncertainty"
)

// A change put back is judged on as few replicas as its cost needs: one far beyond the
// tolerance is refused on its first replica alone (and the decision replicas refuse it too),
// one within it is judged on the decision replicas, the same result as judging it there
// directly.
func TestPutBackJudgedOnFewReplicas(t *testing.T) {
	m := uncertainty.Default()
	m.Replicas, m.SearchReplicas = 8, 2
	prob := testfixture.BundledProblem(t, objective.Settings{Uncertainty: m, Seed: 3}, "image-processing")
	j := newJudge(context.Background(), prob, 6)
	at := heapsim.DefaultParams()
	at.NewSpaceBytes, at.GrowthHeadroomBytes = 64*heapsim.MiB, 256*heapsim.MiB
	cur, err := j.decision(at)
	require.NoError(t, err)
	const tol = 0.01
	for _, tc := range []struct {
		name     string
		change   func(*heapsim.Params)
		replicas int
	}{
		{"far beyond", func(p *heapsim.Params) { p.NewSpaceBytes = 2 * heapsim.MiB }, 1},
		{"within", func(p *heapsim.Params) { p.NewSpaceBytes = 63 * heapsim.MiB }, 6},
	} {
		params := at
		tc.change(&params)
		before := prob.Simulations()
		res, err := putBackJudged(j, at, params, cur.Value, tol)
		require.NoError(t, err)
		assert.Equal(t, int64(tc.replicas), prob.Simulations()-before, tc.name)
		full, err := newJudge(context.Background(), prob, 6).decision(params)
		require.NoError(t, err)
		first, err := j.on(params, 1)
		require.NoError(t, err)
		ref, err := j.on(at, 1)
		require.NoError(t, err)
		t.Logf("%s: first replica %+.2f %%, decision replicas %+.2f %%", tc.name, 100*costOf(first, ref.Value), 100*costOf(full, cur.Value))
		if tc.replicas == 1 {
			assert.GreaterOrEqual(t, costOf(first, ref.Value), firstRefusal(tol), tc.name)
			assert.InDelta(t, cur.Value*(1+costOf(first, ref.Value)), res.Value, 1e-9, tc.name)
			assert.GreaterOrEqual(t, costOf(full, cur.Value), tol, "%s: refused on one replica, refused on the six", tc.name)
		} else {
			assert.Equal(t, full.Value, res.Value, tc.name)
		}
	}
}
