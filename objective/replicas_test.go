package objective

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/uncertainty"
)

func robustProblem(t *testing.T, m uncertainty.Model, seed uint64, s Settings) *Problem {
	t.Helper()
	s.Uncertainty, s.Seed = m, seed
	prob, err := NewProblem([]Workload{{Name: "small", Profile: smallProfile(t, 1)}}, heapsim.DefaultCost(), heapsim.DefaultParams(), s)
	require.NoError(t, err)
	return prob
}

func smallModel() uncertainty.Model {
	m := uncertainty.Default()
	m.Replicas, m.SearchReplicas = 6, 2
	return m
}

// A configuration judged on the replicas: the same seed gives the same values (common random
// numbers: every configuration on the same perturbed runs), Value is the statistic of the
// replicas' values, the search judges on the first SearchReplicas of them, and the defaults'
// value is judged the same way.
func TestRobustEvaluationIsDeterministic(t *testing.T) {
	m := smallModel()
	a, b := robustProblem(t, m, 5, Settings{}), robustProblem(t, m, 5, Settings{})
	params := heapsim.DefaultParams()
	params.GrowthHeadroomBytes = 64 * heapsim.MiB
	ra, err := a.EvaluateRobust(params)
	require.NoError(t, err)
	rb, err := b.EvaluateRobust(params)
	require.NoError(t, err)
	assert.Equal(t, ra, rb)
	require.Len(t, ra.Replicas, 6)
	assert.InDelta(t, uncertainty.Statistic{}.Reduce(ra.Replicas), ra.Value, 1e-9)
	nominal, err := a.EvaluateNominal(params)
	require.NoError(t, err)
	assert.NotEqual(t, nominal.Value, ra.Value, "perturbed runs differ from the profile's own")
	assert.Nil(t, nominal.Replicas)

	search, err := a.Evaluate(params)
	require.NoError(t, err)
	assert.Equal(t, ra.Replicas[:2], search.Replicas, "the search replicas are the first ones")

	def, defaults, err := a.RobustDefault()
	require.NoError(t, err)
	require.Len(t, defaults, 6)
	assert.InDelta(t, def/ra.Value, ra.Speedup, 1e-12)
	for k := range defaults {
		assert.InDelta(t, defaults[k]/ra.Replicas[k], ra.ReplicaSpeedups[k], 1e-12, "paired: replica %d", k)
	}
	assert.InDelta(t, (defaults[0]+defaults[1])/2, a.DefaultValue(), 1e-9, "the search's defaults on its replicas")

	other := robustProblem(t, m, 6, Settings{})
	ro, err := other.EvaluateRobust(params)
	require.NoError(t, err)
	assert.NotEqual(t, ra.Replicas, ro.Replicas, "another seed, other replicas")

	// A quantile instead of the mean.
	p90 := robustProblem(t, m, 5, Settings{Statistic: uncertainty.Statistic{Quantile: 0.9}})
	rq, err := p90.EvaluateRobust(params)
	require.NoError(t, err)
	assert.Equal(t, ra.Replicas, rq.Replicas)
	assert.Equal(t, uncertainty.Statistic{Quantile: 0.9}.Reduce(ra.Replicas), rq.Value)
}

// Replicas evaluated one by one and reduced give what EvaluateOn gives.
func TestReduceMatchesEvaluateOn(t *testing.T) {
	prob := robustProblem(t, smallModel(), 5, Settings{})
	params := heapsim.DefaultParams()
	var rs []Result
	for k := range 4 {
		r, err := prob.EvaluateReplica(params, k)
		require.NoError(t, err)
		rs = append(rs, r)
	}
	got, err := prob.Reduce(rs)
	require.NoError(t, err)
	want, err := prob.EvaluateOn(params, 4)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	_, err = prob.EvaluateOn(params, 7)
	assert.Error(t, err)
	_, err = prob.EvaluateReplica(params, -1)
	assert.Error(t, err)
}

// Infeasible on one replica is infeasible: the footprint is the largest of any replica, and
// the value is penalised once.
func TestRobustBudget(t *testing.T) {
	loose := robustProblem(t, smallModel(), 5, Settings{})
	params := heapsim.DefaultParams()
	params.GrowthHeadroomBytes = 64 * heapsim.MiB
	r, err := loose.EvaluateRobust(params)
	require.NoError(t, err)
	var most uint64
	for k := range 6 {
		rk, err := loose.EvaluateReplica(params, k)
		require.NoError(t, err)
		most = max(most, rk.Metrics.PeakFootprintBytes)
	}
	assert.Equal(t, most, r.Metrics.PeakFootprintBytes)

	tight := robustProblem(t, smallModel(), 5, Settings{MaxFootprintBytes: most - 1})
	rt, err := tight.EvaluateRobust(params)
	require.NoError(t, err)
	assert.False(t, rt.Feasible)
	assert.Contains(t, rt.Infeasibility, "replica")
	assert.Greater(t, rt.Value, r.Value)
	assert.InDelta(t, uncertainty.Statistic{}.Reduce(r.Replicas), uncertainty.Statistic{}.Reduce(rt.Replicas), 1e-9,
		"the replicas' values are unpenalised")
}

func TestZeroModelIsTheSingleSimulation(t *testing.T) {
	prob := robustProblem(t, uncertainty.Model{}, 5, Settings{})
	assert.Zero(t, prob.ReplicaCount())
	r, err := prob.EvaluateRobust(heapsim.DefaultParams())
	require.NoError(t, err)
	assert.Equal(t, prob.Baseline(0).TotalSeconds, r.Value)
	assert.Equal(t, prob.Baseline(0).TotalSeconds, prob.DefaultValue())
}

// With several workloads, each workload's slowdown is the statistic of its slowdowns on the
// replicas, and the value the statistic of each replica's aggregate.
func TestRobustSeveralWorkloads(t *testing.T) {
	s := Settings{Uncertainty: smallModel(), Seed: 2}
	prob, err := NewProblem([]Workload{{Name: "a", Profile: smallProfile(t, 1)}, {Name: "b", Profile: smallProfile(t, 2)}},
		heapsim.DefaultCost(), heapsim.DefaultParams(), s)
	require.NoError(t, err)
	params := heapsim.DefaultParams()
	params.GrowthHeadroomBytes = 64 * heapsim.MiB
	r, err := prob.EvaluateRobust(params)
	require.NoError(t, err)
	require.Len(t, r.Slowdowns, 2)
	var worst []float64
	for w := range 2 {
		var per []float64
		for k := range 6 {
			rk, err := prob.EvaluateReplica(params, k)
			require.NoError(t, err)
			per = append(per, rk.Slowdowns[w])
			if w == 0 {
				worst = append(worst, max(rk.Slowdowns[0], rk.Slowdowns[1]))
			}
		}
		assert.InDelta(t, uncertainty.Statistic{}.Reduce(per), r.Slowdowns[w], 1e-12)
	}
	assert.InDelta(t, uncertainty.Statistic{}.Reduce(worst), r.Value, 1e-12)
	assert.Equal(t, 1.0, prob.DefaultValue())
}

// The search replicas' runs are kept: a configuration judged again on them (the
// recommendation's candidates, the search's trials) is not simulated again, and gets the same
// result; the other replicas are simulated each time. Simulations counts every run.
func TestSearchReplicasKept(t *testing.T) {
	m := smallModel()
	prob := robustProblem(t, m, 5, Settings{})
	// The baseline and the search replicas' defaults.
	assert.Equal(t, int64(1+2), prob.Simulations())
	params := heapsim.DefaultParams()
	params.GrowthHeadroomBytes = 64 * heapsim.MiB
	first, err := prob.Evaluate(params)
	require.NoError(t, err)
	assert.Equal(t, int64(3+2), prob.Simulations())
	again, err := prob.Evaluate(params)
	require.NoError(t, err)
	assert.Equal(t, first, again)
	assert.Equal(t, int64(3+2), prob.Simulations(), "kept: not simulated again")
	again.Slowdowns[0] = 99 // the caller owns what it gets
	r0, err := prob.EvaluateReplica(params, 0)
	require.NoError(t, err)
	assert.NotEqual(t, 99.0, r0.Slowdowns[0])

	fresh := robustProblem(t, m, 5, Settings{})
	want, err := fresh.EvaluateRobust(params)
	require.NoError(t, err)
	got, err := prob.EvaluateRobust(params)
	require.NoError(t, err)
	assert.Equal(t, want, got, "kept runs give what simulating gives")
	// Replicas 2-5: their defaults prepared and the configuration simulated; 0 and 1 kept.
	assert.Equal(t, int64(5+4+4), prob.Simulations())
	_, err = prob.EvaluateReplica(params, 4)
	require.NoError(t, err)
	assert.Equal(t, int64(5+4+4+1), prob.Simulations(), "replicas past the search's are not kept")
}
