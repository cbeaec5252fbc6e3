package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/gctune/gctune/internal/recommendtest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/uncertainty"
	"github.com/gctune/gctune/verify"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenRecommendation is a robust recommendation as recommend.Recommend makes it for the
// dataframe study (export's testRobust): three changes kept, two put back, 16 perturbed runs,
// a move off a cliff and the margins. robust false leaves the Robustness out.
func goldenRecommendation(robust bool) *recommend.Recommendation {
	if robust {
		return recommendtest.Robust()
	}
	return recommendtest.Recommendation()
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
		doc := study.ShowDoc{Study: "dataframe-3.1gb", Storage: "gctune.db", Problem: sp, Trials: 200, Finished: 200,
			Best: &study.Best{Number: 113, Value: 576.109, Speedup: 7.955, Point: rec.Point}, Recommendation: rec,
			Prediction: rec.Prediction(true)}
		var show bytes.Buffer
		require.NoError(t, doc.WriteText(&show))
		checkGolden(t, "prediction-show-"+suffix+".golden", show.Bytes())

		best := verify.ConfigSummary{Name: "best", Trial: 112, Runs: 5, MeanSeconds: 640, MedianSeconds: 638, SDSeconds: 12, CV: 12.0 / 640,
			PredictedSpeedup: rec.Speedup, Speedup: &verify.Speedup{Estimate: 6.61, Low: 6.42, High: 6.81, Pairs: 5}}
		configs := []verify.Config{{Name: verify.DefaultName, PredictedSpeedup: 1}, {Name: "best", PredictedSpeedup: rec.Speedup}}
		if robust {
			iv := rec.Robust.SpeedupInterval
			configs[1].PredictedInterval = &iv
		}
		vd := verify.Report{Study: "dataframe-3.1gb", Session: "s1", Command: []string{"./bench.sh"}, Runs: 5, Warmup: true,
			Configs: []verify.ConfigSummary{{Name: verify.DefaultName, Trial: -1, Runs: 5, MeanSeconds: 4230, MedianSeconds: 4228, SDSeconds: 30, CV: 30.0 / 4230, PredictedSpeedup: 1}, best}}
		verify.ComparePredicted(vd.Configs, configs)
		var ver bytes.Buffer
		require.NoError(t, vd.WriteText(&ver))
		checkGolden(t, "prediction-verify-"+suffix+".golden", ver.Bytes())
	}
}

// studies show without a stored recommendation (a study only workers ran), or with a damaged one.
func TestShowWithoutStoredRecommendation(t *testing.T) {
	sp := &study.Problem{Workloads: []study.WorkloadRef{{Ref: "gcdemo", Kind: "bundled"}}, Aggregate: "max", Seed: 1, Sampler: "tpe", Trials: 10, Version: "test"}
	doc := study.ShowDoc{Study: "w", Storage: "gctune.db", Problem: sp, Trials: 10, Finished: 10, Best: &study.Best{Number: 3, Speedup: 1.3}}
	var b bytes.Buffer
	require.NoError(t, doc.WriteText(&b))
	assert.Contains(t, b.String(), "uncertainty: off (every configuration judged on the single simulation of the profile; no interval)\n")
	assert.Contains(t, b.String(), "no recommendation stored with the study (optimize and resume store it; gctune export or explain w makes it without storing it)\n")
	doc.RecommendationError = "studies: study 1: bad gctune:recommendation chunk count \"x\""
	b.Reset()
	require.NoError(t, doc.WriteText(&b))
	assert.Contains(t, b.String(), "the stored recommendation cannot be read (studies: study 1: bad gctune:recommendation chunk count \"x\"): gctune export or explain w makes it again\n")
}
