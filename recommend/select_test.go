package recommend

import (
	"math"
	"strconv"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/tunable"
)

// trial makes a stored trial: value, footprint in MiB (0: not recorded), state and feasibility.
func trial(n int, value float64, fpMiB uint64, opts ...func(*goptuna.FrozenTrial)) goptuna.FrozenTrial {
	p := tunable.Point{NewSpaceBytes: float64(16+n) * (1 << 20), HeadroomBytes: 16 << 20, ShrinkBytes: 32 << 20, Ratio: 0.5, Proportion: 0.9}
	params := map[string]interface{}{}
	for k, v := range p.Internal() {
		params[k] = v
	}
	t := goptuna.FrozenTrial{Number: n, State: goptuna.TrialStateComplete, Value: value, Params: params,
		UserAttrs: map[string]string{trialattr.Feasible: "true"}}
	if fpMiB > 0 {
		t.UserAttrs[trialattr.Footprint] = strconv.FormatUint(fpMiB<<20, 10)
	}
	for _, o := range opts {
		o(&t)
	}
	return t
}

func infeasible(t *goptuna.FrozenTrial) { t.UserAttrs[trialattr.Feasible] = "false" }

// slowdowns records per-workload slowdowns, as search.Optimize does.
func slowdowns(v string) func(*goptuna.FrozenTrial) {
	return func(t *goptuna.FrozenTrial) { t.UserAttrs[trialattr.Slowdowns] = v }
}
func failed(t *goptuna.FrozenTrial) { t.State = goptuna.TrialStateFail }

func TestSelect(t *testing.T) {
	for _, tc := range []struct {
		name         string
		trials       []goptuna.FrozenTrial
		tolerance    float64
		best, chosen int
		within       int
	}{
		{"smallest footprint within 1 %", []goptuna.FrozenTrial{
			trial(0, 100, 1000), trial(1, 100.5, 800), trial(2, 100.9, 700), trial(3, 101.2, 100)},
			0.01, 0, 2, 3},
		{"tolerance 0 keeps the best", []goptuna.FrozenTrial{
			trial(0, 100, 1000), trial(1, 100.5, 800)}, 0, 0, 0, 1},
		{"tie on value: the lower number is best, the smaller footprint chosen", []goptuna.FrozenTrial{
			trial(4, 100, 900), trial(2, 100, 950), trial(3, 100, 900)}, 0, 2, 3, 3},
		{"tie on footprint: the lower value, then the lower number", []goptuna.FrozenTrial{
			trial(0, 100, 900), trial(1, 100.4, 800), trial(2, 100.2, 800), trial(3, 100.2, 800)}, 0.01, 0, 2, 4},
		{"infeasible and failed trials never count", []goptuna.FrozenTrial{
			trial(0, 50, 10, infeasible), trial(1, 40, 10, failed), trial(2, 100, 900), trial(3, 100.5, 800, infeasible)},
			0.01, 2, 2, 1},
		{"a tampered 0 value does not win", []goptuna.FrozenTrial{
			trial(0, 0, 10), trial(1, -1, 10), trial(2, math.Inf(-1), 10), trial(3, math.NaN(), 10), trial(4, 100, 900)},
			0.01, 4, 4, 1},
		{"an unknown footprint loses to a known one", []goptuna.FrozenTrial{
			trial(0, 100, 0), trial(1, 100.5, 900)}, 0.01, 0, 1, 2},
		// Two workloads aggregated by max: trial 1 is within 1 % of the best on the max (the
		// first workload) but 4 % behind it on the second, so it is not chosen; trial 2 is
		// within 1 % on both.
		{"within the tolerance on every workload, not only the aggregate", []goptuna.FrozenTrial{
			trial(0, 0.879, 2770, slowdowns("[0.879, 0.830]")),
			trial(1, 0.887, 2560, slowdowns("[0.887, 0.862]")),
			trial(2, 0.885, 2600, slowdowns("[0.885, 0.835]"))},
			0.01, 0, 2, 2},
		{"slowdowns not recorded or malformed: the aggregate alone", []goptuna.FrozenTrial{
			trial(0, 0.879, 2770, slowdowns("[0.879, 0.830]")),
			trial(1, 0.887, 2560, slowdowns("[0.887]")),
			trial(2, 0.886, 2500, slowdowns("not json")),
			trial(3, 0.886, 2400, slowdowns("[0.886, NaN]"))},
			0.01, 0, 3, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Select(Candidates(tc.trials), tc.tolerance)
			require.NoError(t, err)
			assert.Equal(t, tc.best, s.Best.Number, "best")
			assert.Equal(t, tc.chosen, s.Chosen.Number, "chosen")
			assert.Equal(t, tc.within, s.Within, "within")
		})
	}
}

func TestSelectNone(t *testing.T) {
	_, err := Select(Candidates([]goptuna.FrozenTrial{trial(0, 0, 10), trial(1, 10, 10, infeasible)}), 0.01)
	require.ErrorIs(t, err, ErrNoCandidate)
	_, err = Select(nil, 0.01)
	require.ErrorIs(t, err, ErrNoCandidate)
}

func TestValidateTolerance(t *testing.T) {
	for _, v := range []float64{0, 0.01, 0.5} {
		assert.NoError(t, ValidateTolerance(v), v)
	}
	for _, v := range []float64{-0.01, 1, 2, math.NaN(), math.Inf(1)} {
		assert.Error(t, ValidateTolerance(v), v)
	}
}

func TestCandidatesRoundPoints(t *testing.T) {
	tr := trial(0, 10, 5)
	tr.Params[tunable.ParamNewSpace] = float64(16<<20) + 1234
	c := Candidates([]goptuna.FrozenTrial{tr})
	require.Len(t, c, 1)
	assert.Equal(t, float64(16<<20), c[0].Point.NewSpaceBytes)
	assert.Equal(t, uint64(5<<20), c[0].PeakFootprintBytes)
}

func TestWithinOnEach(t *testing.T) {
	assert.True(t, WithinOnEach([]float64{1.01, 2}, []float64{1, 2}, 0.01))
	assert.False(t, WithinOnEach([]float64{1, 2.03}, []float64{1, 2}, 0.01))
	assert.True(t, WithinOnEach(nil, []float64{1, 2}, 0.01), "not recorded: not compared")
	assert.True(t, WithinOnEach([]float64{9}, []float64{1, 2}, 0.01), "another length: not compared")
}
