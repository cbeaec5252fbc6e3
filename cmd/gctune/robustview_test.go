package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/uncertainty"
	"github.com/gctune/gctune/verify"
)

func uncertaintyInterval(lo, hi float64) uncertainty.Interval {
	return uncertainty.Interval{Lo: lo, Hi: hi, Coverage: 0.99, N: 4}
}

// TestLongPredictionEverywhere runs a small study on gcdemo with an uncertainty model (4 perturbed
// runs, 2 per search trial) and one without, and checks that explain, studies show and verify
// state the prediction: the expected speedup with its interval and the single simulation beside
// it, the margins, the uncertainty model, and the measured speedup against the predicted
// interval.
func TestLongPredictionEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("makes a recommendation and states it through every output (slow under the race detector): runs without -short")
	}
	for _, tc := range []struct {
		name   string
		flags  []string
		robust bool
		// want are in explain's and show's text; wantShow in show's only.
		want     []string
		wantShow []string
	}{
		{"robust", []string{"--replicas", "4", "--search-replicas", "2"}, true,
			[]string{"× faster: ", " with the defaults, expected over 4 runs of this input again (95 % of runs: ", "on 4 runs of inputs like this one (", "the profiled run exactly as recorded (one simulation): "},
			[]string{"uncertainty: 4 perturbed runs (2 per search trial): start at a random point of the eden cycle, allocation ±3 %", "; statistic mean; the forecast stated over 4 runs of this input again (a random start in the eden cycle",
				"recommended (as stored by optimize or resume): trial "}},
		{"single simulation", []string{"--no-robust"}, false,
			[]string{"simulated on the profile (one run: no interval; the study has no uncertainty model)"},
			[]string{"uncertainty: off (every configuration judged on the single simulation of the profile; no interval)",
				"recommended (as stored by optimize or resume): trial "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "p.db")
			var opt sessionDoc
			gctuneJSON(t, &opt, append([]string{"optimize", gcdemo, "--trials", "8", "--workers", "1", "--storage", db, "--study", "demo"}, tc.flags...)...)
			require.NotNil(t, opt.Recommendation)
			rec := opt.Recommendation
			require.Equal(t, tc.robust, rec.Robust != nil)

			// explain
			out, _ := gctuneOK(t, "explain", "demo", "--storage", db)
			for _, w := range tc.want {
				assert.Contains(t, out, w)
			}
			var ex struct {
				Recommendation *recommend.Recommendation `json:"recommendation"`
				Prediction     *recommend.Prediction     `json:"prediction"`
			}
			gctuneJSON(t, &ex, "explain", "demo", "--storage", db)
			require.NotNil(t, ex.Recommendation)
			assert.Equal(t, rec.Trial, ex.Recommendation.Trial, "explain reads the stored recommendation")

			// studies show
			show, _ := gctuneOK(t, "studies", "show", "demo", "--storage", db)
			for _, w := range append(tc.want, tc.wantShow...) {
				assert.Contains(t, show, w)
			}
			var sd study.ShowDoc
			gctuneJSON(t, &sd, "studies", "show", "demo", "--storage", db)
			require.NotNil(t, sd.Recommendation)
			assert.Equal(t, rec.Trial, sd.Recommendation.Trial)
			assert.Equal(t, tc.robust, !sd.Problem.Uncertainty.Off())

			if !tc.robust {
				assert.NotContains(t, out, "The diagnosis below simulates")
				assert.Nil(t, ex.Prediction)
				assert.Nil(t, sd.Prediction)
				return
			}
			assert.Contains(t, out, "The diagnosis below simulates the profiled run exactly as recorded")
			for _, m := range rec.Robust.Margins {
				assert.Contains(t, out, "margin: "+m.Label)
				assert.Contains(t, show, "margin: "+m.Label)
			}
			for _, p := range []*recommend.Prediction{ex.Prediction, sd.Prediction} {
				require.NotNil(t, p)
				assert.Equal(t, 4, p.Replicas)
				assert.Equal(t, "mean", p.Statistic)
				assert.Equal(t, "s", p.ValueUnit)
				assert.InDelta(t, rec.Speedup, p.Speedup, 1e-12)
				assert.InDelta(t, rec.Robust.NominalSpeedup, p.NominalSpeedup, 1e-12)
				require.NotNil(t, p.SpeedupInterval)
				require.NotNil(t, p.ValueInterval)
				require.NotNil(t, p.DefaultInterval)
				assert.Equal(t, uncertainty.DefaultCoverage, p.ValueInterval.Coverage)
				assert.Equal(t, uncertainty.DefaultCoverage, p.SpeedupInterval.Coverage, "one coverage for every interval")
				assert.Equal(t, uncertainty.DefaultCoverage, p.DefaultInterval.Coverage)
				assert.Equal(t, 4, p.SpeedupInterval.N)
				assert.LessOrEqual(t, p.SpeedupInterval.Lo, p.Speedup)
				assert.GreaterOrEqual(t, p.SpeedupInterval.Hi, p.Speedup)
				assert.LessOrEqual(t, p.ValueInterval.Lo, p.Value)
				assert.GreaterOrEqual(t, p.ValueInterval.Hi, p.Value)
				assert.Equal(t, rec.Robust.Margins, p.Margins)
			}

			// verify: the measured speedup against the predicted interval.
			if _, err := exec.LookPath("sh"); err != nil {
				t.Skip("no sh")
			}
			var vd verify.Report
			gctuneJSON(t, &vd, "verify", "demo", "--storage", db, "--runs", "2", "--", "sh", standin, "{eden}", "{st}")
			require.Len(t, vd.Configs, 2)
			best := vd.Configs[1]
			assert.Nil(t, vd.Configs[0].PredictedInterval, "the defaults state no interval")
			require.NotNil(t, best.PredictedInterval)
			assert.Equal(t, *ex.Prediction.SpeedupInterval, *best.PredictedInterval)
			require.NotNil(t, best.Comparison)
			require.NotNil(t, best.Speedup)
			assert.Equal(t, best.PredictedInterval.Contains(best.Speedup.Estimate), best.Comparison.Inside)
			assert.Contains(t, []string{"inside", "below", "above"}, best.Comparison.Side)
			vout, _ := gctuneOK(t, "verify", "demo", "--storage", db, "--runs", "2", "-q", "--", "sh", standin, "{eden}", "{st}")
			assert.Contains(t, vout, "predicted (95 % of runs)")
			assert.Regexp(t, `best \(trial \d+\) .* \d+\.\d\d× \[\d+\.\d\d-\d+\.\d\d×\] +\d+\.\d\d× \[\d+\.\d\d-\d+\.\d\d×\]`, vout)
			assert.Regexp(t, `best: the measured speedup, \d+\.\d\d×, (lies in|is below|is above) the predicted \d+\.\d\d-\d+\.\d\d× \(95 % of runs; \d\.\d\d× expected\)`, vout)
		})
	}
}

// VerdictLine says where the measured speedup lies against the predicted interval.
func TestComparisonText(t *testing.T) {
	iv := uncertaintyInterval(1.1, 1.4)
	for _, tc := range []struct {
		sp   verify.Speedup
		want string
	}{
		{verify.Speedup{Estimate: 1.2, Low: 1.1, High: 1.3, Pairs: 3},
			"best: the measured speedup, 1.20×, lies in the predicted 1.10-1.40× (99 % of runs; 1.25× expected)"},
		{verify.Speedup{Estimate: 1.0, Low: 0.9, High: 1.15, Pairs: 3},
			"best: the measured speedup, 1.00×, is below the predicted 1.10-1.40× (99 % of runs; 1.25× expected): the real application gains less than the model of its runs says; its 95 % interval [0.90-1.15×] meets it"},
		{verify.Speedup{Estimate: 2.0, Low: 1.9, High: 2.1, Pairs: 3},
			"best: the measured speedup, 2.00×, is above the predicted 1.10-1.40× (99 % of runs; 1.25× expected): the real application gains more than the model of its runs says; even its 95 % interval [1.90-2.10×] lies outside"},
		{verify.Speedup{Estimate: 1.2, Pairs: 1},
			"best: the measured speedup, 1.20×, lies in the predicted 1.10-1.40× (99 % of runs; 1.25× expected) (one round: no measured interval)"},
	} {
		c := verify.ConfigSummary{Name: "best", PredictedSpeedup: 1.25, Speedup: &tc.sp}
		verify.ComparePredicted([]verify.ConfigSummary{c}, nil) // no interval: nothing said
		assert.Empty(t, c.VerdictLine())
		sums := []verify.ConfigSummary{c}
		verify.ComparePredicted(sums, []verify.Config{{Name: "best", PredictedInterval: &iv}})
		assert.Equal(t, tc.want, sums[0].VerdictLine())
	}
}
