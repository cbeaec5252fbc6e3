package report

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/testfixture"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
	"github.com/gctune/gctune/verify"
)

var (
	robustOnce    sync.Once
	robustFixture *Report
	robustErr     error
)

// newRobustTestReport builds (once per test binary) a report on cache-churn judged on 4
// perturbed runs (2 per search trial), from 12 random trials, with 3 sweep points per
// parameter: a recommendation with a Robustness, margins and a landscape.
func newRobustTestReport(t testing.TB) *Report {
	t.Helper()
	robustOnce.Do(func() {
		m := uncertainty.Default()
		m.Replicas, m.SearchReplicas = 4, 2
		prob := testfixture.BundledProblem(t, objective.Settings{Uncertainty: m, Seed: 1}, "cache-churn")
		space := tunable.DefaultSpace()
		in := Input{Study: "robust", Version: "test", Problem: prob, Space: space,
			Trials: testTrials(t, prob, space, 12), Trial: -1, Tolerance: 0.01}
		robustFixture, robustErr = Build(context.Background(), in, Options{SweepPoints: 3, Workers: 2})
	})
	require.NoError(t, robustErr)
	return robustFixture
}

func TestHoldsData(t *testing.T) {
	r := newRobustTestReport(t)
	rec := r.Recommendation
	require.NotNil(t, rec)
	require.NotNil(t, rec.Robust)
	h := r.Holds
	require.NotNil(t, h)
	assert.Equal(t, rec.Robust.DecisionReplicas, h.Replicas)
	assert.Equal(t, "mean", h.Statistic)
	assert.Greater(t, h.Reference, 0.0)
	var kept []string
	for _, tn := range tunable.All() {
		if rec.Changed(tn.Name) {
			kept = append(kept, tn.Name)
		}
	}
	require.Len(t, h.Landscapes, len(kept))
	for i, ls := range h.Landscapes {
		assert.Equal(t, kept[i], ls.Param)
		assert.True(t, ls.HasMargin, ls.Param)
		steps, self := 0, 0
		for k, pt := range ls.Points {
			if k > 0 {
				assert.Less(t, ls.Points[k-1].Value, pt.Value, "%s: points ascend", ls.Param)
			}
			if pt.Value == ls.Value {
				self++
				assert.Zero(t, pt.Cost)
			}
			if pt.Step {
				steps++
			}
			assert.Equal(t, !pt.Feasible || (pt.Cost >= h.Tolerance && pt.Cost > 0), pt.Cliff, "%s at %v", ls.Param, pt.Value)
		}
		assert.Equal(t, 1, self, "%s: the recommendation is one point", ls.Param)
		for _, m := range rec.Robust.Margins {
			if m.Param == ls.Param {
				assert.Equal(t, len(m.Steps), steps, "%s: every measured step is drawn", ls.Param)
			}
		}
		assert.GreaterOrEqual(t, len(ls.Points), steps+1, "%s: every step and the recommendation (the report adds moves past a cliff)", ls.Param)
	}
}

func TestHoldsSectionRenders(t *testing.T) {
	r := newRobustTestReport(t)
	figs := mustFigures(t, r)
	var names []string
	for _, f := range figs {
		if f.Section == SectionHolds {
			names = append(names, f.Name)
			svg, err := f.SVG()
			require.NoError(t, err, f.Name)
			assert.True(t, bytes.HasPrefix(svg, []byte("<svg")), f.Name)
		}
	}
	if len(r.Holds.Landscapes) > 0 {
		assert.Equal(t, []string{"holds-spread", "holds-landscape"}, names)
	} else {
		assert.Equal(t, []string{"holds-spread"}, names)
	}
	var buf bytes.Buffer
	require.NoError(t, Render(&buf, r, figs))
	page := buf.String()
	doc := parseHTML(t, page)
	text := strings.ReplaceAll(textOf(doc), "\u00a0", " ")
	rb := r.Recommendation.Robust
	for _, want := range []string{
		"How far the answer holds", `href="#holds"`, `<section id="holds">`, `id="holds-spread"`,
	} {
		assert.Contains(t, page, want)
	}
	for _, want := range []string{
		"Expected with the recommendation", "over 4 runs of this input again", "In 95 % of runs: ", "expected over the VM defaults, over 4 runs of this input again; 95 % of runs: ",
		"On 4 runs of inputs like this one (every object's size scaled by up to ±3 %",
		"The profiled run exactly as recorded (one simulation)",
		numfmt.Plain(numfmt.Speedup(rb.SpeedupInterval.Hi)), numfmt.Plain(numfmt.Speedup(rb.NominalSpeedup)),
	} {
		assert.Contains(t, text, want)
	}
	if len(r.Holds.Landscapes) > 0 {
		for _, want := range []string{"May be lower by", "May be higher by", "Cliffs measured", r.Holds.Landscapes[0].Label} {
			assert.Contains(t, text, want)
		}
	}
	// The section comes after the sensitivity and before the runs.
	assert.Less(t, strings.Index(page, `<section id="sensitivity">`), strings.Index(page, `<section id="holds">`))
	assert.Less(t, strings.Index(page, `<section id="holds">`), strings.Index(page, `<section id="run">`))
}

// A study without an uncertainty model still gets the section, on the single simulation, and
// no spread.
func TestHoldsSectionWithoutModel(t *testing.T) {
	r := newTestReport(t)
	require.NotNil(t, r.Recommendation)
	require.Nil(t, r.Recommendation.Robust)
	require.NotNil(t, r.Holds)
	assert.Zero(t, r.Holds.Replicas)
	for _, ls := range r.Holds.Landscapes {
		assert.False(t, ls.HasMargin)
		assert.Greater(t, len(ls.Points), 8, ls.Param)
	}
	figs := mustFigures(t, r)
	for _, f := range figs {
		assert.NotEqual(t, "holds-spread", f.Name)
	}
	var buf bytes.Buffer
	require.NoError(t, Render(&buf, r, figs))
	text := strings.ReplaceAll(textOf(parseHTML(t, buf.String())), "\u00a0", " ")
	assert.Contains(t, text, "How far the answer holds")
	assert.Contains(t, text, "its uncertainty model is off")
}

// landscapeCount is the number of landscape panels of r.
func landscapeCount(r *Report) int {
	if r.Holds == nil {
		return 0
	}
	return len(r.Holds.Landscapes)
}

func TestHoldsFiguresRender(t *testing.T) {
	r := newRobustTestReport(t)
	var figs []Figure
	for _, f := range mustFigures(t, r) {
		if f.Section == SectionHolds {
			figs = append(figs, f)
		}
	}
	require.NotEmpty(t, figs)
	renderAll(t, figs, len(r.Sensitivity), landscapeCount(r))
}

// The measured section states the predicted interval beside the measured speedup, and where
// the measured one lies.
func TestMeasuredAgainstPrediction(t *testing.T) {
	base := newRobustTestReport(t)
	r := *base
	rec := r.Recommendation
	iv := rec.Robust.SpeedupInterval
	r.Measured = &Measured{Session: "s1", Configs: []MeasuredConfig{
		{ConfigSummary: verify.ConfigSummary{Name: verify.DefaultName, Trial: -1, Runs: 3, MeanSeconds: 100, PredictedSpeedup: 1}, WallSeconds: []float64{100, 100, 100}},
		{ConfigSummary: verify.ConfigSummary{Name: "best", Trial: rec.Trial, Runs: 3, MeanSeconds: 50, PredictedSpeedup: rec.Speedup,
			Speedup: &verify.Speedup{Estimate: iv.Hi * 1.5, Low: iv.Hi * 1.4, High: iv.Hi * 1.6, Pairs: 3}}, WallSeconds: []float64{50, 50, 50}},
		{ConfigSummary: verify.ConfigSummary{Name: "trial-0", Trial: 0, Runs: 3, MeanSeconds: 100, PredictedSpeedup: 1,
			Speedup: &verify.Speedup{Estimate: 1, Low: 0.9, High: 1.1, Pairs: 3}}, WallSeconds: []float64{100, 100, 100}},
	}}
	measuredAgainstPrediction(r.Measured, rec)
	best := r.Measured.Configs[1]
	require.NotNil(t, best.Comparison)
	assert.Equal(t, "above", best.Comparison.Side)
	assert.Equal(t, iv, *best.PredictedInterval)
	assert.Nil(t, r.Measured.Configs[2].Comparison, "a trial as it is states no interval")

	var buf bytes.Buffer
	require.NoError(t, Render(&buf, &r, nil))
	text := strings.ReplaceAll(textOf(parseHTML(t, buf.String())), "\u00a0", " ")
	assert.Contains(t, text, "best: The measured speedup, "+numfmt.Plain(numfmt.Speedup(iv.Hi*1.5))+", is above the predicted ")
	assert.Contains(t, text, "(95 % of runs; ")
	assert.Contains(t, text, "even its 95 % interval [")
	assert.Contains(t, text, numfmt.Plain(numfmt.Speedup(rec.Speedup))+" ["+numfmt.Plain(numfmt.Speedup(iv.Lo))+", "+numfmt.Plain(numfmt.Speedup(iv.Hi))+"]")
}
