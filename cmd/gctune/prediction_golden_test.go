package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
	"github.com/gctune/gctune/verify"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenRecommendation is a robust recommendation as recommend.Recommend makes it for the
// dataframe study (export's testRobust): three changes kept, two put back, 16 perturbed runs,
// a move off a cliff and the margins. robust false leaves the Robustness out.
func goldenRecommendation(robust bool) *recommend.Recommendation {
	def := tunable.DefaultPoint(heapsim.DefaultParams()).Rounded()
	pt := tunable.Point{NewSpaceBytes: 741 << 20, HeadroomBytes: 2089 << 20, ShrinkBytes: def.ShrinkBytes, Ratio: 29.88, Proportion: def.Proportion}
	r := &recommend.Recommendation{Tolerance: 0.01, DefaultValue: 4583.136,
		Best:   recommend.Candidate{Number: 113, Value: 576.109, PeakFootprintBytes: 11819536384},
		Chosen: recommend.Candidate{Number: 112, Value: 579.021, PeakFootprintBytes: 10693365760},
		Within: 57, Trial: 112, Point: pt, AtDefault: []string{tunable.ParamShrink, tunable.ParamProportion},
		Value: 579.021, Speedup: 4583.136 / 579.021, PeakFootprintBytes: 10693365760, GCShare: 0.0674, TotalSeconds: 579.021,
		Kept: []recommend.Step{
			{Param: tunable.ParamHeadroom, Label: "growth headroom", Value: 2089 << 20, Default: 16 << 20, Objective: 4615, Feasible: true, Cost: 6.97, Why: "not less than the tolerance, 1 %"},
			{Param: tunable.ParamRatio, Label: "full GC ratio", Value: 29.88, Default: 0.333333, Objective: 645, Feasible: true, Cost: 0.115, Why: "not less than the tolerance, 1 %"},
			{Param: tunable.ParamNewSpace, Label: "new space (eden) size", Value: 741 << 20, Default: 16 << 20, Objective: 638, Feasible: true, Cost: 0.102, Why: "not less than the tolerance, 1 %"},
		}}
	if !robust {
		return r
	}
	values := []float64{561, 570, 575, 579, 580, 584, 586, 590, 592, 595, 600, 604, 610, 615, 622, 640}
	defaults := make([]float64, len(values))
	speedups := make([]float64, len(values))
	for k, v := range values {
		defaults[k] = 4583.136 * (0.96 + 0.005*float64(k))
		speedups[k] = defaults[k] / v
	}
	r.Robust = &recommend.Robustness{Replicas: 16, DecisionReplicas: 8, Statistic: "mean", Rejudged: 14,
		Values: values, Speedups: speedups, DefaultValues: defaults,
		ValueInterval:   uncertainty.PredictionInterval(values, uncertainty.DefaultCoverage),
		SpeedupInterval: uncertainty.PredictionInterval(speedups, uncertainty.DefaultCoverage),
		NominalValue:    576.1, NominalSpeedup: 7.955, Neighbourhood: 0.05, Flat: true,
		Moves: []recommend.Move{{Param: tunable.ParamHeadroom, Label: "growth headroom", From: 1990 << 20, To: 2089 << 20,
			Why: "growth headroom -5 % costs +8.9 %"}},
		Margins: []recommend.Margin{
			{Param: tunable.ParamNewSpace, Label: "new space (eden) size", Value: 741 << 20, Down: 0.18, Up: 0.4, UpOpen: true},
			{Param: tunable.ParamHeadroom, Label: "growth headroom", Value: 2089 << 20, Down: 0.074, Up: 0.4, UpOpen: true},
			{Param: tunable.ParamRatio, Label: "full GC ratio", Value: 29.88, Down: 0.4, Up: 0.4, DownOpen: true, UpOpen: true},
		}}
	return r
}

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateGolden {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -run %s -update to write it", t.Name())
	assert.Equal(t, string(want), string(got))
}

// TestPredictionGolden: explain's header, studies show and verify state the interval, with and
// without an uncertainty model.
func TestPredictionGolden(t *testing.T) {
	for _, robust := range []bool{true, false} {
		suffix := map[bool]string{true: "robust", false: "single"}[robust]
		rec := goldenRecommendation(robust)

		var ex bytes.Buffer
		require.NoError(t, writeExplainHeader(&ex, "dataframe-3.1gb", "dataframe-3.1gb", rec, true))
		checkGolden(t, "prediction-explain-"+suffix+".golden", ex.Bytes())

		sp := &study.Problem{Workloads: []study.WorkloadRef{{Ref: "dataframe-3.1gb", Kind: "bundled", Fingerprint: "sha256:0123456789abcdef"}},
			Aggregate: "max", Seed: 3, Sampler: "tpe", Trials: 200, Version: "test"}
		if robust {
			sp.Uncertainty, sp.Statistic = uncertainty.Default(), "mean"
		}
		doc := showDoc{Study: "dataframe-3.1gb", Storage: "gctune.db", Problem: sp, Trials: 200, Finished: 200,
			Best: &bestDoc{Number: 113, Value: 576.109, Speedup: 7.955, Point: rec.Point}, Recommendation: rec,
			Prediction: newPredictionDoc(rec, true)}
		var show bytes.Buffer
		require.NoError(t, printShow(&show, &doc))
		checkGolden(t, "prediction-show-"+suffix+".golden", show.Bytes())

		best := verify.ConfigSummary{Name: "best", Trial: 112, Runs: 5, MeanSeconds: 640, MedianSeconds: 638, SDSeconds: 12, CV: 12.0 / 640,
			PredictedSpeedup: rec.Speedup, Speedup: &verify.Speedup{Estimate: 6.61, Low: 6.42, High: 6.81, Pairs: 5}}
		configs := []verify.Config{{Name: verify.DefaultName, PredictedSpeedup: 1}, {Name: "best", PredictedSpeedup: rec.Speedup}}
		if robust {
			iv := rec.Robust.SpeedupInterval
			configs[1].PredictedInterval = &iv
		}
		vd := verifyDoc{Study: "dataframe-3.1gb", Session: "s1", Command: []string{"./bench.sh"}, Runs: 5, Warmup: true,
			Configs: []verify.ConfigSummary{{Name: verify.DefaultName, Trial: -1, Runs: 5, MeanSeconds: 4230, MedianSeconds: 4228, SDSeconds: 30, CV: 30.0 / 4230, PredictedSpeedup: 1}, best}}
		verify.ComparePredicted(vd.Configs, configs)
		var ver bytes.Buffer
		require.NoError(t, printVerify(&ver, &vd))
		checkGolden(t, "prediction-verify-"+suffix+".golden", ver.Bytes())
	}
}

// studies show without a stored recommendation (a study only workers ran), or with a damaged one.
func TestShowWithoutStoredRecommendation(t *testing.T) {
	sp := &study.Problem{Workloads: []study.WorkloadRef{{Ref: "gcdemo", Kind: "bundled"}}, Aggregate: "max", Seed: 1, Sampler: "tpe", Trials: 10, Version: "test"}
	doc := showDoc{Study: "w", Storage: "gctune.db", Problem: sp, Trials: 10, Finished: 10, Best: &bestDoc{Number: 3, Speedup: 1.3}}
	var b bytes.Buffer
	require.NoError(t, printShow(&b, &doc))
	assert.Contains(t, b.String(), "uncertainty: off (every configuration judged on the single simulation of the profile; no interval)\n")
	assert.Contains(t, b.String(), "no recommendation stored with the study (optimize and resume store it; gctune export or explain w makes it without storing it)\n")
	doc.RecommendationError = "studies: study 1: bad gctune:recommendation chunk count \"x\""
	b.Reset()
	require.NoError(t, printShow(&b, &doc))
	assert.Contains(t, b.String(), "the stored recommendation cannot be read (studies: study 1: bad gctune:recommendation chunk count \"x\"): gctune export or explain w makes it again\n")
}
