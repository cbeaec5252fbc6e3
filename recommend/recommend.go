package recommend

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
)

// Settings tune Recommend.
type Settings struct {
	// Tolerance is the fraction of the best objective a recommendation may give up, in [0, 1);
	// gctune's default is DefaultTolerance. 0 recommends the best trial and puts back only
	// changes that cost nothing or help.
	Tolerance float64
	// DecisionReplicas is how many of the problem's replicas the choices are judged on (the
	// first ones); 0 means DefaultDecisionReplicas. Ignored when the problem has none.
	DecisionReplicas int
	// Rejudge is how many of the best trials (and of the smallest footprints near the best)
	// are judged again on the decision replicas; 0 means DefaultRejudge.
	Rejudge int
	// Stage, when set, is called as each step of the recommendation begins, with its name
	// (rejudge, attempt, settle, fallback, margins, statement, again, restate), and with
	// "done" at the end: instrumentation (scripts/simcount counts each step's simulations with
	// objective.Problem.Simulations). Nil: nothing is called.
	Stage func(name string)
}

// stage calls s.Stage when it is set.
func (s Settings) stage(name string) {
	if s.Stage != nil {
		s.Stage(name)
	}
}

// Recommendation is the configuration gctune recommends, how it was reached, and what it is
// worth.
type Recommendation struct {
	// Tolerance is the one used.
	Tolerance float64 `json:"tolerance"`
	// DefaultValue is the objective at the VM defaults.
	DefaultValue float64 `json:"defaultValue"`
	// Best is the fastest feasible trial; Chosen the one with the smallest footprint within
	// the tolerance of it (Within of them were); Trial is Chosen's number.
	Best   Candidate `json:"best"`
	Chosen Candidate `json:"chosen"`
	Within int       `json:"within"`
	Trial  int       `json:"trial"`
	// Point is the recommended configuration: Chosen with the parameters in AtDefault put
	// back (their values here are the VM defaults as a point, tunable.DefaultPoint, rounded).
	Point tunable.Point `json:"point"`
	// AtDefault names the dimensions left at (or put back to) the VM default, in
	// tunable.Names order: an export sets none of them.
	AtDefault []string `json:"atDefault"`
	// Value, Speedup, PeakFootprintBytes and GCShare are the simulated figures of the
	// recommendation (Params), never estimates.
	Value              float64 `json:"value"`
	Speedup            float64 `json:"speedup"`
	PeakFootprintBytes uint64  `json:"peakFootprintBytes"`
	GCShare            float64 `json:"gcShare"`
	TotalSeconds       float64 `json:"totalSeconds"`
	// PutBack are the changes of Chosen put back to the default, in the order they were.
	PutBack []Step `json:"putBack"`
	// Kept are the changes the recommendation keeps, each with what putting it back alone
	// would cost (the last round of the put-back search), largest cost first.
	Kept []Step `json:"kept"`
	// KeepDefaults is true when Speedup is below 1 + KeepDefaultsWithin: the gain is not worth
	// a change; Point still says what the best would be.
	KeepDefaults bool `json:"keepDefaults"`
	// Workloads are the recommendation's seconds against the defaults on each workload, when
	// there are several (a sampled export's two hypotheses, several data sizes): the value and
	// speedup above are then slowdowns aggregated over them. Nil for one workload.
	Workloads []WorkloadFigures `json:"workloads,omitempty"`
	// Robust is what the uncertainty model's replicas say (nil when the problem has none: the
	// figures are then those of the single simulation). With it, every value above is judged
	// on the replicas: Best, Chosen and the steps on the decision replicas, Value, Speedup and
	// the other figures on all of them (DefaultValue too).
	Robust *Robustness `json:"robust,omitempty"`
}

// Step is one change tried at its VM default.
type Step struct {
	Param string `json:"param"`
	Label string `json:"label"`
	// Value is the parameter in the configuration, Default the VM default (as a point).
	Value   float64 `json:"value"`
	Default float64 `json:"default"`
	// Objective, PeakFootprintBytes and Feasible are the simulated figures with the parameter
	// put back; Cost is Objective over the objective before, minus 1 (0.012 = 1.2 % slower).
	Objective          float64 `json:"objective"`
	PeakFootprintBytes uint64  `json:"peakFootprintBytes"`
	Feasible           bool    `json:"feasible"`
	Cost               float64 `json:"cost"`
	// Slowdowns are the per-workload slowdowns with the parameter put back (several workloads:
	// refusal compares each with the configuration before, see WithinOnEach).
	Slowdowns []float64 `json:"slowdowns,omitempty"`
	// Why says, for a kept change, why it was not put back.
	Why string `json:"why,omitempty"`
}

// Params returns the recommendation's simulator parameters on top of base: Point, with the
// dimensions in AtDefault at the VM defaults themselves.
func (r *Recommendation) Params(base heapsim.Params) heapsim.Params {
	return Params(r.Point, r.AtDefault, base)
}

// Changed reports whether the recommendation changes the dimension (tunable.Param...).
func (r *Recommendation) Changed(param string) bool { return !slices.Contains(r.AtDefault, param) }

// Recommend selects among trials (Select), puts back the changes that cost less than the
// tolerance, confirmed by simulating prob, and judges the result against the defaults. When
// prob has replicas (an uncertainty model), the best trials are judged again on them
// (rejudge), every choice is judged on them, the kept parameters are moved off any cliff within
// the neighbourhood (settle), their margins are measured, and the figures are stated on every
// replica with an interval. It is deterministic. ErrNoCandidate when no trial qualifies.
func Recommend(ctx context.Context, prob *objective.Problem, trials []goptuna.FrozenTrial, s Settings) (*Recommendation, error) {
	if prob == nil {
		return nil, errors.New("recommend: no problem")
	}
	if err := ValidateTolerance(s.Tolerance); err != nil {
		return nil, err
	}
	decide := s.DecisionReplicas
	if decide == 0 {
		decide = DefaultDecisionReplicas
	}
	j := newJudge(ctx, prob, decide)
	cands := Candidates(trials)
	rejudged := 0
	if j.robust() {
		n := s.Rejudge
		if n == 0 {
			n = DefaultRejudge
		}
		var err error
		s.stage("rejudge")
		if cands, err = rejudge(j, cands, n, s.Tolerance); err != nil {
			return nil, err
		}
		rejudged = len(cands)
	}
	sel, err := Select(cands, s.Tolerance)
	if err != nil {
		return nil, err
	}
	s.stage("attempt")
	r, cur, err := attempt(j, sel, sel.Chosen, true, s.Tolerance)
	if err != nil {
		return nil, err
	}
	var flat bool
	var moves []Move
	var instead string
	if j.robust() {
		limit := sel.Best.Value * (1 + s.Tolerance)
		s.stage("settle")
		if flat, moves, err = settle(j, r, limit, s.Tolerance); err != nil {
			return nil, err
		}
		if !flat {
			// The chosen trial, or what its put-backs left, stands on a cliff with no flat
			// place within reach: try it without the put-backs, then the next candidates.
			s.stage("fallback")
			if r, cur, flat, moves, instead, err = fallback(j, sel, cands, r, cur, moves, s.Tolerance); err != nil {
				return nil, err
			}
		}
	}
	final := cur
	if j.robust() {
		var head Forecast
		if final, head, err = robustness(j, r, flat, moves, rejudged, prob.Settings().Statistic.String(), s.stage); err != nil {
			return nil, err
		}
		r.Robust.Instead = instead
		r.Value, r.DefaultValue, r.Speedup = head.Value, head.DefaultValue, head.Speedup
	} else {
		r.Value, r.Speedup = final.Value, r.DefaultValue/final.Value
		r.Workloads = workloadFigures(prob, []objective.Result{final}, final)
	}
	r.PeakFootprintBytes, r.GCShare, r.TotalSeconds = final.Metrics.PeakFootprintBytes, final.Metrics.GCShare, final.Metrics.TotalSeconds
	r.KeepDefaults = r.Speedup < 1+KeepDefaultsWithin
	s.stage("done")
	return r, nil
}

// robustness measures the margins of r, settled (flat, after moves), and states the result
// (r.Robust): the headline forecast on the "this input again" replicas when the problem has
// them (objective.Problem.Again), else on the decisions' replicas, and the forecast for inputs
// like this one beside it. Readings of a sampled export are weighed by the export's own counts
// (weighReadings). It returns the headline's result (the median run's figures) and forecast.
func robustness(j *judge, r *Recommendation, flat bool, moves []Move, rejudged int, statistic string, stage func(string)) (objective.Result, Forecast, error) {
	rb := &Robustness{DecisionReplicas: j.decide, Statistic: statistic, Rejudged: rejudged, Neighbourhood: Neighbourhood}
	base := j.prob.Base()
	params := r.Params(base)
	rb.Flat, rb.Moves = flat, moves
	var err error
	stage("margins")
	if rb.Margins, err = margins(j, r, r.Tolerance); err != nil {
		return objective.Result{}, Forecast{}, err
	}
	stage("statement")
	if _, err := j.statement(params); err != nil {
		return objective.Result{}, Forecast{}, err
	}
	nominal, err := j.on(params, 0)
	if err != nil {
		return objective.Result{}, Forecast{}, err
	}
	likeResults, likeDefaults, err := j.cachedRuns(params)
	if err != nil {
		return objective.Result{}, Forecast{}, err
	}
	stat := j.prob.Settings().Statistic
	headProb, headResults, headDefaults := j.prob, likeResults, likeDefaults
	if again := j.prob.Again(); again != nil {
		stage("again")
		headProb = again
		if headResults, headDefaults, err = runAll(again, params); err != nil {
			return objective.Result{}, Forecast{}, err
		}
	}
	weights, kept, readings, evidence := weighReadings(headProb, headDefaults)
	rb.Forecast = newForecast(headProb.Settings().Uncertainty.Question(), headResults, headDefaults, stat, weights, kept)
	rb.Assumes = headProb.Settings().Uncertainty.Assumes()
	if headProb != j.prob {
		like := newForecast(uncertainty.ScenarioLike, likeResults, likeDefaults, stat, weights, kept)
		like.Assumes = j.prob.Settings().Uncertainty.Assumes()
		rb.Like = &like
	}
	if weights != nil {
		rb.Readings = len(weights)
		readingFigures(readings, headResults, headDefaults)
		rb.Weighed, rb.Evidence = readings, evidence
	}
	rb.NominalValue, rb.NominalSpeedup = nominal.Value, nominal.Speedup
	r.Robust = rb
	if len(moves) > 0 {
		// A move changes a kept value: what putting each kept change back alone costs is
		// measured again from where the recommendation now is.
		stage("restate")
		cur, err := j.decision(params)
		if err != nil {
			return objective.Result{}, Forecast{}, err
		}
		var putBacks []heapsim.Params
		for _, st := range r.Kept {
			putBacks = append(putBacks, Params(r.Point, withParam(r.AtDefault, st.Param), base))
		}
		if err := j.prefetch(append(putBacks, params), 1); err != nil {
			return objective.Result{}, Forecast{}, err
		}
		for k := range r.Kept {
			st := &r.Kept[k]
			t, _ := tunable.Named(st.Param)
			st.Value = t.Get(r.Point)
			res, err := putBackJudged(j, params, putBacks[k], cur.Value, r.Tolerance)
			if err != nil {
				return objective.Result{}, Forecast{}, err
			}
			st.Objective, st.Feasible, st.PeakFootprintBytes = res.Value, res.Feasible, res.Metrics.PeakFootprintBytes
			st.Cost, st.Slowdowns = res.Value/cur.Value-1, res.Slowdowns
		}
		slices.SortStableFunc(r.Kept, func(a, b Step) int { return cmp.Compare(b.Cost, a.Cost) })
	}
	final, err := headProb.Reduce(headResults)
	if err != nil {
		return objective.Result{}, Forecast{}, fmt.Errorf("recommend: %w", err)
	}
	r.Workloads = workloadFigures(headProb, headResults, final)
	return final, rb.Forecast, nil
}

// screenRefusal is the cost on the screening replicas from which a change put back is refused
// without judging it on the others: five tolerances, and at least 5 %, is far beyond what the
// other replicas could bring back under the tolerance.
func screenRefusal(tol float64) float64 { return max(5*tol, 0.05) }

// firstRefusal is the cost on the first replica alone from which a change put back is refused
// without judging it on any other: twice screenRefusal, 10 % at the default tolerance. The
// changes a recommendation keeps mostly cost that much or more put back (dataframe-3.1gb's new
// space and full GC ratio about 12 % each, its headroom several times the run time). It takes
// the same risk as the screening replicas' refusal: for the decision replicas to bring a change
// refused on the first back under the tolerance, the other five must average 11 points below
// it (10 % against under 1 %), as the last two must average 12 points below the first four for
// one refused at 5 % on four (replicas of one configuration change differ by a point or two).
func firstRefusal(tol float64) float64 { return 2 * screenRefusal(tol) }

// putBackJudged judges params, a change of the configuration at (judged value curValue) put
// back. With replicas it is judged on the first replica, then on the screening replicas, before
// the decision replicas: a change whose cost on the first is beyond firstRefusal, or on the
// screening ones beyond screenRefusal, is refused there (its value is curValue times 1 + that
// cost); the others are judged on the decision replicas. Callers that judge several changes
// prefetch their first replica together (judge.prefetch).
func putBackJudged(j *judge, at, params heapsim.Params, curValue, tol float64) (objective.Result, error) {
	if j.robust() && j.decide > screenReplicas {
		for _, stage := range []struct {
			n       int
			refusal float64
		}{{1, firstRefusal(tol)}, {screenReplicas, screenRefusal(tol)}} {
			ref, err := j.on(at, stage.n)
			if err != nil {
				return objective.Result{}, err
			}
			res, err := j.on(params, stage.n)
			if err != nil {
				return objective.Result{}, err
			}
			if c := costOf(res, ref.Value); c >= stage.refusal {
				if res.Feasible {
					res.Value = curValue * (1 + c)
				}
				return res, nil
			}
		}
	}
	return j.decision(params)
}

// refusal says why a change may not be put back ("" when it may): it must stay feasible, cost
// less than the tolerance against the configuration before it, on the objective and on every
// workload (WithinOnEach), and keep the objective and the footprint within the tolerance of
// the chosen trial's.
func refusal(st Step, cur, start objective.Result, tol float64) string {
	switch {
	case !st.Feasible:
		return "infeasible without it"
	case st.Cost >= tol && st.Cost > 0:
		return "not less than the tolerance, " + numfmt.PercentText(tol)
	case !WithinOnEach(st.Slowdowns, cur.Slowdowns, tol) || !WithinOnEach(st.Slowdowns, start.Slowdowns, tol):
		return "it would slow one workload by the tolerance, " + numfmt.PercentText(tol) + ", or more"
	case st.Objective > start.Value*(1+tol):
		return fmt.Sprintf("it would take the objective %s past the chosen trial's, beyond the tolerance", numfmt.PercentText(st.Objective/start.Value-1))
	case float64(st.PeakFootprintBytes) > float64(start.Metrics.PeakFootprintBytes)*(1+tol):
		return fmt.Sprintf("it would raise the peak footprint by %s", numfmt.PercentText(float64(st.PeakFootprintBytes)/float64(max(start.Metrics.PeakFootprintBytes, 1))-1))
	}
	return ""
}

// withParam returns names with name added, in tunable.Names order.
func withParam(names []string, name string) []string {
	var out []string
	for _, t := range tunable.All() {
		if t.Name == name || slices.Contains(names, t.Name) {
			out = append(out, t.Name)
		}
	}
	return out
}
