package diagnose

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/tunable"
)

// Holds is the report's section "How far the answer holds": the recommendation's landscape
// along each kept parameter, judged as the recommendation judged its margins. The spread of
// the perturbed runs is the recommendation's Robust (Report.Recommendation.Robust).
type Holds struct {
	// Replicas is how many perturbed runs (the first ones) each landscape point is judged on,
	// reduced by Statistic: the recommendation's decision replicas. 0: the study has no
	// uncertainty model and every point is the single simulation of the profile.
	Replicas  int    `json:"replicas"`
	Statistic string `json:"statistic"`
	// Tolerance is the recommendation's: a move that costs it or more is a cliff.
	Tolerance float64 `json:"tolerance"`
	// Reference is the judged value at the recommendation, which every cost is against.
	Reference float64 `json:"reference"`
	// Landscapes holds one per kept parameter, in tunable.Names order.
	Landscapes []Landscape `json:"landscapes"`
}

// Landscape is the recommendation's judged value along one kept parameter, the others as
// recommended.
type Landscape struct {
	Param string `json:"param"`
	Label string `json:"label"`
	Bytes bool   `json:"bytes"`
	Log   bool   `json:"log"`
	// Value is the parameter as recommended.
	Value float64 `json:"value"`
	// Points are the moves judged, by ascending Value (the recommendation itself included,
	// Factor 0, Cost 0).
	Points []LandscapePoint `json:"points"`
	// HasMargin says whether the recommendation measured a margin for the parameter. Down, Up,
	// DownOpen and UpOpen are then the margin over every point of the landscape, the
	// recommendation's steps and the report's finer moves together: each side reaches to where
	// the cost crosses the tolerance between the last point within it and the first cliff (as
	// recommend measures it), open when no point on that side is a cliff. The finer
	// measurement decides, so a margin never holds a point that costs the tolerance.
	HasMargin bool    `json:"hasMargin"`
	Down      float64 `json:"down"`
	Up        float64 `json:"up"`
	DownOpen  bool    `json:"downOpen"`
	UpOpen    bool    `json:"upOpen"`
	// Stated is the margin as the recommendation states it (recommend.Margin: its own steps
	// only, recommend.MarginLadder), which optimize, explain and the exports print; it
	// differs from Down/Up when a finer move found a cliff its ladder stepped over, or placed
	// the crossing more closely. Nil without HasMargin.
	Stated *recommend.Margin `json:"stated,omitempty"`
}

// LandscapePoint is one move of a kept parameter.
type LandscapePoint struct {
	// Factor is the move (−0.05: 5 % lower) and Value the parameter there, as exported.
	Factor float64 `json:"factor"`
	Value  float64 `json:"value"`
	// Cost is the judged value there over the recommendation's, minus 1 (meaningless when
	// Feasible is false).
	Cost     float64 `json:"cost"`
	Feasible bool    `json:"feasible"`
	// Step says the recommendation measured this move for its margin (recommend.MarginStep);
	// the other points are simulated by the report. Cliff says it costs the tolerance or more.
	Step  bool `json:"step"`
	Cliff bool `json:"cliff"`
}

// holdsFactors are the moves the report judges beside the margin's measured steps (all of
// them, with the ladder's, when the recommendation measured none): between and past the
// ladder's ±5, 10 and 20 %, so a cliff shows its shape.
var holdsFactors = []float64{-0.3, -0.15, -0.075, -0.025, 0.025, 0.075, 0.15, 0.3}

// holdsLadder is recommend's margin ladder (recommend.MarginLadder) on both sides, judged by
// the report when the recommendation has no margins (the study's uncertainty model is off).
func holdsLadder() []float64 {
	var out []float64
	for _, f := range recommend.MarginLadder() {
		out = append(out, -f, f)
	}
	return out
}

// JudgeLandscape judges the landscape around rec along each kept parameter: the margin's
// measured steps as rec states them, and holdsFactors simulated on the decision replicas (the
// single simulation without an uncertainty model), one job of p per point and replica. nil for
// nil rec.
func JudgeLandscape(ctx context.Context, prob *objective.Problem, rec *recommend.Recommendation, p *Pool) (*Holds, error) {
	if rec == nil {
		return nil, nil
	}
	h := &Holds{Tolerance: rec.Tolerance, Statistic: prob.Settings().Statistic.String()}
	rb := rec.Robust
	if rb != nil {
		h.Replicas = min(rb.DecisionReplicas, prob.ReplicaCount())
		h.Statistic = rb.Statistic
	}
	base := prob.Base()
	// Each point to judge: its landscape and index (-1: the recommendation itself).
	type job struct{ land, idx int }
	jobs := []job{{-1, -1}}
	for _, t := range tunable.All() {
		if !rec.Changed(t.Name) {
			continue
		}
		ls := Landscape{Param: t.Name, Label: t.Label, Bytes: t.IsBytes(), Log: t.Log, Value: t.Get(rec.Point)}
		ls.Points = append(ls.Points, LandscapePoint{Value: ls.Value, Feasible: true})
		factors := holdsFactors
		if rb != nil {
			for _, m := range rb.Margins {
				if m.Param != t.Name {
					continue
				}
				stated := m
				stated.Steps = nil
				ls.HasMargin, ls.Stated = true, &stated
				ls.Down, ls.Up, ls.DownOpen, ls.UpOpen = m.Down, m.Up, m.DownOpen, m.UpOpen
				for _, st := range m.Steps {
					ls.Points = append(ls.Points, LandscapePoint{Factor: st.Factor, Value: st.Value, Cost: st.Cost,
						Feasible: st.Feasible, Step: true, Cliff: !st.Feasible || (st.Cost >= rec.Tolerance && st.Cost > 0)})
				}
			}
		}
		if !ls.HasMargin {
			factors = append(holdsLadder(), holdsFactors...)
		}
		for _, f := range factors {
			v := holdsMove(rec, t, f)
			q := rec.Point
			t.Set(&q, v)
			if slices.ContainsFunc(ls.Points, func(p LandscapePoint) bool { return p.Value == v }) ||
				recommend.Params(q, rec.AtDefault, base).Validate() != nil {
				continue // the recommendation itself, a step, or not a configuration the VM accepts
			}
			ls.Points = append(ls.Points, LandscapePoint{Factor: f, Value: v})
			jobs = append(jobs, job{len(h.Landscapes), len(ls.Points) - 1})
		}
		h.Landscapes = append(h.Landscapes, ls)
	}
	point := func(jb job) tunable.Point {
		if jb.land < 0 {
			return rec.Point
		}
		ls := h.Landscapes[jb.land]
		t, _ := tunable.Named(ls.Param)
		q := rec.Point
		t.Set(&q, ls.Points[jb.idx].Value)
		return q
	}
	// One simulation per job and replica on the pool, then each job's replicas reduced.
	runs := max(h.Replicas, 1)
	results := make([]objective.Result, len(jobs)*runs)
	err := p.run(ctx, len(results), func(n int) error {
		i, k := n/runs, n%runs
		pt := point(jobs[i])
		var err error
		if h.Replicas == 0 {
			results[n], err = prob.EvaluateNominal(recommend.Params(pt, rec.AtDefault, base))
		} else {
			results[n], err = prob.EvaluateReplica(recommend.Params(pt, rec.AtDefault, base), k)
		}
		if err != nil {
			return fmt.Errorf("diagnose: landscape around the recommendation: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	judged := make([]objective.Result, len(jobs))
	for i := range jobs {
		if h.Replicas == 0 {
			judged[i] = results[i*runs]
			continue
		}
		if judged[i], err = prob.Reduce(results[i*runs : (i+1)*runs]); err != nil {
			return nil, fmt.Errorf("diagnose: landscape around the recommendation: %w", err)
		}
	}
	h.Reference = judged[0].Value
	for i, jb := range jobs[1:] {
		p := &h.Landscapes[jb.land].Points[jb.idx]
		res := judged[i+1]
		p.Feasible = res.Feasible
		p.Cost = -1
		if p.Feasible && h.Reference > 0 {
			p.Cost = res.Value/h.Reference - 1
		}
		p.Cliff = !p.Feasible || (p.Cost >= rec.Tolerance && p.Cost > 0)
	}
	for i := range h.Landscapes {
		ls := &h.Landscapes[i]
		slices.SortStableFunc(ls.Points, func(a, b LandscapePoint) int {
			switch {
			case a.Value < b.Value:
				return -1
			case a.Value > b.Value:
				return 1
			}
			return 0
		})
		if ls.HasMargin {
			ls.Down, ls.DownOpen = landscapeReach(ls.Points, -1, rec.Tolerance)
			ls.Up, ls.UpOpen = landscapeReach(ls.Points, 1, rec.Tolerance)
		}
	}
	return h, nil
}

// landscapeReach is how far, as a fraction of the recommended value, the points on one side
// (side −1: lower, 1: higher) reach before their cost crosses tol: linear between the last
// point within it and the first cliff, as recommend places a margin between its steps; open
// when no point on that side is a cliff (the reach is then the farthest point's move).
func landscapeReach(points []LandscapePoint, side, tol float64) (reach float64, open bool) {
	var pts []LandscapePoint
	for _, pt := range points {
		if pt.Factor*side > 0 {
			pts = append(pts, pt)
		}
	}
	slices.SortStableFunc(pts, func(a, b LandscapePoint) int { return cmp.Compare(math.Abs(a.Factor), math.Abs(b.Factor)) })
	prevF, prevC := 0.0, 0.0
	for _, pt := range pts {
		f := math.Abs(pt.Factor)
		if pt.Cliff {
			if pt.Feasible && pt.Cost > prevC {
				return prevF + (f-prevF)*(tol-prevC)/(pt.Cost-prevC), false
			}
			return prevF, false
		}
		prevF, prevC = f, max(pt.Cost, 0)
	}
	return prevF, true
}

// holdsMove is parameter t of rec moved by factor f, rounded as exported and within the
// parameter's valid range.
func holdsMove(rec *recommend.Recommendation, t tunable.Tunable, f float64) float64 {
	q := rec.Point
	v := math.Min(math.Max(t.Get(rec.Point)*(1+f), t.Valid.Low), t.Valid.High)
	t.Set(&q, v)
	return t.Get(q.Rounded())
}
