package report

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/diagnose"
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/tunable"
)

func TestBuildFixture(t *testing.T) {
	r := newTestReport(t)
	require.Len(t, r.Workloads, 2)
	require.Len(t, r.Comparisons, 2)
	require.Len(t, r.Sensitivity, len(tunable.Names()))
	require.NotNil(t, r.Diagnosis)

	// The best is the lowest feasible complete trial, and its diagnosis objective is its value.
	for _, tr := range r.Search.Trials {
		if tr.State == "complete" && tr.Feasible {
			assert.GreaterOrEqual(t, tr.Value, r.Search.Best.Value)
		}
	}
	assert.InEpsilon(t, r.Search.Best.Value, r.Diagnosis.BestObjective, 1e-12)
	assert.InEpsilon(t, r.Search.DefaultValue, r.Diagnosis.DefaultObjective, 1e-12)
	assert.NotEmpty(t, r.Search.Pareto)
	assert.Equal(t, uint64(fixtureBudget), r.Search.MaxFootprintBytes)
	var infeasible int
	for _, tr := range r.Search.Trials {
		if !tr.Feasible {
			infeasible++
		}
	}
	assert.Positive(t, infeasible, "some trials are over the budget (the figures draw them)")

	// Sweeps: ranked by effect, ascending values holding the best's and the default's values,
	// and the best's own point gives the best's objective.
	for i, sw := range r.Sensitivity {
		if i > 0 {
			assert.GreaterOrEqual(t, r.Sensitivity[i-1].Effect, sw.Effect)
		}
		assert.IsIncreasing(t, sw.Values)
		assert.Contains(t, sw.Values, sw.BestValue, sw.Param)
		assert.InEpsilon(t, r.Diagnosis.BestObjective, sw.BestObjective, 1e-12, sw.Param)
		assert.GreaterOrEqual(t, sw.CliffRatio, 1.0)
		assert.False(t, math.IsNaN(sw.Effect))
	}

	// Comparisons: the event logs add up to the stats, and the live curve ends at the
	// run's end.
	for _, c := range r.Comparisons {
		for _, run := range []diagnose.Run{c.Default, c.Best} {
			var scav, full int
			var secs float64
			for _, e := range run.Events {
				switch e.Kind {
				case heapsim.EventScavenge:
					scav++
				case heapsim.EventFullGC:
					full++
				}
				secs += e.Seconds
			}
			assert.Equal(t, run.Stats.Scavenges, scav, run.Label)
			assert.Equal(t, run.Stats.FullGCs, full, run.Label)
			assert.InEpsilon(t, run.Stats.GCSeconds, secs, 1e-9, run.Label)
		}
		require.Len(t, c.Live, DefaultLivePoints+1)
		assert.Equal(t, c.EndBytes, c.Live[len(c.Live)-1].ClockBytes)
	}
}

func TestBuildIsDeterministic(t *testing.T) {
	// The same input twice, with different numbers of workers, gives the same report.
	prob := testProblem(t, 0, "image-processing")
	space := tunable.DefaultSpace()
	in := Input{Study: "d", Version: "test", Problem: prob, Space: space, Trials: testTrials(t, prob, space, 6), Trial: -1}
	a, err := Build(context.Background(), in, Options{SweepPoints: 4, Workers: 1})
	require.NoError(t, err)
	b, err := Build(context.Background(), in, Options{SweepPoints: 4, Workers: 3})
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

func TestBuildErrors(t *testing.T) {
	prob := testProblem(t, 0, "request-server")
	space := tunable.DefaultSpace()
	_, err := Build(context.Background(), Input{Problem: prob, Space: space, Trial: -1}, Options{})
	assert.ErrorIs(t, err, ErrNoBestTrial)
	_, err = Build(context.Background(), Input{Problem: prob, Space: space, Trial: -1}, Options{SweepPoints: 2})
	assert.ErrorContains(t, err, "SweepPoints 2")
	trials := testTrials(t, prob, space, 2)
	_, err = Build(context.Background(), Input{Problem: prob, Space: space, Trials: trials, Trial: 7}, Options{})
	assert.ErrorContains(t, err, "no trial 7")
	_, err = Build(context.Background(), Input{Problem: prob, Space: space, Trials: trials, Trial: 2}, Options{})
	assert.ErrorContains(t, err, "trial 2 is failed, not complete")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Build(ctx, Input{Problem: prob, Space: space, Trials: trials, Trial: -1}, Options{})
	assert.ErrorIs(t, err, context.Canceled)
}
