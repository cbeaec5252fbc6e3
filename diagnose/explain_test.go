package diagnose

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/tunable"
)

// TestExplainGolden checks the text of gctune explain for the bundled workloads against
// testdata/explain/other.txt, and TestLongExplainGoldenDataFrame against dataframe.txt (the
// three DataFrame workloads: slow under the race detector, so run without it, README). Each
// case names a workload and the best point (as gctune optimize found it); regenerate with
//
//	go test ./diagnose -run 'ExplainGolden' -rewrite
//
// and review the diff.
func TestExplainGolden(t *testing.T) { explainGolden(t, "testdata/explain/other.txt") }

// TestLongExplainGoldenDataFrame: TestExplainGolden for the DataFrame workloads.
func TestLongExplainGoldenDataFrame(t *testing.T) {
	if testing.Short() {
		t.Skip("diagnoses the three DataFrame workloads (slow under the race detector): runs without -short")
	}
	explainGolden(t, "testdata/explain/dataframe.txt")
}

// explainGolden runs the explain cases of the datadriven file path.
func explainGolden(t *testing.T, path string) {
	t.Helper()
	datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
		require.Equal(t, "explain", td.Cmd)
		var workloads []string
		var pt tunable.Point
		for _, a := range td.CmdArgs {
			v := a.Vals[0]
			var err error
			switch a.Key {
			case "workload":
				workloads = a.Vals
			case "new-space":
				pt.NewSpaceBytes, err = parseBytes(v)
			case "headroom":
				pt.HeadroomBytes, err = parseBytes(v)
			case "shrink":
				pt.ShrinkBytes, err = parseBytes(v)
			case "ratio":
				pt.Ratio, err = strconv.ParseFloat(v, 64)
			case "p":
				pt.Proportion, err = strconv.ParseFloat(v, 64)
			default:
				t.Fatalf("%s: unknown argument %q", td.Pos, a.Key)
			}
			require.NoError(t, err, td.Pos)
		}
		prob := testProblem(t, 0, workloads...)
		d, err := Diagnose(context.Background(), prob, pt, 0)
		require.NoError(t, err)
		checkFindings(t, d)
		var b strings.Builder
		require.NoError(t, d.WriteText(&b))
		return b.String()
	})
}

func parseBytes(s string) (float64, error) {
	n, err := units.ParseBytes(s)
	return float64(n), err
}

var digit = regexp.MustCompile(`[0-9]`)

// checkFindings checks what every diagnosis must hold: no finding without evidence, each
// evidence sentence with a number in it, a remedy, and a FixedBy that is a changed parameter
// whose revert brings the cost back.
func checkFindings(t *testing.T, d *Diagnosis) {
	t.Helper()
	changed := map[string]bool{}
	for _, c := range d.Changes {
		changed[c.Param] = true
		assert.NotEqual(t, c.DefaultValue, c.BestValue, c.Param)
	}
	for _, wd := range d.Workloads {
		var sum float64
		for _, it := range wd.Breakdown {
			sum += it.DefaultSeconds
		}
		assert.InEpsilon(t, wd.DefaultGCSeconds, sum, 1e-9, "breakdown adds up")
		for _, f := range wd.Findings {
			assert.NotEmpty(t, f.Evidence, f.Kind)
			for _, e := range f.Evidence {
				assert.Regexp(t, digit, e, f.Kind)
			}
			assert.NotEmpty(t, f.Remedy, f.Kind)
			assert.Greater(t, f.CostSeconds, 0.0)
			assert.GreaterOrEqual(t, f.CostSeconds, minFindingShare*wd.DefaultGCSeconds)
			if f.FixedBy != "" {
				assert.True(t, changed[f.FixedBy], "%s fixed by unchanged %s", f.Kind, f.FixedBy)
				assert.Less(t, f.BestCostSeconds, removedShare*f.CostSeconds)
				assert.GreaterOrEqual(t, f.RevertedCostSeconds-f.BestCostSeconds, removedShare*(f.CostSeconds-f.BestCostSeconds))
			}
		}
	}
}

// TestDiagnoseDefaultIsBest: when the best is the default configuration nothing changed, so
// every finding says the best does not remove it.
func TestDiagnoseDefaultIsBest(t *testing.T) {
	prob := testProblem(t, 0, "dataframe-500mb")
	d, err := Diagnose(context.Background(), prob, tunable.DefaultPoint(prob.Base()), 0)
	require.NoError(t, err)
	assert.Empty(t, d.Changes)
	require.Len(t, d.Workloads, 1)
	require.NotEmpty(t, d.Workloads[0].Findings)
	for _, f := range d.Workloads[0].Findings {
		assert.Empty(t, f.FixedBy)
		assert.Contains(t, f.Remedy, "does not remove it")
		assert.Equal(t, f.CostSeconds, f.BestCostSeconds)
	}
	assert.InEpsilon(t, d.DefaultObjective, d.BestObjective, 1e-12)
}

// TestDiagnoseFindsEachPathology: cache-churn's default run shows all four pathologies, each
// removed by a change that a one-parameter revert confirms (or by the combination).
func TestDiagnoseFindsEachPathology(t *testing.T) {
	prob := testProblem(t, 0, "cache-churn")
	best := tunable.Point{NewSpaceBytes: 1008 << 20, HeadroomBytes: 1915 << 20, ShrinkBytes: 101 << 20, Ratio: 28.17, Proportion: 1.037}
	d, err := Diagnose(context.Background(), prob, best, 0)
	require.NoError(t, err)
	checkFindings(t, d)
	kinds := map[string]Finding{}
	for _, f := range d.Workloads[0].Findings {
		kinds[f.Kind] = f
	}
	// Premature tenuring is present in cache-churn's default run too, but since remembered-set
	// slots are priced per pointer slot (docs/spur-model.md §3.6) it costs 1.7 % of the GC
	// time, under minFindingShare, and is not reported.
	for _, k := range []string{KindLargeAllocBursts, KindRatioLive, KindRememberedSet} {
		assert.Contains(t, kinds, k)
	}
	assert.NotContains(t, kinds, KindPrematureTenuring)
	assert.Equal(t, tunable.ParamHeadroom, kinds[KindLargeAllocBursts].FixedBy)
	assert.Equal(t, tunable.ParamNewSpace, kinds[KindRememberedSet].FixedBy)
}

// TestDiagnoseInfeasibleTrial: a configuration over the budget is diagnosed with the time the
// simulation measured (never the search's penalty) and said to be infeasible.
func TestDiagnoseInfeasibleTrial(t *testing.T) {
	free := testProblem(t, 0, "cache-churn")
	big := tunable.Point{NewSpaceBytes: 1008 << 20, HeadroomBytes: 1915 << 20, ShrinkBytes: 101 << 20, Ratio: 28.17, Proportion: 1.037}
	res, err := free.Evaluate(big.Params(free.Base()))
	require.NoError(t, err)
	budget := res.Metrics.PeakFootprintBytes / 2 // the big configuration is over it
	prob := testProblem(t, budget, "cache-churn")
	d, err := Diagnose(context.Background(), prob, big, 0)
	require.NoError(t, err)
	assert.False(t, d.BestFeasible)
	assert.Contains(t, d.BestInfeasibility, "over the budget")
	assert.InEpsilon(t, res.Stats[0].TotalSeconds, d.BestObjective, 1e-12, "the measured time, not the penalty")
	for _, c := range d.Changes {
		assert.Less(t, c.RevertedObjective, 2*d.DefaultObjective, "%s: no penalty in the reverted objective", c.Param)
	}
	var b strings.Builder
	require.NoError(t, d.WriteText(&b))
	assert.Contains(t, b.String(), "This configuration is infeasible: workload cache-churn: peak footprint")
}

// TestRemedySkipsRunsOutOfMemory: a revert that ran out of memory stopped early, so its costs
// are not evidence either way and cannot be named as the parameter that removes a pathology.
func TestRemedySkipsRunsOutOfMemory(t *testing.T) {
	run := func(largeSeconds float64, oom bool) runResult {
		return runResult{acc: &accumulator{large: 1, largeSeconds: largeSeconds}, oom: oom}
	}
	def := tunable.Point{HeadroomBytes: 16 << 20, NewSpaceBytes: 16 << 20}
	best := tunable.Point{HeadroomBytes: 1 << 30, NewSpaceBytes: 1 << 30}
	changed := []int{0, 1} // new space, headroom
	f := Finding{CostSeconds: 10, BestCostSeconds: 0}
	// Putting back the new space "brings back" 20 s, but that run ran out of memory; putting
	// back the headroom brings back 8 s.
	rs := []runResult{run(10, false), run(0, false), run(20, true), run(8, false)}
	text := remedy(&f, KindLargeAllocBursts, rs, changed, best, def)
	assert.Equal(t, tunable.ParamHeadroom, f.FixedBy, text)
	// With only the run out of memory, no single parameter is named.
	f = Finding{CostSeconds: 10, BestCostSeconds: 0}
	rs = []runResult{run(10, false), run(0, false), run(20, true), run(1, false)}
	text = remedy(&f, KindLargeAllocBursts, rs, changed, best, def)
	assert.Empty(t, f.FixedBy)
	assert.Contains(t, text, "no single parameter")
}
