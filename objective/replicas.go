package objective

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/uncertainty"
)

// replicaRun is one replica prepared for simulation: each workload's run options as the
// replica allocates it (its garbage, and its sizes scaled as heapsim reads them: no copy of
// the profile), its cost, and its runs at the default parameters. Prepared once, on first
// use, then read-only.
type replicaRun struct {
	replica uncertainty.Replica
	once    sync.Once
	err     error
	// prepared and opts are each workload's profile as the replica runs it and its
	// heapsim.Options: the replica's garbage, GarbageObjectsPerByte on the replica's sizes,
	// and the sizes either copied and scaled (prepared is the copy's) or scaled as the run
	// reads them (SizeScale; prepared is the workload's own): copiesReplicaSizes decides.
	prepared []*heapsim.Prepared
	opts     []heapsim.Options
	cost     heapsim.Cost
	baseline []heapsim.Stats
}

// prepare derives the run options and simulates the defaults of replica rr.
func (p *Problem) prepare(rr *replicaRun) error {
	rr.once.Do(func() {
		r := rr.replica
		rr.cost = r.ScaleCost(p.cost)
		for i, w := range p.workloads {
			opts := r.Options(w.Profile)
			pp := p.prepared[i]
			if opts.SizeScale != 0 && copiesReplicaSizes(r.Index) {
				var err error
				if pp, err = heapsim.Prepare(r.Profile(w.Profile)); err != nil {
					rr.err = fmt.Errorf("objective: workload %q, replica %d: %w", w.Name, r.Index, err)
					return
				}
				opts.SizeScale, opts.SizeSeed = 0, 0
			}
			opts.GarbageObjectsPerByte = pp.GarbageRate(opts)
			p.simulations.Add(1)
			st, err := pp.Run(p.base, rr.cost, opts)
			if err == nil && (!(st.TotalSeconds > 0) || math.IsInf(st.TotalSeconds, 0)) {
				err = fmt.Errorf("default run time %v is not a positive finite number", st.TotalSeconds)
			}
			if err != nil {
				rr.err = fmt.Errorf("objective: workload %q, replica %d at default parameters: %w", w.Name, r.Index, err)
				return
			}
			rr.prepared = append(rr.prepared, pp)
			rr.opts = append(rr.opts, opts)
			rr.baseline = append(rr.baseline, st)
		}
	})
	return rr.err
}

// copiesReplicaSizes reports whether replica k (0-based) copies its scaled sizes (4 bytes a
// record) rather than have heapsim round each size as it reads it (heapsim.Options.SizeScale):
// the first replicas do, as many as fit together in the profile's own columns (about 29 bytes
// a record), so that memory stays bounded by the input whatever the number of replicas
// (issue 35), and the replicas simulated most (the search's are the first) run at full speed:
// on dataframe-3.1gb rounding as the run reads costs 60-80 % more CPU a simulation (heapsim's
// BenchmarkSimulateReplica, docs/benchmarks.md). Both give the same sizes, so the same results.
func copiesReplicaSizes(k int) bool {
	const profileBytesPerRecord = 29 // Birth, Death 8; SizeBytes, Weight, Class 4; Flags 1
	return (k+1)*4 <= profileBytesPerRecord
}

// ReplicaCount is K, the model's number of replicas (0 when it is off).
func (p *Problem) ReplicaCount() int { return len(p.replicas) }

// EvaluateOn judges params on the first n replicas (n = 0: EvaluateNominal), simulated in
// parallel (up to GOMAXPROCS at once) and reduced (Reduce). n must be in [0, ReplicaCount()].
func (p *Problem) EvaluateOn(params heapsim.Params, n int) (Result, error) {
	if n < 0 || n > len(p.replicas) {
		return Result{}, fmt.Errorf("objective: %d replicas asked, the model has %d", n, len(p.replicas))
	}
	if n == 0 {
		return p.EvaluateNominal(params)
	}
	if err := params.Validate(); err != nil {
		return Result{}, fmt.Errorf("objective: %w", err)
	}
	results := make([]Result, n)
	errs := make([]error, n)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for k := range jobs {
				results[k], errs[k] = p.EvaluateReplica(params, k)
			}
		})
	}
	for k := range n {
		jobs <- k
	}
	close(jobs)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return Result{}, err
	}
	return p.Reduce(results)
}

// EvaluateReplica is replica k's run of every workload under params, as a Result against that
// replica's own defaults. Reduce combines several.
func (p *Problem) EvaluateReplica(params heapsim.Params, k int) (Result, error) {
	if k < 0 || k >= len(p.replicas) {
		return Result{}, fmt.Errorf("objective: replica %d of %d", k, len(p.replicas))
	}
	if err := params.Validate(); err != nil {
		return Result{}, fmt.Errorf("objective: %w", err)
	}
	keep := k < p.settings.Uncertainty.SearchReplicas
	if keep {
		if res, ok := p.kept.get(params, k); ok {
			return res, nil
		}
	}
	rr := p.replicas[k]
	if err := p.prepare(rr); err != nil {
		return Result{}, err
	}
	stats := make([]heapsim.Stats, len(p.workloads))
	failed := make([]error, len(p.workloads))
	p.simulations.Add(int64(len(p.workloads)))
	for i := range p.workloads {
		stats[i], failed[i] = rr.prepared[i].Run(params, rr.cost, rr.opts[i])
	}
	res, err := p.combine(stats, failed, rr.baseline)
	if err != nil {
		return Result{}, fmt.Errorf("replica %d: %w", rr.replica.Index, err)
	}
	if keep {
		p.kept.put(params, k, res)
	}
	return res, nil
}

// maxKeptRuns bounds keptRuns: 16,384 results of about 700 bytes each for one workload, some
// 11 MB, hold the search replicas of 8,192 trials.
const maxKeptRuns = 1 << 14

// keptRun names one replica's run of one configuration.
type keptRun struct {
	params  heapsim.Params
	replica int
}

// keptRuns are the results of the search replicas' runs (the first SearchReplicas), by
// configuration and replica: the search judges each trial on them, and the recommendation
// judges its candidates, the best trials, on the same replicas and more. Simulations are
// deterministic, so a kept result is the one simulating again would give. Up to maxKeptRuns
// are kept (the first ones: later runs are simulated each time), so that a long-lived worker's
// memory stays bounded. The zero value is empty and ready; safe for concurrent use.
type keptRuns struct {
	mu   sync.Mutex
	runs map[keptRun]Result
}

// get returns the kept result of params on replica k, if any (its slices copied: the caller
// owns what it gets, as from a simulation).
func (kr *keptRuns) get(params heapsim.Params, k int) (Result, bool) {
	kr.mu.Lock()
	defer kr.mu.Unlock()
	res, ok := kr.runs[keptRun{params, k}]
	res.Slowdowns, res.Stats = slices.Clone(res.Slowdowns), slices.Clone(res.Stats)
	return res, ok
}

// put keeps res as params' result on replica k, while there is room.
func (kr *keptRuns) put(params heapsim.Params, k int, res Result) {
	kr.mu.Lock()
	defer kr.mu.Unlock()
	if kr.runs == nil {
		kr.runs = map[keptRun]Result{}
	}
	if len(kr.runs) < maxKeptRuns {
		kr.runs[keptRun{params, k}] = res
	}
}

// Reduce combines the results of replicas 0 to len(results)−1 (EvaluateReplica) into one:
// Value is the statistic of the replicas' values and each workload's slowdown the statistic of
// its slowdowns, the configuration is feasible only if it is on every replica, Stats are the
// median replica's and the footprint the largest.
func (p *Problem) Reduce(results []Result) (Result, error) {
	n := len(results)
	if n == 0 || n > len(p.replicas) {
		return Result{}, fmt.Errorf("objective: %d replica results, the model has %d", n, len(p.replicas))
	}
	runs := p.replicas[:n]
	values, speedups, defaults := make([]float64, n), make([]float64, n), make([]float64, n)
	feasible := true
	var infeasibility string
	var footprint uint64
	for k, r := range results {
		values[k] = r.Value
		speedups[k] = r.Speedup
		defaults[k] = runs[k].defaultValue(len(p.workloads))
		if !r.Feasible && feasible {
			feasible = false
			infeasibility = fmt.Sprintf("replica %d: %s", runs[k].replica.Index, r.Infeasibility)
		}
		footprint = max(footprint, r.Metrics.PeakFootprintBytes)
	}
	if !feasible {
		// A replica's value is penalised when it is infeasible; the others are not: take every
		// value unpenalised and penalise the whole once, as for one run.
		for k, r := range results {
			values[k] = r.unpenalised(defaults[k])
		}
	}
	stat := p.settings.Statistic
	out := results[medianIndex(values)]
	out.Feasible, out.Infeasibility = feasible, infeasibility
	out.Metrics.PeakFootprintBytes = footprint
	out.Replicas, out.ReplicaSpeedups = values, speedups
	// Each workload's slowdown is the statistic of its slowdowns on the replicas, as the value
	// is of the replicas' values (the recommendation compares workloads one by one).
	out.Slowdowns = make([]float64, len(p.workloads))
	for w := range out.Slowdowns {
		per := make([]float64, n)
		for k, r := range results {
			per[k] = r.Slowdowns[w]
		}
		out.Slowdowns[w] = stat.Reduce(per)
	}
	value := stat.Reduce(values)
	out.Speedup = stat.Reduce(defaults) / value
	if !feasible {
		value = p.penalised(value, stat.Reduce(defaults), footprint)
	}
	if math.IsNaN(value) || math.IsInf(value, 0) {
		return Result{}, fmt.Errorf("objective: value %v is not finite", value)
	}
	out.Value = value
	return out, nil
}

// unpenalised is r's value before an infeasibility penalty: the default value over its speedup.
func (r Result) unpenalised(defaultValue float64) float64 {
	if r.Feasible {
		return r.Value
	}
	return defaultValue / r.Speedup
}

// defaultValue is the replica's value at the defaults: its baseline seconds for one workload,
// 1 for several.
func (rr *replicaRun) defaultValue(workloads int) float64 {
	if workloads == 1 {
		return rr.baseline[0].TotalSeconds
	}
	return 1
}

// medianIndex is the index of the lower median of values.
func medianIndex(values []float64) int {
	idx := make([]int, len(values))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case values[a] < values[b]:
			return -1
		case values[a] > values[b]:
			return 1
		}
		return 0
	})
	return idx[(len(idx)-1)/2]
}

// ReplicaDefaults returns replica k's runs of every workload at the default parameters (each
// workload's Stats, in workload order), preparing the replica when it was not yet.
func (p *Problem) ReplicaDefaults(k int) ([]heapsim.Stats, error) {
	if k < 0 || k >= len(p.replicas) {
		return nil, fmt.Errorf("objective: replica %d of %d", k, len(p.replicas))
	}
	rr := p.replicas[k]
	if err := p.prepare(rr); err != nil {
		return nil, err
	}
	return rr.baseline, nil
}

// Replicas returns the model's replicas (nil when it is off).
func (p *Problem) Replicas() []uncertainty.Replica {
	out := make([]uncertainty.Replica, len(p.replicas))
	for k, rr := range p.replicas {
		out[k] = rr.replica
	}
	return out
}

// RobustDefault returns the defaults judged on every replica: the statistic of the replicas'
// default values and each replica's value (nil when the model is off: then DefaultValue).
func (p *Problem) RobustDefault() (float64, []float64, error) {
	if len(p.replicas) == 0 {
		return p.DefaultValue(), nil, nil
	}
	if err := p.prepareAll(p.replicas); err != nil {
		return 0, nil, err
	}
	values := make([]float64, len(p.replicas))
	for k, rr := range p.replicas {
		values[k] = rr.defaultValue(len(p.workloads))
	}
	return p.settings.Statistic.Reduce(values), values, nil
}

// prepareAll prepares the replicas in parallel, up to GOMAXPROCS at once (each simulates the
// defaults of every workload).
func (p *Problem) prepareAll(runs []*replicaRun) error {
	errs := make([]error, len(runs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(runs)) {
		wg.Go(func() {
			for k := range jobs {
				errs[k] = p.prepare(runs[k])
			}
		})
	}
	for k := range runs {
		jobs <- k
	}
	close(jobs)
	wg.Wait()
	return errors.Join(errs...)
}
