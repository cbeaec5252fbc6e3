package uncertainty

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile"
)

func TestDefaultValid(t *testing.T) {
	require.NoError(t, Default().Validate())
	require.NoError(t, Model{}.Validate(), "the zero model is off, and valid")
	assert.True(t, Model{}.Off())
	assert.Nil(t, Model{}.Draw(1))
}

func TestValidateNamesTheField(t *testing.T) {
	for field, m := range map[string]Model{
		"replicas":          {Replicas: -1},
		"search replicas":   {Replicas: 4, SearchReplicas: 5},
		"allocation spread": {Replicas: 4, AllocationSpread: math.NaN()},
		"phases":            {Replicas: 4, Phases: MaxPhases + 1},
		"phase spread":      {Replicas: 4, PhaseSpread: 2},
		"cost sigma":        {Replicas: 4, CostSigma: math.Inf(1)},
	} {
		err := m.Validate()
		require.ErrorIs(t, err, ErrInvalidModel, field)
		assert.Contains(t, err.Error(), field)
	}
}

// The replicas are a function of the seed: the same seed, the same replicas; replica k does
// not depend on K (a study's search replicas are the first of its final ones); another seed
// draws others; switching one perturbation off leaves the others' draws as they were.
func TestDrawIsDeterministic(t *testing.T) {
	m := Default()
	a, b := m.Draw(7), m.Draw(7)
	require.Len(t, a, DefaultReplicas)
	assert.Equal(t, a, b)
	m4 := m
	m4.Replicas = 4
	assert.Equal(t, a[:4], m4.Draw(7))
	assert.NotEqual(t, a[0], m.Draw(8)[0])
	noCost := m
	noCost.CostSigma = 0
	for k, r := range noCost.Draw(7) {
		assert.Equal(t, CostFactors{1, 1, 1}, r.Cost)
		assert.Equal(t, a[k].Scale, r.Scale)
		assert.Equal(t, a[k].StartFraction, r.StartFraction)
	}
	for _, r := range a {
		assert.InDelta(t, 1, r.Scale, DefaultAllocationSpread)
		assert.GreaterOrEqual(t, r.StartFraction, 0.0)
		assert.Less(t, r.StartFraction, 1.0)
		require.Len(t, r.PhaseFractions, DefaultPhases-1)
		for _, f := range r.PhaseFractions {
			assert.GreaterOrEqual(t, f, 0.0)
			assert.LessOrEqual(t, f, DefaultPhaseSpread)
		}
	}
}

func testProfile(t *testing.T) *profile.Profile {
	t.Helper()
	var b profile.Builder
	c := b.Class("Array")
	var clock uint64
	for i := range 20_000 {
		size := uint32(16 + 8*(i%50))
		if i%5000 == 0 {
			size = 4 << 20 // large, straight to old space
		}
		b.Add(c, size, clock, clock+uint64(size)*3, 1, 0)
		clock += uint64(size)
	}
	p, err := b.Build(profile.Meta{Source: "test", EndBytes: clock * 4, TotalAllocatedBytes: clock, SamplingRate: 1})
	require.NoError(t, err)
	return p
}

// A replica's profile scales every object by its factor on average, keeps the 8-byte grain,
// shares every other column, and leaves the profile as it was.
func TestReplicaProfileScales(t *testing.T) {
	p := testProfile(t)
	before := append([]uint32(nil), p.SizeBytes...)
	r := Replica{Scale: 1.03, SizeSeed: 42}
	q := r.Profile(p)
	require.NoError(t, q.Validate())
	assert.Equal(t, before, p.SizeBytes, "the profile is not changed")
	assert.Equal(t, &p.Birth[0], &q.Birth[0], "the other columns are shared")
	assert.InEpsilon(t, 1.03*p.WeightedBytes(), q.WeightedBytes(), 0.002)
	for i, s := range q.SizeBytes {
		assert.Zero(t, s%8, "record %d", i)
		assert.GreaterOrEqual(t, s, min(before[i], 16))
	}
	assert.InDelta(t, 1.03*float64(4<<20), float64(q.SizeBytes[0]), 8, "a large object too")
	assert.Same(t, p, Replica{Scale: 1}.Profile(p))
	assert.Equal(t, q.SizeBytes, r.Profile(p).SizeBytes, "deterministic")
}

func TestReplicaGarbageAndCost(t *testing.T) {
	p := testProfile(t)
	r := Replica{Scale: 1.02, StartFraction: 0.25, PhaseFractions: []float64{0.01, 0, 0.005}, Cost: CostFactors{1.1, 0.9, 1.2}}
	g := r.Garbage(p)
	require.Len(t, g, 4)
	assert.Equal(t, heapsim.Garbage{EdenFraction: 0.25}, g[0])
	end := p.Meta.EndBytes
	assert.Equal(t, end/4, g[1].AtBytes)
	assert.Equal(t, uint64(0.01*float64(end)/4*1.02), g[1].Bytes)
	assert.Equal(t, end/4*3, g[3].AtBytes)
	c := r.ScaleCost(heapsim.DefaultCost())
	d := heapsim.DefaultCost()
	assert.InDelta(t, 1.1*d.MutatorSecondsPerByte, c.MutatorSecondsPerByte, 1e-18)
	assert.InDelta(t, 0.9*d.CopySecondsPerByte, c.CopySecondsPerByte, 1e-18)
	assert.InDelta(t, 1.2*d.MarkSecondsPerObject, c.MarkSecondsPerObject, 1e-18)
	assert.Equal(t, d.GrowSecondsPerSegment, c.GrowSecondsPerSegment, "growth is in no group")
}

func TestStatistic(t *testing.T) {
	for in, want := range map[string]Statistic{"mean": {}, "max": {Quantile: 1}, "p90": {Quantile: 0.9}, "0.75": {Quantile: 0.75}} {
		got, err := ParseStatistic(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
		back, err := ParseStatistic(got.String())
		require.NoError(t, err)
		assert.Equal(t, got, back)
	}
	for _, bad := range []string{"", "p0", "p101", "1.5", "median", "NaN"} {
		_, err := ParseStatistic(bad)
		assert.Error(t, err, bad)
	}
	v := []float64{4, 1, 3, 2}
	assert.Equal(t, 2.5, Statistic{}.Reduce(v))
	assert.Equal(t, 4.0, Statistic{Quantile: 1}.Reduce(v))
	assert.Equal(t, 2.0, Statistic{Quantile: 0.5}.Reduce(v), "an order statistic: a value some replica took")
	assert.Equal(t, []float64{4, 1, 3, 2}, v, "not sorted in place")
	assert.True(t, math.IsNaN(Statistic{}.Reduce(nil)))
}

// The prediction interval holds every replica, grows with the spread, and holds further draws
// from the same distribution about as often as it says.
func TestPredictionInterval(t *testing.T) {
	one := PredictionInterval([]float64{5}, 0.99)
	assert.Equal(t, 5.0, one.Lo)
	assert.Equal(t, 5.0, one.Hi)
	v := []float64{98, 101, 100, 103, 99, 97, 102, 100}
	iv := PredictionInterval(v, 0.99)
	for _, x := range v {
		assert.True(t, iv.Contains(x))
	}
	assert.Less(t, iv.Lo, 97.0)
	assert.Greater(t, iv.Hi, 103.0)
	wide := PredictionInterval([]float64{90, 110, 100, 95, 105, 85, 115, 100}, 0.99)
	assert.Greater(t, wide.Hi-wide.Lo, iv.Hi-iv.Lo)
	assert.True(t, math.IsNaN(PredictionInterval([]float64{1, -1}, 0.99).Lo))
	inv := iv.Invert()
	assert.InDelta(t, 1/iv.Hi, inv.Lo, 1e-15)

	// Coverage: log-normal draws, 16 to state the interval, the next one inside.
	m := Default()
	m.Replicas = 17
	inside, trials := 0, 400
	for s := range trials {
		var vals []float64
		for _, r := range m.Draw(uint64(s)) {
			vals = append(vals, 100*r.Cost.FullGC)
		}
		if PredictionInterval(vals[:16], 0.99).Contains(vals[16]) {
			inside++
		}
	}
	assert.GreaterOrEqual(t, float64(inside)/float64(trials), 0.97)
}

func TestRangeInterval(t *testing.T) {
	iv := RangeInterval([]float64{3, 1, 2, 9})
	assert.Equal(t, Interval{Lo: 1, Hi: 9, Coverage: 0.6, N: 4}, iv)
	assert.True(t, math.IsNaN(RangeInterval(nil).Lo))
	assert.True(t, math.IsNaN(RangeInterval([]float64{1, math.Inf(1)}).Hi))
	// A bimodal sample (the defaults on a cliff): the range, not a log-normal interval that
	// reaches far below every value.
	bimodal := []float64{4340, 2541, 4195, 3721, 1506, 2255, 4080, 4229, 2436, 2466, 2508, 4016, 1372, 1537, 1500, 3671}
	r := RangeInterval(bimodal)
	assert.Equal(t, 1372.0, r.Lo)
	assert.Less(t, PredictionInterval(bimodal, 0.999).Lo, 1000.0)
	assert.InDelta(t, 15.0/17, r.Coverage, 1e-12)
}

// The two scenarios: "this input again" keeps every object as profiled (scale 1: the replica's
// profile is the profile itself), draws its own start phases, garbage and run-to-run cost from
// its own stream (not the decisions' replicas again), and is deterministic in the seed.
func TestAgainScenario(t *testing.T) {
	m := Default()
	a := m.Again()
	require.NoError(t, a.Validate())
	assert.Equal(t, ScenarioAgain, a.Question())
	assert.Equal(t, ScenarioLike, m.Question())
	assert.Equal(t, DefaultAgainReplicas, a.Replicas)
	assert.Zero(t, a.SearchReplicas)
	assert.Zero(t, a.AllocationSpread)
	assert.Equal(t, DefaultAgainCostSigma, a.CostSigma)
	assert.Equal(t, a, a.Again(), "an again model is its own again scenario")
	like, again := m.Draw(5), a.Draw(5)
	require.Len(t, again, DefaultAgainReplicas)
	assert.Equal(t, again, a.Draw(5))
	prof := &profile.Profile{SizeBytes: []uint32{16, 24}}
	for k, r := range again {
		assert.Equal(t, 1.0, r.Scale, "replica %d", k)
		assert.Same(t, prof, r.Profile(prof), "the same input: no copy")
		assert.NotEqual(t, like[k].StartFraction, r.StartFraction, "replica %d: its own stream", k)
		assert.InDelta(t, 1, r.Cost.FullGC, 6*DefaultAgainCostSigma)
	}
	off := m
	off.AgainReplicas = 0
	assert.True(t, off.Again().Off(), "no again replicas: no scenario")
	assert.True(t, Model{}.Again().Off())
	bad := m
	bad.AgainCostSigma = math.NaN()
	assert.ErrorContains(t, bad.Validate(), "again cost sigma")
	bad = m
	bad.Scenario = "other"
	assert.ErrorContains(t, bad.Validate(), "scenario")
}

// CountWeight: inside the band a reading weighs 1, the profiler's share widens the band
// upwards only, and a reading far off the export's counts weighs next to nothing.
func TestCountWeight(t *testing.T) {
	assert.Equal(t, 1.0, CountWeight(1145, 315, 1145, 309, 0, false))
	assert.Equal(t, 1.0, CountWeight(1000, 10, 1150, 11, 0.05, false), "up to the profiler's share and the tolerance more")
	assert.Less(t, CountWeight(1000, 10, 1400, 10, 0.05, false), 0.2, "beyond it")
	assert.Less(t, CountWeight(1000, 10, 700, 10, 0.5, false), 0.1, "the profiler never makes fewer scavenges")
	assert.Less(t, CountWeight(1188, 43, 1145, 315, 0.01, false), MinCountWeight, "43 full GCs is not 315")
	assert.Equal(t, 1.0, CountWeight(300, 0, 300, 1, 0, false), "one full GC more is inside")
	assert.Equal(t, CountWeight(300, 40, 0, 40, 0, false), 1.0, "no scavenges reported: only the full GCs speak")
	assert.Equal(t, 1.0, CountWeight(1200, 19, 1145, 315, 0.01, true), "a floor of 19 full GCs allows 315")
	assert.Less(t, CountWeight(1200, 80, 1145, 20, 0.01, true), MinCountWeight, "but not fewer than the floor")
}

func TestForScenario(t *testing.T) {
	m, err := Default().ForScenario(8, ScenarioLike)
	require.NoError(t, err)
	assert.Equal(t, 8, m.Replicas)
	assert.Equal(t, 0, m.SearchReplicas)
	a, err := Default().ForScenario(8, ScenarioAgain)
	require.NoError(t, err)
	assert.Equal(t, Default().Again().Question(), a.Question())
	_, err = Default().ForScenario(8, "tomorrow")
	assert.EqualError(t, err, "--scenario tomorrow: want like or again")
}
