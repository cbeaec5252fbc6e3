// Package recommendtest holds, for tests only, the recommendation the golden files of export
// and cmd/gctune are written from: the dataframe-3.1gb study's, as recommend.Recommend makes
// it, with and without its robustness (16 perturbed runs, a move off a cliff, the margins).
package recommendtest

import (
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
)

// Recommendation is the dataframe study's recommendation judged on the single simulation:
// three changes kept, two put back.
func Recommendation() *recommend.Recommendation {
	def := tunable.DefaultPoint(heapsim.DefaultParams()).Rounded()
	pt := tunable.Point{NewSpaceBytes: 741 << 20, HeadroomBytes: 2089 << 20, ShrinkBytes: def.ShrinkBytes, Ratio: 29.88, Proportion: def.Proportion}
	return &recommend.Recommendation{Tolerance: 0.01, DefaultValue: 4583.136,
		Best:   recommend.Candidate{Number: 113, Value: 576.109, PeakFootprintBytes: 11819536384},
		Chosen: recommend.Candidate{Number: 112, Value: 579.021, PeakFootprintBytes: 10693365760},
		Within: 57, Trial: 112, Point: pt, AtDefault: []string{tunable.ParamShrink, tunable.ParamProportion},
		Value: 579.021, Speedup: 4583.136 / 579.021, PeakFootprintBytes: 10693365760, GCShare: 0.0674, TotalSeconds: 579.021,
		PutBack: []recommend.Step{
			{Param: tunable.ParamProportion, Label: "survivors to keep", Value: 0.0755, Default: 0.9775, Objective: 579.021, PeakFootprintBytes: 10693365760, Feasible: true, Cost: -0.0000077},
			{Param: tunable.ParamShrink, Label: "shrink threshold", Value: 20 << 20, Default: 32 << 20, Objective: 579.021, PeakFootprintBytes: 10693365760, Feasible: true},
		},
		Kept: []recommend.Step{
			{Param: tunable.ParamHeadroom, Label: "growth headroom", Value: 2089 << 20, Default: 16 << 20, Objective: 4615, Feasible: true, Cost: 6.97, Why: "not less than the tolerance, 1 %"},
			{Param: tunable.ParamRatio, Label: "full GC ratio", Value: 29.88, Default: 0.333333, Objective: 645, Feasible: true, Cost: 0.115, Why: "not less than the tolerance, 1 %"},
			{Param: tunable.ParamNewSpace, Label: "new space (eden) size", Value: 741 << 20, Default: 16 << 20, Objective: 638, Feasible: true, Cost: 0.102, Why: "not less than the tolerance, 1 %"},
		}}
}

// Robust is Recommendation judged on 16 runs of this input again (its headline interval) and
// 16 of inputs like it, with margins and a move off a cliff.
func Robust() *recommend.Recommendation {
	r := Recommendation()
	values := []float64{561, 570, 575, 579, 580, 584, 586, 590, 592, 595, 600, 604, 610, 615, 622, 640}
	defaults := make([]float64, len(values))
	speedups := make([]float64, len(values))
	for k, v := range values {
		defaults[k] = 4583.136 * (0.96 + 0.005*float64(k))
		speedups[k] = defaults[k] / v
	}
	div := uncertainty.PredictionInterval(defaults, uncertainty.DefaultCoverage)
	// Inputs like this one: the defaults on a cliff for a few of them (a third of the time).
	like := recommend.Forecast{Scenario: uncertainty.ScenarioLike, Replicas: 16, Assumes: uncertainty.Default().Assumes()}
	for k, v := range values {
		d := defaults[k]
		if k%4 == 0 {
			d /= 2.2
		}
		like.Values, like.DefaultValues, like.Speedups = append(like.Values, v*1.01), append(like.DefaultValues, d), append(like.Speedups, d/(v*1.01))
	}
	stat := uncertainty.Statistic{}
	like.Value, like.DefaultValue = stat.Reduce(like.Values), stat.Reduce(like.DefaultValues)
	like.Speedup = like.DefaultValue / like.Value
	like.ValueInterval = uncertainty.PredictionInterval(like.Values, uncertainty.DefaultCoverage)
	like.DefaultInterval = uncertainty.PredictionInterval(like.DefaultValues, uncertainty.DefaultCoverage)
	like.SpeedupInterval = uncertainty.PredictionInterval(like.Speedups, uncertainty.DefaultCoverage)
	head := recommend.Forecast{Scenario: uncertainty.ScenarioAgain, Replicas: 16, Assumes: uncertainty.Default().Again().Assumes(),
		Values: values, Speedups: speedups, DefaultValues: defaults,
		Value: r.Value, DefaultValue: r.DefaultValue, Speedup: r.Speedup,
		ValueInterval:   uncertainty.PredictionInterval(values, uncertainty.DefaultCoverage),
		DefaultInterval: div,
		SpeedupInterval: uncertainty.PredictionInterval(speedups, uncertainty.DefaultCoverage)}
	r.Robust = &recommend.Robustness{Forecast: head, DecisionReplicas: 8, Statistic: "mean", Rejudged: 14, Like: &like,
		NominalValue: 576.1, NominalSpeedup: 7.955, Neighbourhood: 0.05, Flat: true,
		Moves: []recommend.Move{{Param: tunable.ParamHeadroom, Label: "growth headroom", From: 1990 << 20, To: 2089 << 20,
			Why: "growth headroom -5 % costs +8.9 %"}},
		Margins: []recommend.Margin{
			{Param: tunable.ParamNewSpace, Label: "new space (eden) size", Value: 741 << 20, Down: 0.18, Up: 0.4, UpOpen: true},
			{Param: tunable.ParamHeadroom, Label: "growth headroom", Value: 2089 << 20, Down: 0.074, Up: 0.4, UpOpen: true},
			{Param: tunable.ParamRatio, Label: "full GC ratio", Value: 29.88, Down: 0.4, Up: 0.4, DownOpen: true, UpOpen: true},
		}}
	return r
}
