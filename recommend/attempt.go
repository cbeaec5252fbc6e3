package recommend

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/tunable"
)

// attempt makes the recommendation of candidate c: the dimensions it leaves at the VM default,
// then, when putBack is set, each change that costs less than the tolerance put back, one at a
// time, the cheapest first (Step). Without putBack every change is kept, each with what
// putting it back alone would cost. It returns the recommendation and its judged result.
func attempt(j *judge, sel Selection, c Candidate, putBack bool, tol float64) (*Recommendation, objective.Result, error) {
	base := j.prob.Base()
	def := tunable.DefaultPoint(base).Rounded()
	exact := tunable.DefaultPoint(base) // the defaults people read: ratio 0.333333
	r := &Recommendation{Tolerance: tol, DefaultValue: j.prob.DefaultValue(), Best: sel.Best, Chosen: c,
		Within: sel.Within, Trial: c.Number, Point: c.Point}
	for _, t := range tunable.All() {
		if t.Get(r.Point) == t.Get(def) {
			r.AtDefault = append(r.AtDefault, t.Name)
		}
	}
	cur, err := j.decision(r.Params(base))
	if err != nil {
		return nil, objective.Result{}, err
	}
	start := cur
	for {
		var tries []Step
		var trial [][]string
		for _, t := range tunable.All() {
			if !r.Changed(t.Name) {
				continue
			}
			tries = append(tries, Step{Param: t.Name, Label: t.Label, Value: t.Get(r.Point), Default: t.Get(exact)})
			trial = append(trial, withParam(r.AtDefault, t.Name))
		}
		if len(tries) == 0 {
			break
		}
		res := make([]objective.Result, len(tries))
		at := Params(r.Point, r.AtDefault, base)
		putBacks := make([]heapsim.Params, len(tries))
		for k := range tries {
			putBacks[k] = Params(r.Point, trial[k], base)
		}
		if j.robust() {
			// Every change's first replica at once (putBackJudged screens on it).
			if err := j.prefetch(append(putBacks, at), 1); err != nil {
				return nil, objective.Result{}, err
			}
		}
		for k := range tries {
			if res[k], err = putBackJudged(j, at, putBacks[k], cur.Value, tol); err != nil {
				return nil, objective.Result{}, err
			}
		}
		for k := range tries {
			tries[k].Objective = res[k].Value
			tries[k].Feasible = res[k].Feasible
			tries[k].PeakFootprintBytes = res[k].Metrics.PeakFootprintBytes
			tries[k].Cost = res[k].Value/cur.Value - 1
			tries[k].Slowdowns = res[k].Slowdowns
		}
		order := make([]int, len(tries))
		for k := range order {
			order[k] = k
		}
		slices.SortStableFunc(order, func(a, b int) int {
			return cmp.Compare(tries[a].Objective, tries[b].Objective)
		})
		accepted := -1
		for _, k := range order {
			why := refusal(tries[k], cur, start, tol)
			if why == "" && !putBack {
				why = "putting it back leaves the configuration on a cliff"
			}
			if why == "" {
				accepted = k
				break
			}
			tries[k].Why = why
		}
		if accepted < 0 {
			r.Kept = tries
			slices.SortStableFunc(r.Kept, func(a, b Step) int { return cmp.Compare(b.Cost, a.Cost) })
			break
		}
		st := tries[accepted]
		st.Why = ""
		r.PutBack = append(r.PutBack, st)
		r.AtDefault = trial[accepted]
		t, _ := tunable.Named(st.Param)
		t.Set(&r.Point, t.Get(def)) // as tunable.DefaultPoint(base).Rounded(): "at the default" everywhere
		cur = res[accepted]
	}
	return r, cur, nil
}

// fallbackTries bounds the attempts: each costs a put-back search and a neighbourhood check.
const fallbackTries = 3

// fallbackReach is how far behind the best judged value a fallback candidate may be: a flat
// region within a few percent is worth more to a user than a cliff within the tolerance.
func fallbackReach(tol float64) float64 { return max(5*tol, 0.03) }

// fallback is tried when the recommendation r (judged cur, after moves) stands on a cliff with
// no flat place within reach: the chosen trial without its put-backs (a put-back can leave the
// others on a needle), then the other candidates within fallbackReach of the best, by value,
// each with its put-backs, fallbackTries attempts in all. The first whose every kept parameter
// passes the neighbourhood rule is taken; if none does, r stays as it was (its Robustness says
// it is not flat).
func fallback(j *judge, sel Selection, cands []Candidate, r *Recommendation, cur objective.Result, moves []Move, tol float64) (*Recommendation, objective.Result, bool, []Move, string, error) {
	type try struct {
		c       Candidate
		putBack bool
	}
	var tries []try
	if len(r.PutBack) > 0 {
		tries = append(tries, try{sel.Chosen, false})
	}
	others := slices.Clone(cands)
	slices.SortStableFunc(others, func(a, b Candidate) int {
		return cmp.Or(cmp.Compare(a.Value, b.Value), cmp.Compare(a.Number, b.Number))
	})
	limit := sel.Best.Value * (1 + fallbackReach(tol))
	for _, c := range others {
		if c.Number != sel.Chosen.Number && usable(c) && c.Value <= limit {
			tries = append(tries, try{c, true})
		}
	}
	for _, t := range tries[:min(len(tries), fallbackTries)] {
		r2, cur2, err := attempt(j, sel, t.c, t.putBack, tol)
		if err != nil {
			return nil, objective.Result{}, false, nil, "", err
		}
		flat, moves2, err := settle(j, r2, limit, tol)
		if err != nil {
			return nil, objective.Result{}, false, nil, "", err
		}
		if flat {
			if len(moves2) > 0 {
				if cur2, err = j.decision(r2.Params(j.prob.Base())); err != nil {
					return nil, objective.Result{}, false, nil, "", err
				}
			}
			why := fmt.Sprintf("trial %d without its put-backs: they left it on a cliff", t.c.Number)
			if t.putBack {
				why = fmt.Sprintf("trial %d (%s behind the best judged), the first within %s of it whose kept parameters may all move %s: trial %d stood on a cliff with no flat place within reach",
					t.c.Number, numfmt.PercentText(t.c.Value/sel.Best.Value-1), numfmt.PercentText(fallbackReach(tol)), numfmt.PercentText(Neighbourhood), sel.Chosen.Number)
			}
			return r2, cur2, true, moves2, why, nil
		}
	}
	return r, cur, false, moves, "", nil
}
