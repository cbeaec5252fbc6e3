package recommend

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
)

// Defaults of the robust recommendation (docs/search.md "Robust answers").
const (
	// DefaultRejudge is how many of the search's best trials are judged again on the replicas
	// the recommendation decides on (and as many of the smallest footprints near the best).
	DefaultRejudge = 4
	// DefaultDecisionReplicas is how many replicas (the first ones) the recommendation's
	// decisions are judged on: paired comparisons (every configuration on the same replicas)
	// settle with fewer than the statement's interval needs, and 6 keeps a robust optimize of
	// dataframe-3.1gb within its minute on two cores (docs/benchmarks.md "Robust answers").
	DefaultDecisionReplicas = 6
	// Neighbourhood is how far each kept parameter may move, up or down, with the recommended
	// value staying within the tolerance: ±5 %, about what separates a user's runs (another
	// input, the VM's rounding) and well beyond the rounding of exported sizes.
	Neighbourhood = 0.05
)

// marginLadder are the moves, as fractions of a kept parameter's value, a margin is measured
// at; each direction stops at the first that costs the tolerance. It is as fine as the report's
// landscape (diagnose's holdsFactors between these steps), so that no output states a margin
// that steps over a cliff the report measured: "40 % lower or more" with a cliff at −30 %
// (issue 31). Every step of it is simulated until the first cliff, so a finer ladder costs
// simulations only on the sides that hold.
var marginLadder = []float64{0.025, Neighbourhood, 0.075, 0.10, 0.15, 0.20, 0.30, 0.40}

// moveSteps are the moves, in neighbourhoods, tried to take a parameter off a cliff.
var moveSteps = []float64{1, 2, 4, 8}

// maxClimbs bounds the steps settle takes to a faster neighbour: each is at least the
// tolerance faster, so a few are all a recommendation chosen among the fastest trials can use.
const maxClimbs = 4

func parallelism() int { return runtime.GOMAXPROCS(0) }

// Robustness is what the recommendation knows about the user's later runs: the headline
// forecast (its embedded Forecast: each run's values, the intervals stated from them), the
// forecast for inputs like this one beside it, and how far each kept parameter may move.
type Robustness struct {
	// Forecast is the headline: on the "this input again" runs (Scenario "again",
	// uncertainty.ScenarioAgain) when the study has them, else on the decisions' replicas
	// (Scenario "like"; empty in recommendations stored before the two scenarios). Its Value,
	// DefaultValue and Speedup are the recommendation's.
	Forecast
	// DecisionReplicas is how many replicas (the first ones) the choices were judged on;
	// Statistic reduces a configuration's runs (mean, or a quantile).
	DecisionReplicas int    `json:"decisionReplicas"`
	Statistic        string `json:"statistic"`
	// Rejudged is how many of the study's trials were judged again on the decision replicas.
	Rejudged int `json:"rejudged"`
	// Readings, when not 0, is how many readings of one run the workloads are (a sampled
	// export's hypotheses, objective.Workload.Run): the value is their weighted mean slowdown
	// (Weighed), and the intervals cover each kept reading's runs.
	Readings int `json:"readings,omitempty"`
	// Like is the forecast for inputs like this one (the decisions' replicas), stated beside
	// the headline; nil when the headline is it.
	Like *Forecast `json:"like,omitempty"`
	// Weighed are the readings of a sampled export as the forecast weighed them, and Evidence
	// what the export's own counts said (nil unless the workloads are readings of one run).
	Weighed  []Reading `json:"weighed,omitempty"`
	Evidence *Evidence `json:"evidence,omitempty"`
	// NominalValue and NominalSpeedup are the single simulation of the profile: what the
	// recommendation would promise if the run were exactly the profiled one.
	NominalValue   float64 `json:"nominalValue"`
	NominalSpeedup float64 `json:"nominalSpeedup"`
	// Neighbourhood is the move each kept parameter must survive (0.05 = ±5 %); Flat says
	// whether every kept parameter does. Moves are the changes made to get there.
	Neighbourhood float64 `json:"neighbourhood"`
	Flat          bool    `json:"flat"`
	Moves         []Move  `json:"moves,omitempty"`
	// Instead, when set, says why the recommendation is not the selected trial with its
	// put-backs: that one stood on a cliff with no flat place within reach, and this one does
	// not (fallback).
	Instead string   `json:"instead,omitempty"`
	Margins []Margin `json:"margins,omitempty"`
}

// Move is one kept parameter moved off a cliff into a flat region, or, Faster, to a neighbour
// faster by the tolerance or more.
type Move struct {
	Param string  `json:"param"`
	Label string  `json:"label"`
	From  float64 `json:"from"`
	To    float64 `json:"to"`
	// Faster marks a move to a faster neighbour; otherwise the move left a cliff.
	Faster bool `json:"faster,omitempty"`
	// Why names the neighbour that cost more than the tolerance, and what it cost, or the
	// faster neighbour moved to, and by how much it was faster.
	Why string `json:"why"`
}

// Verb says what the move did: "moved off a cliff" or "moved to a faster neighbour".
func (m Move) Verb() string {
	if m.Faster {
		return "moved to a faster neighbour"
	}
	return "moved off a cliff"
}

// Margin is how far a kept parameter may move before the recommendation's value rises past
// the tolerance.
type Margin struct {
	Param string  `json:"param"`
	Label string  `json:"label"`
	Value float64 `json:"value"`
	// Down and Up are fractions of Value: the estimated move (linear between the last step
	// within the tolerance and the first beyond it) at which the cost reaches the tolerance.
	// DownOpen / UpOpen: no step tried went beyond it (Down / Up is then the last step tried:
	// "at least"); a bound of the parameter ends the steps too.
	Down     float64 `json:"down"`
	Up       float64 `json:"up"`
	DownOpen bool    `json:"downOpen"`
	UpOpen   bool    `json:"upOpen"`
	// Steps are the moves measured, each with its cost against the recommendation.
	Steps []MarginStep `json:"steps"`
}

// MarginStep is one measured move of a kept parameter.
type MarginStep struct {
	// Factor is the move (−0.05 = 5 % lower); Value the parameter there.
	Factor float64 `json:"factor"`
	Value  float64 `json:"value"`
	// Cost is the judged value there over the recommendation's, minus 1; Feasible false when
	// the move makes the configuration infeasible.
	Cost     float64 `json:"cost"`
	Feasible bool    `json:"feasible"`
}

// rejudge judges again, on the decision replicas, the n trials with the best search values
// and the n smallest footprints among the trials within five tolerances of the best: the
// search's values come from fewer replicas (or the single simulation), so its best may be a
// lucky alignment. It returns those candidates with their judged values, footprints and
// slowdowns.
func rejudge(j *judge, cands []Candidate, n int, tol float64) ([]Candidate, error) {
	var ok []Candidate
	for _, c := range cands {
		if usable(c) {
			ok = append(ok, c)
		}
	}
	if len(ok) == 0 {
		return nil, ErrNoCandidate
	}
	byValue := slices.Clone(ok)
	slices.SortStableFunc(byValue, func(a, b Candidate) int {
		return cmp.Or(cmp.Compare(a.Value, b.Value), cmp.Compare(a.Number, b.Number))
	})
	pick := map[int]bool{}
	var chosen []Candidate
	add := func(c Candidate) {
		if !pick[c.Number] {
			pick[c.Number] = true
			chosen = append(chosen, c)
		}
	}
	for _, c := range byValue[:min(n, len(byValue))] {
		add(c)
	}
	limit := byValue[0].Value * (1 + 5*max(tol, 0.01))
	var near []Candidate
	for _, c := range byValue {
		if c.Value <= limit {
			near = append(near, c)
		}
	}
	slices.SortStableFunc(near, func(a, b Candidate) int {
		if smallerFootprint(a, b) {
			return -1
		}
		if smallerFootprint(b, a) {
			return 1
		}
		return 0
	})
	for _, c := range near[:min(n, len(near))] {
		add(c)
	}
	out := make([]Candidate, 0, len(chosen))
	for _, c := range chosen {
		res, err := j.decision(c.Point.Params(j.prob.Base()))
		if err != nil {
			return nil, err
		}
		if !res.Feasible {
			continue
		}
		c.Value, c.PeakFootprintBytes, c.Slowdowns = res.Value, res.Metrics.PeakFootprintBytes, res.Slowdowns
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, ErrNoCandidate
	}
	slices.SortFunc(out, func(a, b Candidate) int { return a.Number - b.Number })
	return out, nil
}

// neighbour returns point p with parameter t moved by factor (−0.05: 5 % lower), rounded as
// exported, by at least the export's granularity (a whole MiB for sizes: 5 % of 4 MiB is
// less), and within the parameter's valid range and the VM's limits; ok is false when the
// move lands on p itself or outside what the VM accepts.
func neighbour(p tunable.Point, atDefault []string, t tunable.Tunable, factor float64, base heapsim.Params) (tunable.Point, heapsim.Params, bool) {
	q := p
	v := t.Get(p) * (1 + factor)
	if t.Unit == tunable.UnitBytes && math.Abs(v-t.Get(p)) < float64(heapsim.MiB) {
		v = t.Get(p) + math.Copysign(float64(heapsim.MiB), factor)
	}
	v = math.Min(math.Max(v, t.Valid.Low), t.Valid.High)
	t.Set(&q, v)
	q = q.Rounded()
	if t.Get(q) == t.Get(p) {
		return p, heapsim.Params{}, false
	}
	params := Params(q, atDefault, base)
	if params.Validate() != nil {
		return p, heapsim.Params{}, false
	}
	return q, params, true
}

// costOf is res's value against the reference value ref, minus 1 (+Inf when infeasible).
func costOf(res objective.Result, ref float64) float64 {
	if !res.Feasible {
		return math.Inf(1)
	}
	return res.Value/ref - 1
}

// settle applies the neighbourhood rule to r: every kept parameter moved by ±Neighbourhood must
// keep the judged value within the tolerance of r's. A parameter that fails is moved away from
// the failing side (its value stepped by 1, 2, 4 and 8 neighbourhoods) to the first place whose
// own neighbours pass and whose value stays within the tolerance of limit (the best judged
// value, times 1 + tolerance). When every kept parameter passes but a neighbour is faster than
// r by the tolerance or more, r stands on a bump its search did not see past: it takes the
// fastest such neighbour (a Move marked Faster, at most maxClimbs of them) and is judged again.
// It returns whether every kept parameter passes, and the moves.
func settle(j judging, r *Recommendation, limit float64, tol float64) (bool, []Move, error) {
	base := j.vm()
	var moves []Move
	stuck := map[string]bool{}
	climbs := 0
	for range 2*len(tunable.All()) + 1 + maxClimbs {
		cur, err := j.decision(r.Params(base))
		if err != nil {
			return false, nil, err
		}
		failing := ""
		var sides []float64
		var why string
		var climb *Move
		var climbTo tunable.Point
		climbValue := cur.Value
		for _, t := range tunable.All() {
			if !r.Changed(t.Name) || stuck[t.Name] {
				continue
			}
			for _, side := range []float64{-1, 1} {
				q, params, ok := neighbour(r.Point, r.AtDefault, t, side*Neighbourhood, base)
				if !ok {
					continue
				}
				res, err := j.decision(params)
				if err != nil {
					return false, nil, err
				}
				c := costOf(res, cur.Value)
				if c >= tol && c > 0 {
					sides = append(sides, side)
					why = fmt.Sprintf("%s %+.0f %% costs %s", t.Label, 100*side*Neighbourhood, costText(c))
				}
				if c <= -tol && res.Feasible && res.Value < climbValue {
					climbValue, climbTo = res.Value, q
					climb = &Move{Param: t.Name, Label: t.Label, From: t.Get(r.Point), To: t.Get(q), Faster: true,
						Why: fmt.Sprintf("%s %+.0f %% %s", t.Label, 100*side*Neighbourhood, CostText(c))}
				}
			}
			if len(sides) > 0 {
				failing = t.Name
				break
			}
		}
		if failing == "" {
			if climb == nil || climbs == maxClimbs {
				return len(stuck) == 0, moves, nil
			}
			climbs++
			r.Point = climbTo
			limit = min(limit, climbValue*(1+tol))
			moves = append(moves, *climb)
			continue
		}
		t, _ := tunable.Named(failing)
		moved, err := moveOff(j, r, t, sides, limit, tol)
		if err != nil {
			return false, nil, err
		}
		if moved == nil {
			stuck[failing] = true
			continue
		}
		moved.Why = why
		moves = append(moves, *moved)
	}
	return false, moves, nil
}

// moveOff tries to move parameter t of r away from the failing sides; on success it changes
// r.Point and returns the move.
func moveOff(j judging, r *Recommendation, t tunable.Tunable, failing []float64, limit, tol float64) (*Move, error) {
	base := j.vm()
	var dirs []float64
	switch {
	case len(failing) == 2:
		dirs = []float64{1, -1}
	default:
		dirs = []float64{-failing[0]}
	}
	for _, step := range moveSteps {
		for _, d := range dirs {
			q, params, ok := neighbour(r.Point, r.AtDefault, t, d*step*Neighbourhood, base)
			if !ok {
				continue
			}
			res, err := j.decision(params)
			if err != nil {
				return nil, err
			}
			if !res.Feasible || res.Value > limit {
				continue
			}
			flat := true
			for _, side := range []float64{-1, 1} {
				_, np, ok := neighbour(q, r.AtDefault, t, side*Neighbourhood, base)
				if !ok {
					continue
				}
				nres, err := j.decision(np)
				if err != nil {
					return nil, err
				}
				if c := costOf(nres, res.Value); c >= tol && c > 0 {
					flat = false
					break
				}
			}
			if !flat {
				continue
			}
			m := &Move{Param: t.Name, Label: t.Label, From: t.Get(r.Point), To: t.Get(q)}
			r.Point = q
			return m, nil
		}
	}
	return nil, nil
}

// margins measures, for each kept parameter of r, how far it may move each way before the
// judged value rises past the tolerance (marginLadder, stopping at the first step beyond). The
// neighbourhood step is judged on the decision replicas (as settle judged it); the outer steps,
// which only place the margin, on marginReplicas, against r judged on the same ones.
func margins(j judging, r *Recommendation, tol float64) ([]Margin, error) {
	base := j.vm()
	center, err := j.decision(r.Params(base))
	if err != nil {
		return nil, err
	}
	outerRef, err := j.outer(r.Params(base))
	if err != nil {
		return nil, err
	}
	var out []Margin
	for _, t := range tunable.All() {
		if !r.Changed(t.Name) {
			continue
		}
		m := Margin{Param: t.Name, Label: t.Label, Value: t.Get(r.Point)}
		for _, side := range []float64{-1, 1} {
			reach, open := 0.0, true
			prevF, prevC := 0.0, 0.0
			for _, f := range marginLadder {
				q, params, ok := neighbour(r.Point, r.AtDefault, t, side*f, base)
				if !ok {
					break
				}
				judged, ref := j.outer, outerRef.Value
				if f == Neighbourhood {
					judged, ref = j.decision, center.Value
				}
				res, err := judged(params)
				if err != nil {
					return nil, err
				}
				c := costOf(res, ref)
				m.Steps = append(m.Steps, MarginStep{Factor: side * f, Value: t.Get(q), Cost: finiteOr(c, -1), Feasible: res.Feasible})
				if c >= tol && c > 0 {
					open = false
					// Where the cost line between the last step within and this one crosses
					// the tolerance.
					if !math.IsInf(c, 1) && c > prevC {
						reach = prevF + (f-prevF)*(tol-prevC)/(c-prevC)
					} else {
						reach = prevF
					}
					break
				}
				reach, prevF, prevC = f, f, max(c, 0)
			}
			if side < 0 {
				m.Down, m.DownOpen = reach, open
			} else {
				m.Up, m.UpOpen = reach, open
			}
		}
		out = append(out, m)
	}
	return out, nil
}

func finiteOr(x, alt float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return alt
	}
	return x
}

// costText is a cost for people: "+8.9 %", or "infeasibility".
func costText(c float64) string {
	if math.IsInf(c, 1) {
		return "feasibility"
	}
	return numfmt.SignedPercentText(c)
}

// DefaultInterval is the defaults' interval on the headline runs: as stated
// (Forecast.DefaultInterval), or, for a recommendation stored before it was, the range of the
// defaults' values on the same replicas (uncertainty.RangeInterval).
func (rb *Robustness) DefaultInterval() uncertainty.Interval {
	if rb.Forecast.DefaultInterval.N > 0 {
		return rb.Forecast.DefaultInterval
	}
	return uncertainty.RangeInterval(rb.DefaultValues)
}
