package diagnose

import (
	"context"
	"fmt"
	"sync"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/objective"
)

// Pool runs a report's simulations, which are independent of one another: at most workers at
// once over every phase that shares it (the default runs beside the recommendation, the
// diagnosis beside the sensitivity sweeps), counted for its progress function. evaluate runs
// each distinct configuration's objective once (the best is a point of every sweep and of the
// diagnosis). Results are stored by job index, so the output does not depend on the order the
// jobs finish in.
type Pool struct {
	sem      chan struct{}
	progress func(done, total int)

	mu          sync.Mutex
	done, total int
	memo        map[heapsim.Params]*memoResult
}

// memoResult is one configuration's objective, ready once ready is closed.
type memoResult struct {
	ready chan struct{}
	res   objective.Result
	err   error
}

// NewPool returns a pool of workers (at least one) reporting to progress (nil: nobody):
// progress is told after each simulation how many of the simulations announced so far are
// done (total grows as each phase starts). Calls are serialised.
func NewPool(workers int, progress func(done, total int)) *Pool {
	return &Pool{sem: make(chan struct{}, max(workers, 1)), progress: progress, memo: map[heapsim.Params]*memoResult{}}
}

// count adds total simulations announced and done ones, and reports the progress.
func (p *Pool) count(total, done int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total += total
	p.done += done
	if p.progress != nil {
		p.progress(p.done, p.total)
	}
}

// Hold runs fn holding one of the pool's slots: work done outside the pool's jobs (the
// recommendation's own simulations) still counts against the bound.
func (p *Pool) Hold(fn func()) {
	p.sem <- struct{}{}
	defer func() { <-p.sem }()
	fn()
}

// run runs fn(0..n-1), each holding one of the pool's slots, and returns the error of the
// lowest index that failed, so the error is deterministic. Once ctx is done or a job has
// failed, the jobs not yet started do not run. Several runs may share the pool at once.
func (p *Pool) run(ctx context.Context, n int, fn func(int) error) error {
	p.count(n, 0)
	errs := make([]error, n)
	var next int
	var failed bool
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(cap(p.sem), max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				j := next
				next++
				stop := failed
				mu.Unlock()
				if j >= n || stop {
					return
				}
				var err error
				p.Hold(func() {
					if err = ctx.Err(); err != nil {
						err = fmt.Errorf("diagnose: %w", err)
						return
					}
					err = fn(j)
				})
				p.count(0, 1)
				if err != nil {
					mu.Lock()
					errs[j], failed = err, true
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// evaluate is prob.EvaluateNominal(params), run once per distinct params: a second caller
// waits for the first's result. The diagnosis and its sweeps are the profiled run exactly as
// recorded, one simulation of each configuration, as its text says; the search's value (the
// mean of its perturbed runs) and the recommendation's forecast are other figures.
func (p *Pool) evaluate(prob *objective.Problem, params heapsim.Params) (objective.Result, error) {
	p.mu.Lock()
	m, ok := p.memo[params]
	if !ok {
		m = &memoResult{ready: make(chan struct{})}
		p.memo[params] = m
	}
	p.mu.Unlock()
	if ok {
		<-m.ready
		return m.res, m.err
	}
	m.res, m.err = prob.EvaluateNominal(params)
	close(m.ready)
	return m.res, m.err
}
