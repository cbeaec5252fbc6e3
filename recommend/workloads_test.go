package recommend

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/testfixture"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/uncertainty"
)

// TestLongWorkloadFiguresNominal: with several workloads and no replicas, each workload's figures
// are the simulation of the recommendation against its own defaults, and the one marked is
// the larger slowdown, the one the max aggregate minimises.
func TestLongWorkloadFiguresNominal(t *testing.T) {
	if testing.Short() {
		t.Skip("recommends over two bundled workloads (slow under the race detector): runs without -short")
	}
	prob := testfixture.BundledProblem(t, objective.Settings{}, "cache-churn", "image-processing")
	r, err := Recommend(context.Background(), prob, stored(t, prob, randomPoints(10, 3)), Settings{Tolerance: 0.01})
	require.NoError(t, err)
	require.Len(t, r.Workloads, 2)
	res, err := prob.EvaluateNominal(r.Params(prob.Base()))
	require.NoError(t, err)
	worst := 0
	for i, f := range r.Workloads {
		assert.Equal(t, prob.Workloads()[i].Name, f.Name)
		assert.InDelta(t, res.Stats[i].TotalSeconds, f.Seconds, 1e-9*f.Seconds)
		assert.InDelta(t, prob.Baseline(i).TotalSeconds, f.DefaultSeconds, 1e-9*f.DefaultSeconds)
		assert.InDelta(t, f.DefaultSeconds/f.Seconds, f.Speedup, 1e-12*f.Speedup)
		assert.InDelta(t, res.Slowdowns[i], f.Slowdown, 1e-12)
		if res.Slowdowns[i] > res.Slowdowns[worst] {
			worst = i
		}
	}
	assert.True(t, r.Workloads[worst].Worst)
	assert.False(t, r.Workloads[1-worst].Worst)
	assert.InDelta(t, r.Value, r.Workloads[worst].Slowdown, 1e-12, "the objective is the worst slowdown")

	// The mean aggregate guards against no one workload.
	mean := testfixture.BundledProblem(t, objective.Settings{Aggregate: objective.AggregateMean}, "cache-churn", "image-processing")
	rm, err := Recommend(context.Background(), mean, stored(t, mean, randomPoints(6, 3)), Settings{Tolerance: 0.01})
	require.NoError(t, err)
	for _, f := range rm.Workloads {
		assert.False(t, f.Worst)
	}

	// One workload: the recommendation's own figures are seconds; no list.
	one := testProblem(t, "cache-churn")
	r1, err := Recommend(context.Background(), one, stored(t, one, randomPoints(6, 3)), Settings{Tolerance: 0.01})
	require.NoError(t, err)
	assert.Nil(t, r1.Workloads)
}

// TestLongWorkloadFiguresRobust: with replicas, each workload's figures are means over the
// replicas the recommendation is stated on, each replica against its own defaults.
func TestLongWorkloadFiguresRobust(t *testing.T) {
	if testing.Short() {
		t.Skip("recommends over two bundled workloads' replicas (slow under the race detector): runs without -short")
	}
	m := uncertainty.Default()
	m.Replicas, m.SearchReplicas = 4, 1
	prob := testfixture.BundledProblem(t, objective.Settings{Uncertainty: m, Seed: 3}, "cache-churn", "image-processing")
	r, err := Recommend(context.Background(), prob, stored(t, prob, randomPoints(8, 4)), Settings{Tolerance: 0.01, DecisionReplicas: 2, Rejudge: 2})
	require.NoError(t, err)
	require.Len(t, r.Workloads, 2)
	params := r.Params(prob.Base())
	head := prob.Again() // the figures are stated on the headline's runs
	require.NotNil(t, head)
	for i, f := range r.Workloads {
		var secs, defs, slow float64
		for k := range head.ReplicaCount() {
			res, err := head.EvaluateReplica(params, k)
			require.NoError(t, err)
			secs += res.Stats[i].TotalSeconds
			defs += res.Stats[i].TotalSeconds / res.Slowdowns[i]
			slow += res.Slowdowns[i]
		}
		n := float64(head.ReplicaCount())
		assert.InDelta(t, secs/n, f.Seconds, 1e-9*f.Seconds, f.Name)
		assert.InDelta(t, defs/n, f.DefaultSeconds, 1e-9*f.DefaultSeconds, f.Name)
		assert.InDelta(t, slow/n, f.Slowdown, 1e-9, f.Name)
	}
	var b bytes.Buffer
	require.NoError(t, r.WriteText(&b, false))
	text := b.String()
	for _, f := range r.Workloads {
		assert.Contains(t, text, "  "+f.Name+": expected "+numfmt.SecondsText(f.Seconds)+" against "+numfmt.SecondsText(f.DefaultSeconds)+" with the defaults")
	}
	assert.Equal(t, 1, strings.Count(text, "the recommendation guards against this one"), text)
	assert.NotContains(t, text, "against 1×", "slowdowns are not set against the defaults' 1")
}

// TestTextWording: costs are never negative, a proportion of 1 or more is not written in
// nested parentheses, and when the defaults are kept, the changes are said of the
// configuration that would be applied, not as kept.
func TestTextWording(t *testing.T) {
	assert.Equal(t, "costs 13.9 %", CostText(0.139))
	assert.Equal(t, "saves 0.25 %", CostText(-0.0025))
	assert.Equal(t, "costs nothing", CostText(-0.00001))
	assert.Equal(t, "costs nothing", CostText(0))
	assert.Equal(t, "costs 0.01 %", CostText(0.0001))

	prob := testProblem(t, "cache-churn")
	r, err := Recommend(context.Background(), prob, stored(t, prob, randomPoints(24, 3)), Settings{Tolerance: 0.01})
	require.NoError(t, err)
	for _, keep := range []bool{false, true} {
		r.KeepDefaults = keep
		var b bytes.Buffer
		require.NoError(t, r.WriteText(&b, true))
		text := b.String()
		assert.NotContains(t, text, "costs -", text)
		assert.NotContains(t, text, "costs +", text)
		assert.NotRegexp(t, `\([^()]*\([^()]*\)[^()]*\)`, text, "nested parentheses")
		if keep {
			assert.NotContains(t, text, "  kept:", text)
			assert.NotContains(t, text, "  put back to", text)
			assert.Contains(t, text, "were a change wanted anyway (not recommended)")
			if len(r.Kept) > 0 {
				assert.Contains(t, text, "    it would keep: ")
			}
		} else {
			assert.Contains(t, text, "  kept: ")
		}
	}
}
