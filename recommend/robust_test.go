package recommend

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/testfixture"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
)

// synthetic is a judging whose objective is a function of the parameters: the neighbourhood
// rule tested on a landscape whose cliffs are known.
type synthetic func(heapsim.Params) float64

func (f synthetic) decision(p heapsim.Params) (objective.Result, error) {
	return objective.Result{Value: f(p), Feasible: true}, nil
}
func (f synthetic) outer(p heapsim.Params) (objective.Result, error) { return f.decision(p) }
func (f synthetic) vm() heapsim.Params                               { return heapsim.DefaultParams() }

// headroomCliff costs half as much again below a 1000 MiB headroom (one large allocation per
// growth, say), and is a gentle bowl in the new-space size around 256 MiB.
func headroomCliff(p heapsim.Params) float64 {
	v := 100.0
	if p.GrowthHeadroomBytes < 1000*heapsim.MiB {
		v += 50
	}
	e := math.Log(float64(p.NewSpaceBytes) / float64(256*heapsim.MiB))
	return v + 20*e*e
}

// recommendationAt is a recommendation of point p with the shrink threshold and the survivors
// at the VM defaults.
func recommendationAt(p tunable.Point) *Recommendation {
	def := tunable.DefaultPoint(heapsim.DefaultParams()).Rounded()
	p.ShrinkBytes, p.Proportion = def.ShrinkBytes, def.Proportion
	return &Recommendation{Tolerance: 0.01, Point: p.Rounded(), AtDefault: []string{tunable.ParamShrink, tunable.ParamProportion}}
}

// A recommendation 1 % above a cliff is moved into the flat region: its headroom rises until
// 5 % less stays above the cliff, and every kept parameter then passes the rule.
func TestSettleMovesOffACliff(t *testing.T) {
	r := recommendationAt(tunable.Point{NewSpaceBytes: 256 << 20, HeadroomBytes: 1010 << 20, Ratio: 10})
	flat, moves, err := settle(synthetic(headroomCliff), r, 100*1.01, 0.01)
	require.NoError(t, err)
	assert.True(t, flat)
	require.Len(t, moves, 1)
	assert.Equal(t, tunable.ParamHeadroom, moves[0].Param)
	assert.Equal(t, float64(1010<<20), moves[0].From)
	assert.Equal(t, float64(1061<<20), moves[0].To, "one neighbourhood up, rounded to MiB")
	assert.Contains(t, moves[0].Why, "-5 %")
	assert.Equal(t, float64(1061<<20), r.Point.HeadroomBytes)
	for _, side := range []float64{-1, 1} {
		_, params, ok := neighbour(r.Point, r.AtDefault, tunable.All()[1], side*Neighbourhood, heapsim.DefaultParams())
		require.True(t, ok)
		assert.Equal(t, 100.0, headroomCliff(params))
	}

	m, err := margins(synthetic(headroomCliff), r, 0.01)
	require.NoError(t, err)
	require.Len(t, m, 3, "new space, headroom, ratio")
	head := m[1]
	assert.Equal(t, tunable.ParamHeadroom, head.Param)
	assert.False(t, head.DownOpen)
	assert.InDelta(t, 0.051, head.Down, 0.001, "the cliff between 5 and 10 % lower, placed by the cost line")
	assert.True(t, head.UpOpen)
	assert.Equal(t, 0.4, head.Up)
	ratio := m[2]
	assert.True(t, ratio.DownOpen && ratio.UpOpen, "the ratio does nothing here")
	eden := m[0]
	assert.False(t, eden.DownOpen, "the bowl rises past 1 % within 40 %")
	assert.Greater(t, eden.Down, 0.1)
}

// A recommendation on a bump its search did not see past (10 % slower than both neighbours)
// moves to the faster one, and then off the bump's edge, which is now a cliff beside it.
func TestSettleLeavesABump(t *testing.T) {
	bump := func(p heapsim.Params) float64 {
		if p.GrowthHeadroomBytes >= 1000*heapsim.MiB && p.GrowthHeadroomBytes < 1100*heapsim.MiB {
			return 110
		}
		return 100
	}
	r := recommendationAt(tunable.Point{NewSpaceBytes: 256 << 20, HeadroomBytes: 1050 << 20, Ratio: 10})
	flat, moves, err := settle(synthetic(bump), r, 110*1.01, 0.01)
	require.NoError(t, err)
	assert.True(t, flat)
	require.Len(t, moves, 2)
	assert.True(t, moves[0].Faster)
	assert.Equal(t, "moved to a faster neighbour", moves[0].Verb())
	assert.Equal(t, float64(1050<<20), moves[0].From)
	assert.Equal(t, float64(998<<20), moves[0].To, "5 % lower, the first side tried, rounded to MiB")
	assert.Contains(t, moves[0].Why, "growth headroom -5 % saves 9.1 %")
	assert.False(t, moves[1].Faster, "then 5 % more headroom is the bump again: a cliff")
	assert.Equal(t, "moved off a cliff", moves[1].Verb())
	assert.Equal(t, 100.0, bump(r.Params(heapsim.DefaultParams())))
}

// On rugged landscapes (random values on 2 % cells of the new space and the headroom) settle
// ends, takes at most maxClimbs faster neighbours, and gives the same moves for the same
// landscape.
func TestSettleClimbsAtMostMaxClimbs(t *testing.T) {
	climbed, bounded := 0, 0
	for seed := uint64(1); seed <= 200; seed++ {
		rugged := func(p heapsim.Params) float64 {
			cell := func(b uint64) uint64 { return uint64(math.Round(math.Log(float64(b)) / math.Log(1.02))) }
			h := (cell(p.NewSpaceBytes)*1_000_003 + cell(p.GrowthHeadroomBytes)) * (seed*0x9e3779b97f4a7c15 | 1)
			h ^= h >> 29
			h *= 0xbf58476d1ce4e5b9
			h ^= h >> 32
			return 100 + 20*float64(h%1000)/1000
		}
		start := tunable.Point{NewSpaceBytes: 256 << 20, HeadroomBytes: 1 << 30, Ratio: 10}
		var runs [2][]Move
		for k := range runs {
			r := recommendationAt(start)
			_, moves, err := settle(synthetic(rugged), r, 130, 0.01)
			require.NoError(t, err)
			runs[k] = moves
		}
		assert.Equal(t, runs[0], runs[1], "seed %d: the same landscape, the same moves", seed)
		faster := 0
		for _, m := range runs[0] {
			if m.Faster {
				faster++
			}
		}
		assert.LessOrEqual(t, faster, maxClimbs, "seed %d", seed)
		climbed += min(faster, 1)
		if faster == maxClimbs {
			bounded++
		}
	}
	assert.Positive(t, climbed, "some landscapes must have a faster neighbour to take")
	assert.Positive(t, bounded, "some landscape must reach the bound, or the test does not check it")
}

// A value over the limit is not a place to move to; a comb (a cliff whichever way) leaves the
// parameter where it is and says the region is not flat.
func TestSettleWithoutAFlatRegion(t *testing.T) {
	comb := func(p heapsim.Params) float64 {
		if int(p.NewSpaceBytes/(10*heapsim.MiB))%2 == 0 {
			return 100
		}
		return 110
	}
	r := recommendationAt(tunable.Point{NewSpaceBytes: 200 << 20, HeadroomBytes: 2 << 30, Ratio: 10})
	before := r.Point
	flat, moves, err := settle(synthetic(comb), r, 101, 0.01)
	require.NoError(t, err)
	assert.False(t, flat)
	assert.Empty(t, moves)
	assert.Equal(t, before, r.Point)
}

// The robust recommendation on a real workload: judged on the replicas, deterministic, its
// interval holds every replica it was stated on, and what it states is what simulating it on
// those replicas gives.
func TestRecommendRobust(t *testing.T) {
	m := uncertainty.Default()
	m.Replicas, m.SearchReplicas = 8, 2
	prob := testfixture.BundledProblem(t, objective.Settings{Uncertainty: m, Seed: 3}, "image-processing")
	trials := stored(t, prob, randomPoints(12, 4))
	s := Settings{Tolerance: 0.01, DecisionReplicas: 4, Rejudge: 3}
	r, err := Recommend(context.Background(), prob, trials, s)
	require.NoError(t, err)
	again, err := Recommend(context.Background(), prob, trials, s)
	require.NoError(t, err)
	assert.Equal(t, r, again)

	rb := r.Robust
	require.NotNil(t, rb)
	assert.Equal(t, 8, rb.Replicas, "the headline is stated on the again replicas, as many as --replicas")
	assert.Equal(t, uncertainty.ScenarioAgain, rb.Scenario)
	assert.Equal(t, 4, rb.DecisionReplicas)
	assert.LessOrEqual(t, rb.Rejudged, 6)
	require.Len(t, rb.Values, 8)
	for k, v := range rb.Values {
		assert.True(t, rb.ValueInterval.Contains(v), "replica %d", k)
		assert.True(t, rb.SpeedupInterval.Contains(rb.Speedups[k]), "replica %d", k)
		assert.True(t, rb.DefaultInterval().Contains(rb.DefaultValues[k]), "replica %d", k)
	}
	assert.Equal(t, uncertainty.DefaultCoverage, rb.ValueInterval.Coverage)
	assert.Equal(t, uncertainty.DefaultCoverage, rb.SpeedupInterval.Coverage)
	assert.Equal(t, uncertainty.DefaultCoverage, rb.DefaultInterval().Coverage)
	// The headline is what simulating the recommendation on the again replicas gives.
	head := prob.Again()
	require.NotNil(t, head)
	res, err := head.EvaluateRobust(r.Params(prob.Base()))
	require.NoError(t, err)
	assert.Equal(t, res.Value, r.Value)
	assert.Equal(t, res.Replicas, rb.Values)
	def, _, err := head.RobustDefault()
	require.NoError(t, err)
	assert.Equal(t, def, r.DefaultValue)
	assert.InDelta(t, def/res.Value, r.Speedup, 1e-12)
	// The inputs-like-this-one forecast beside it is the decisions' replicas, all K.
	require.NotNil(t, rb.Like)
	assert.Equal(t, uncertainty.ScenarioLike, rb.Like.Scenario)
	like, err := prob.EvaluateRobust(r.Params(prob.Base()))
	require.NoError(t, err)
	assert.Equal(t, like.Replicas, rb.Like.Values)
	assert.Equal(t, like.Value, rb.Like.Value)
	nominal, err := prob.EvaluateNominal(r.Params(prob.Base()))
	require.NoError(t, err)
	assert.Equal(t, nominal.Value, rb.NominalValue)
	for _, mg := range rb.Margins {
		assert.True(t, r.Changed(mg.Param), mg.Param)
		assert.NotEmpty(t, mg.Steps, mg.Param)
	}
}
