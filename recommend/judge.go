package recommend

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/objective"
)

// judge evaluates configurations for the recommendation: on the problem's replicas when its
// uncertainty model is on (each replica's run of a configuration simulated once, however often
// the recommendation asks), on the single simulation when it is off.
type judge struct {
	ctx  context.Context
	prob *objective.Problem
	// decide is how many replicas the recommendation's decisions are judged on (the first
	// ones); state is how many its final figures are stated on (all K).
	decide, state int
	mu            sync.Mutex
	// runs caches each configuration's replica results (nil: not simulated yet); nominal its
	// single simulation, for a problem without replicas.
	runs    map[heapsim.Params][]*objective.Result
	nominal map[heapsim.Params]objective.Result
}

func newJudge(ctx context.Context, prob *objective.Problem, decide int) *judge {
	k := prob.ReplicaCount()
	if decide <= 0 || decide > k {
		decide = k
	}
	return &judge{ctx: ctx, prob: prob, decide: decide, state: k,
		runs: map[heapsim.Params][]*objective.Result{}, nominal: map[heapsim.Params]objective.Result{}}
}

// robust reports whether configurations are judged on replicas.
func (j *judge) robust() bool { return j.state > 0 }

// screenReplicas is how many replicas a change put back is screened on before the decision
// replicas judge it (putBackJudged): enough to see a cliff, a quarter of the statement's cost.
const screenReplicas = 4

// marginReplicas is how many replicas a margin's outer steps (10, 20 and 40 %) are judged on,
// paired with the recommendation on the same ones. The steps only place the margin the output
// states (the neighbourhood step, which the rule decides on, is judged on the decision
// replicas); on dataframe-3.1gb they were the recommendation's largest single cost, a quarter
// of its simulations on 4 replicas (docs/benchmarks.md "Robust answers").
const marginReplicas = 2

// judging is what the robust steps need of a judge (a fake one in the tests: a synthetic
// objective with a cliff).
type judging interface {
	// decision judges a configuration on the replicas the choices use.
	decision(heapsim.Params) (objective.Result, error)
	// outer judges a margin's outer steps, on fewer still (marginReplicas).
	outer(heapsim.Params) (objective.Result, error)
	// vm is the problem's default parameters, with the VM facts.
	vm() heapsim.Params
}

// vm implements judging.
func (j *judge) vm() heapsim.Params { return j.prob.Base() }

// outer implements judging: the first marginReplicas of the decision replicas.
func (j *judge) outer(params heapsim.Params) (objective.Result, error) {
	return j.on(params, min(j.decide, marginReplicas))
}

// decision judges params on the replicas decisions use.
func (j *judge) decision(params heapsim.Params) (objective.Result, error) {
	return j.on(params, j.decide)
}

// statement judges params on all the replicas.
func (j *judge) statement(params heapsim.Params) (objective.Result, error) {
	return j.on(params, j.state)
}

// on judges params on the first n replicas (n = 0: the single simulation), simulating only
// the replicas not simulated before, in parallel.
func (j *judge) on(params heapsim.Params, n int) (objective.Result, error) {
	if err := j.ctx.Err(); err != nil {
		return objective.Result{}, fmt.Errorf("recommend: %w", err)
	}
	if n == 0 {
		j.mu.Lock()
		res, ok := j.nominal[params]
		j.mu.Unlock()
		if ok {
			return res, nil
		}
		res, err := j.prob.EvaluateNominal(params)
		if err != nil {
			return objective.Result{}, fmt.Errorf("recommend: %w", err)
		}
		j.mu.Lock()
		j.nominal[params] = res
		j.mu.Unlock()
		return res, nil
	}
	if err := j.prefetch([]heapsim.Params{params}, n); err != nil {
		return objective.Result{}, err
	}
	results := make([]objective.Result, n)
	j.mu.Lock()
	cached := j.runs[params]
	for k := range n {
		results[k] = *cached[k]
	}
	j.mu.Unlock()
	res, err := j.prob.Reduce(results)
	if err != nil {
		return objective.Result{}, fmt.Errorf("recommend: %w", err)
	}
	return res, nil
}

// prefetch simulates, in parallel, the first n replicas of each configuration in list that
// were not simulated before, and caches them: a step that judges several configurations on
// fewer replicas than there are cores (the put-backs' first screen) keeps the cores busy.
func (j *judge) prefetch(list []heapsim.Params, n int) error {
	type run struct {
		params  heapsim.Params
		replica int
	}
	var missing []run
	j.mu.Lock()
	for _, params := range list {
		cached := j.runs[params]
		if cached == nil {
			cached = make([]*objective.Result, j.state)
			j.runs[params] = cached
		}
		for k := range n {
			if cached[k] == nil && !slices.Contains(missing, run{params, k}) {
				missing = append(missing, run{params, k})
			}
		}
	}
	j.mu.Unlock()
	got := make([]objective.Result, len(missing))
	errs := make([]error, len(missing))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, parallelism()))
	for m, r := range missing {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			got[m], errs[m] = j.prob.EvaluateReplica(r.params, r.replica)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("recommend: %w", err)
	}
	j.mu.Lock()
	for m, r := range missing {
		j.runs[r.params][r.replica] = &got[m]
	}
	j.mu.Unlock()
	return nil
}

// cachedRuns returns params' results on every replica of the statement and each replica's runs
// at the defaults; params must have been judged on all of them (statement).
func (j *judge) cachedRuns(params heapsim.Params) ([]objective.Result, [][]heapsim.Stats, error) {
	j.mu.Lock()
	cached := slices.Clone(j.runs[params])
	j.mu.Unlock()
	if len(cached) != j.state {
		return nil, nil, fmt.Errorf("recommend: %d of %d replicas judged", len(cached), j.state)
	}
	results := make([]objective.Result, j.state)
	defaults := make([][]heapsim.Stats, j.state)
	for k, r := range cached {
		if r == nil {
			return nil, nil, fmt.Errorf("recommend: replica %d not judged", k)
		}
		results[k] = *r
		d, err := j.prob.ReplicaDefaults(k)
		if err != nil {
			return nil, nil, fmt.Errorf("recommend: %w", err)
		}
		defaults[k] = d
	}
	return results, defaults, nil
}
