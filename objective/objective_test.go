package objective

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile"
)

// smallProfile: 200 MB of garbage with a 10 % long-lived share and ten 24 MiB arrays, enough
// for scavenges, tenuring and large-allocation full GCs.
func smallProfile(t *testing.T, scale uint64) *profile.Profile {
	t.Helper()
	var b profile.Builder
	c := b.Class("Object")
	var clock uint64
	var recs []struct{ size, w, life uint64 }
	for i := uint64(0); i < 2000*scale; i++ {
		recs = append(recs, struct{ size, w, life uint64 }{48, 1000, 0})
		if i%10 == 0 {
			recs = append(recs, struct{ size, w, life uint64 }{64, 100, ^uint64(0)})
		}
		if i%(200*scale) == 0 {
			recs = append(recs, struct{ size, w, life uint64 }{24 << 20, 1, ^uint64(0)})
		}
	}
	var end uint64
	for _, r := range recs {
		end += r.size * r.w
	}
	for _, r := range recs {
		death, flags := min(clock+r.life, end), uint8(0)
		if r.life == ^uint64(0) {
			death, flags = end, profile.FlagAliveAtEnd
		}
		b.Add(c, uint32(r.size), clock, death, uint32(r.w), flags)
		clock += r.size * r.w
	}
	p, err := b.Build(profile.Meta{Source: "test", EndBytes: end})
	require.NoError(t, err)
	return p
}

func TestSingleWorkloadValueIsSeconds(t *testing.T) {
	p := smallProfile(t, 1)
	prob, err := NewProblem([]Workload{{Name: "small", Profile: p}}, heapsim.DefaultCost(), heapsim.DefaultParams(), Settings{})
	require.NoError(t, err)
	r, err := prob.Evaluate(heapsim.DefaultParams())
	require.NoError(t, err)
	require.True(t, r.Feasible)
	require.Equal(t, prob.Baseline(0).TotalSeconds, r.Value)
	require.InDelta(t, 1.0, r.Speedup, 1e-12)
	require.Equal(t, prob.DefaultValue(), r.Value)

	better := heapsim.DefaultParams()
	better.GrowthHeadroomBytes = 512 * heapsim.MiB
	r2, err := prob.Evaluate(better)
	require.NoError(t, err)
	require.Less(t, r2.Metrics.FullGCs, r.Metrics.FullGCs, "a headroom above the 24 MiB arrays avoids a full GC per array")
	require.Less(t, r2.Value, r.Value)
	require.Greater(t, r2.Speedup, 1.0)
}

func TestBudgetMakesTrialsInfeasible(t *testing.T) {
	p := smallProfile(t, 1)
	base := heapsim.DefaultParams()
	def, err := heapsim.Simulate(p, base, heapsim.DefaultCost())
	require.NoError(t, err)
	prob, err := NewProblem([]Workload{{Name: "small", Profile: p}}, heapsim.DefaultCost(), base,
		Settings{MaxFootprintBytes: def.PeakFootprintBytes + 64*heapsim.MiB})
	require.NoError(t, err)
	huge := base
	huge.GrowthHeadroomBytes = 2 * heapsim.GiB
	r, err := prob.Evaluate(huge)
	require.NoError(t, err)
	require.False(t, r.Feasible)
	require.Contains(t, r.Infeasibility, "over the budget")
	require.Greater(t, r.Value, prob.DefaultValue(), "an infeasible trial is never better than the default")

	_, err = NewProblem([]Workload{{Name: "small", Profile: p}}, heapsim.DefaultCost(), base, Settings{MaxFootprintBytes: 1 << 20})
	require.ErrorContains(t, err, "below the smallest possible footprint")
}

func TestOutOfMemoryIsInfeasible(t *testing.T) {
	p := smallProfile(t, 1)
	prob, err := NewProblem([]Workload{{Name: "small", Profile: p}}, heapsim.DefaultCost(), heapsim.DefaultParams(), Settings{})
	require.NoError(t, err)
	capped := heapsim.DefaultParams()
	capped.MaxOldSpaceBytes = 100 * heapsim.MiB
	r, err := prob.Evaluate(capped)
	require.NoError(t, err)
	require.False(t, r.Feasible)
	require.Contains(t, r.Infeasibility, "out of memory")
}

func TestSeveralWorkloadsAggregateSlowdowns(t *testing.T) {
	ws := []Workload{{Name: "a", Profile: smallProfile(t, 1)}, {Name: "b", Profile: smallProfile(t, 2)}}
	for _, agg := range []Aggregate{AggregateMax, AggregateMean} {
		prob, err := NewProblem(ws, heapsim.DefaultCost(), heapsim.DefaultParams(), Settings{Aggregate: agg})
		require.NoError(t, err)
		r, err := prob.Evaluate(heapsim.DefaultParams())
		require.NoError(t, err)
		require.InDelta(t, 1.0, r.Value, 1e-12, "defaults have no slowdown")
		p := heapsim.DefaultParams()
		p.GrowthHeadroomBytes = 512 * heapsim.MiB
		r, err = prob.Evaluate(p)
		require.NoError(t, err)
		require.Len(t, r.Slowdowns, 2)
		want := max(r.Slowdowns[0], r.Slowdowns[1])
		if agg == AggregateMean {
			want = (r.Slowdowns[0] + r.Slowdowns[1]) / 2
		}
		require.InDelta(t, want, r.Value, 1e-12)
	}
	_, err := ParseAggregate("median")
	require.ErrorContains(t, err, "want max or mean")
}

func TestReadingsOfOneRunAreAveraged(t *testing.T) {
	// a and b read one run (a sampled export under two hypotheses), c is a run of its own:
	// under max the value is the worse of (a+b)/2 and c, never a or b alone.
	ws := []Workload{
		{Name: "a", Profile: smallProfile(t, 1), Run: "run.csv"},
		{Name: "c", Profile: smallProfile(t, 3)},
		{Name: "b", Profile: smallProfile(t, 2), Run: "run.csv"},
	}
	p := heapsim.DefaultParams()
	p.GrowthHeadroomBytes = 512 * heapsim.MiB
	p.NewSpaceBytes = 4 * heapsim.MiB
	for _, agg := range []Aggregate{AggregateMax, AggregateMean} {
		prob, err := NewProblem(ws, heapsim.DefaultCost(), heapsim.DefaultParams(), Settings{Aggregate: agg})
		require.NoError(t, err)
		require.Equal(t, 2, prob.Runs())
		r, err := prob.Evaluate(p)
		require.NoError(t, err)
		require.Len(t, r.Slowdowns, 3)
		run, c := (r.Slowdowns[0]+r.Slowdowns[2])/2, r.Slowdowns[1]
		want := max(run, c)
		if agg == AggregateMean {
			want = (run + c) / 2
		}
		require.InDelta(t, want, r.Value, 1e-12, "%s", agg)
	}
	// The two readings alone: their mean, whatever the aggregate.
	prob, err := NewProblem([]Workload{ws[0], ws[2]}, heapsim.DefaultCost(), heapsim.DefaultParams(), Settings{})
	require.NoError(t, err)
	r, err := prob.Evaluate(p)
	require.NoError(t, err)
	require.NotEqual(t, r.Slowdowns[0], r.Slowdowns[1], "the test needs readings that differ")
	require.InDelta(t, (r.Slowdowns[0]+r.Slowdowns[1])/2, r.Value, 1e-12)
}

func TestInvalidParamsAreErrors(t *testing.T) {
	prob, err := NewProblem([]Workload{{Name: "small", Profile: smallProfile(t, 1)}}, heapsim.DefaultCost(), heapsim.DefaultParams(), Settings{})
	require.NoError(t, err)
	bad := heapsim.DefaultParams()
	bad.FullGCRatio = -1
	_, err = prob.Evaluate(bad)
	require.ErrorIs(t, err, heapsim.ErrInvalidParams)
	_, err = NewProblem(nil, heapsim.DefaultCost(), heapsim.DefaultParams(), Settings{})
	require.Error(t, err)
}

func TestMinNewSpaceBytes(t *testing.T) {
	base := heapsim.DefaultParams()
	n := MinNewSpaceBytes(base)
	p := base
	p.NewSpaceBytes = n
	require.NoError(t, p.Validate())
	p.NewSpaceBytes = n - 1
	require.Error(t, p.Validate())
}
