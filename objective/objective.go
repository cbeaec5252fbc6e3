package objective

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/uncertainty"
)

// Aggregate says how several workloads' slowdowns combine into one value.
type Aggregate string

const (
	// AggregateMax minimises the worst slowdown: the configuration must be good for every
	// workload.
	AggregateMax Aggregate = "max"
	// AggregateMean minimises the mean slowdown.
	AggregateMean Aggregate = "mean"
)

// ParseAggregate accepts "max" and "mean".
func ParseAggregate(s string) (Aggregate, error) {
	switch Aggregate(s) {
	case AggregateMax, AggregateMean:
		return Aggregate(s), nil
	}
	return "", fmt.Errorf("objective: aggregate %q: want max or mean", s)
}

// Workload is one profile to simulate, with a name for reports.
type Workload struct {
	Name    string
	Profile *profile.Profile
	// Run names the run this workload reads when several workloads are alternative readings
	// of one run, as a sampled export under two hypotheses on what the export cannot record:
	// their slowdowns are averaged into the run's, the expected value over the readings, before
	// Aggregate combines the runs (max guards every run, not the most pessimistic reading: a
	// reading in which GC matters little would otherwise decide alone, its slowdowns all near
	// 1). Empty: the workload is a run of its own.
	Run string
}

// Settings configure the objective. The zero value is valid: no budget, max aggregate, one
// unperturbed simulation per workload.
type Settings struct {
	// MaxFootprintBytes is the memory budget: the largest peak footprint (new space + old-space
	// segments) a feasible configuration may reach on any workload. 0 = no budget.
	MaxFootprintBytes uint64
	// Aggregate combines several workloads' slowdowns (default AggregateMax).
	Aggregate Aggregate
	// Uncertainty is the model of the user's later runs (package uncertainty): configurations
	// are judged on its replicas. The zero Model judges them on the single simulation of each
	// profile.
	Uncertainty uncertainty.Model
	// Statistic reduces a configuration's replica values to its value (the zero Statistic is
	// the mean).
	Statistic uncertainty.Statistic
	// Seed draws the replicas (the study seed): the same seed, the same replicas.
	Seed uint64
}

// Problem is the optimisation problem: workloads, cost model, the VM's fixed facts, the
// baseline runs at default parameters, and the perturbed replicas with their own baselines.
type Problem struct {
	workloads []Workload
	cost      heapsim.Cost
	base      heapsim.Params
	settings  Settings
	baseline  []heapsim.Stats
	// prepared[i] is workload i's profile prepared once for every simulation of it (the
	// replicas' too: they scale its sizes as they run, heapsim.Options.SizeScale).
	prepared []*heapsim.Prepared
	// runOf[i] is workload i's run (Workload.Run), counted from 0 in order of first
	// appearance; runs the number of runs.
	runOf []int
	runs  int
	// replicas are the uncertainty model's runs, drawn from Settings.Seed; each is prepared
	// (its profiles scaled, its baselines simulated) the first time it is used, the search's
	// by NewProblem.
	replicas []*replicaRun
	// searchDefault is the defaults' value on the search replicas (0: none).
	searchDefault float64
	// again is the same problem judged on the "this input again" scenario's replicas
	// (uncertainty.Model.Again), nil when the model has none; see Again.
	again *Problem
	// simulations counts the workload runs the problem has simulated (Simulations).
	simulations atomic.Int64
	// kept holds the search replicas' results by configuration and replica (keptRuns), so
	// that the recommendation does not simulate again what the search did.
	kept keptRuns
}

// NewProblem simulates each workload at base (the default parameters, which also carry the VM
// facts: stack pages, page size, image size) to get the baselines, and checks that the budget
// is reachable at all.
func NewProblem(workloads []Workload, cost heapsim.Cost, base heapsim.Params, s Settings) (*Problem, error) {
	if len(workloads) == 0 {
		return nil, errors.New("objective: no workload")
	}
	if s.Aggregate == "" {
		s.Aggregate = AggregateMax
	}
	if _, err := ParseAggregate(string(s.Aggregate)); err != nil {
		return nil, err
	}
	if err := cost.Validate(); err != nil {
		return nil, fmt.Errorf("objective: %w", err)
	}
	if err := base.Validate(); err != nil {
		return nil, fmt.Errorf("objective: default parameters: %w", err)
	}
	if err := s.Uncertainty.Validate(); err != nil {
		return nil, fmt.Errorf("objective: %w", err)
	}
	if q := s.Statistic.Quantile; math.IsNaN(q) || q < 0 || q > 1 {
		return nil, fmt.Errorf("objective: statistic quantile %v is not in [0, 1]", q)
	}
	p := &Problem{workloads: workloads, cost: cost, base: base, settings: s}
	p.runOf, p.runs = runsOf(workloads)
	for _, r := range s.Uncertainty.Draw(s.Seed) {
		p.replicas = append(p.replicas, &replicaRun{replica: r})
	}
	if again := s.Uncertainty.Again(); !again.Off() && s.Uncertainty.Question() == uncertainty.ScenarioLike {
		as := s
		as.Uncertainty = again
		p.again = &Problem{workloads: workloads, cost: cost, base: base, settings: as, runOf: p.runOf, runs: p.runs}
		for _, r := range again.Draw(s.Seed) {
			p.again.replicas = append(p.again.replicas, &replicaRun{replica: r})
		}
	}
	for _, w := range workloads {
		if w.Profile == nil {
			return nil, fmt.Errorf("objective: workload %q has no profile", w.Name)
		}
		pp, err := heapsim.Prepare(w.Profile)
		if err != nil {
			return nil, fmt.Errorf("objective: workload %q: %w", w.Name, err)
		}
		p.prepared = append(p.prepared, pp)
		p.simulations.Add(1)
		st, err := pp.Run(base, cost, heapsim.Options{})
		if err != nil {
			return nil, fmt.Errorf("objective: workload %q at default parameters: %w", w.Name, err)
		}
		if !(st.TotalSeconds > 0) || math.IsInf(st.TotalSeconds, 0) {
			return nil, fmt.Errorf("objective: workload %q: default run time %v is not a positive finite number", w.Name, st.TotalSeconds)
		}
		p.baseline = append(p.baseline, st)
		if p.again != nil {
			p.again.baseline, p.again.prepared = p.baseline, p.prepared
		}
		if s.MaxFootprintBytes > 0 {
			if min := MinFootprintBytes(w.Profile, base); s.MaxFootprintBytes < min {
				return nil, fmt.Errorf("objective: budget of %d bytes is below the smallest possible footprint of workload %q (%d bytes: image, peak live data and the smallest new space)", s.MaxFootprintBytes, w.Name, min)
			}
		}
	}
	if k := s.Uncertainty.SearchReplicas; k > 0 {
		if err := p.prepareAll(p.replicas[:k]); err != nil {
			return nil, err
		}
		values := make([]float64, k)
		for i, rr := range p.replicas[:k] {
			values[i] = rr.defaultValue(len(workloads))
		}
		p.searchDefault = s.Statistic.Reduce(values)
	}
	return p, nil
}

// MinFootprintBytes is a lower bound of any configuration's peak footprint on profile: the
// image, the peak of live data and the new space of the smallest valid new-space size.
func MinFootprintBytes(profile *profile.Profile, base heapsim.Params) uint64 {
	peak := peakLiveBytes(profile)
	small := base
	small.NewSpaceBytes = MinNewSpaceBytes(base)
	return base.ImageBytes + peak + heapsim.ComputeLayout(small).NewSpaceBytes
}

// MinNewSpaceBytes is the smallest new-space size heapsim accepts with base's stack pages and
// page size (the eden must hold the largest new-space object).
func MinNewSpaceBytes(base heapsim.Params) uint64 {
	lo, hi := uint64(1), heapsim.MaxNewSpaceBytes
	for lo < hi {
		mid := lo + (hi-lo)/2
		p := base
		p.NewSpaceBytes = mid
		if heapsim.ComputeLayout(p).ScavengeThresholdBytes >= heapsim.MaxNewSpaceObjectBytes {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// Simulations is how many workload runs (heapsim simulations of one profile) the problem and
// its Again problem have made so far: the baselines, each replica's defaults, and every
// evaluation. It is what docs/search.md counts a recommendation's cost in.
func (p *Problem) Simulations() int64 {
	n := p.simulations.Load()
	if p.again != nil {
		n += p.again.simulations.Load()
	}
	return n
}

// Again returns the problem judged on the replicas of the "this input again" scenario
// (uncertainty.ScenarioAgain: the same workloads, cost and budget, the run-to-run differences
// of the same input only, drawn from the same seed on their own stream), which the headline
// forecast is stated on; nil when the uncertainty model has no such replicas. Its replicas are
// prepared on first use, like this problem's.
func (p *Problem) Again() *Problem { return p.again }

// Workloads returns the problem's workloads.
func (p *Problem) Workloads() []Workload { return p.workloads }

// Baseline returns the Stats of workload i at the default parameters.
func (p *Problem) Baseline(i int) heapsim.Stats { return p.baseline[i] }

// Base returns the default parameters (and VM facts) the problem was built with.
func (p *Problem) Base() heapsim.Params { return p.base }

// Cost returns the cost model.
func (p *Problem) Cost() heapsim.Cost { return p.cost }

// Settings returns the objective's settings.
func (p *Problem) Settings() Settings { return p.settings }

// Result is one evaluation.
type Result struct {
	// Value is what the search minimises: seconds for one workload, an aggregated slowdown for
	// several; penalised when infeasible.
	Value float64 `json:"value"`
	// Feasible is false when the budget is exceeded or old space ran out.
	Feasible bool `json:"feasible"`
	// Infeasibility says why, when not feasible.
	Infeasibility string `json:"infeasibility,omitempty"`
	// Slowdowns are each workload's total time over its default total time.
	Slowdowns []float64 `json:"slowdowns"`
	// Speedup is the default value over this value (feasible or not, unpenalised).
	Speedup float64 `json:"speedup"`
	// Stats are each workload's simulation results.
	Stats []heapsim.Stats `json:"stats"`
	// Metrics sums the workloads for reports (footprint: the largest).
	Metrics Metrics `json:"metrics"`
	// Replicas is the value of each replica the configuration was judged on, in replica order,
	// and ReplicaSpeedups each one's speedup against the defaults in the same replica (paired);
	// both nil for the single unperturbed simulation. Value is Settings.Statistic of
	// Replicas and each of Slowdowns the statistic of that workload's slowdowns; Stats and
	// Metrics are those of the median replica's run (footprint: the largest of any replica),
	// and Speedup is the defaults' statistic over Value.
	Replicas        []float64 `json:"replicas,omitempty"`
	ReplicaSpeedups []float64 `json:"replicaSpeedups,omitempty"`
}

// Metrics are the figures a user compares between trials.
type Metrics struct {
	TotalSeconds       float64 `json:"totalSeconds"`
	GCSeconds          float64 `json:"gcSeconds"`
	GCShare            float64 `json:"gcShare"`
	Scavenges          int     `json:"scavenges"`
	FullGCs            int     `json:"fullGCs"`
	PeakFootprintBytes uint64  `json:"peakFootprintBytes"`
	TenuredBytes       uint64  `json:"tenuredBytes"`
}

// Evaluate is the search's evaluation of params: on the first Uncertainty.SearchReplicas
// replicas, reduced by the statistic, or on the single simulation of each profile when that is
// 0 (EvaluateNominal). The error is non-nil only for invalid parameters or a simulator failure
// other than running out of memory, and for a non-finite value.
func (p *Problem) Evaluate(params heapsim.Params) (Result, error) {
	return p.EvaluateOn(params, p.settings.Uncertainty.SearchReplicas)
}

// EvaluateRobust judges params on all the model's replicas (what a recommendation is judged
// and stated on), or on the single simulation when the model is off.
func (p *Problem) EvaluateRobust(params heapsim.Params) (Result, error) {
	return p.EvaluateOn(params, len(p.replicas))
}

// EvaluateNominal simulates every workload, unperturbed, under params: the profiled run
// itself.
func (p *Problem) EvaluateNominal(params heapsim.Params) (Result, error) {
	if err := params.Validate(); err != nil {
		return Result{}, fmt.Errorf("objective: %w", err)
	}
	stats := make([]heapsim.Stats, len(p.workloads))
	failed := make([]error, len(p.workloads))
	p.simulations.Add(int64(len(p.workloads)))
	for i := range p.workloads {
		stats[i], failed[i] = p.prepared[i].Run(params, p.cost, heapsim.Options{})
	}
	return p.combine(stats, failed, p.baseline)
}

// combine turns one run of every workload (stats, and the simulator's error for each) into a
// Result against the baselines of the same run.
func (p *Problem) combine(stats []heapsim.Stats, failed []error, baseline []heapsim.Stats) (Result, error) {
	r := Result{Feasible: true}
	for i, w := range p.workloads {
		st, err := stats[i], failed[i]
		if errors.Is(err, heapsim.ErrOutOfMemory) {
			r.Feasible = false
			r.Infeasibility = fmt.Sprintf("workload %s: %v", w.Name, err)
			// The partial run counts up to the failure; charge it as at least the default.
			st.TotalSeconds = max(st.TotalSeconds, baseline[i].TotalSeconds)
		} else if err != nil {
			return Result{}, fmt.Errorf("objective: workload %q: %w", w.Name, err)
		}
		if math.IsNaN(st.TotalSeconds) || math.IsInf(st.TotalSeconds, 0) {
			return Result{}, fmt.Errorf("objective: workload %q: simulated time %v is not finite", w.Name, st.TotalSeconds)
		}
		if b := p.settings.MaxFootprintBytes; b > 0 && st.PeakFootprintBytes > b && r.Feasible {
			r.Feasible = false
			r.Infeasibility = fmt.Sprintf("workload %s: peak footprint %d bytes over the budget of %d", w.Name, st.PeakFootprintBytes, b)
		}
		slow := st.TotalSeconds / baseline[i].TotalSeconds
		r.Slowdowns = append(r.Slowdowns, slow)
		r.Stats = append(r.Stats, st)
		r.Metrics.TotalSeconds += st.TotalSeconds
		r.Metrics.GCSeconds += st.GCSeconds
		r.Metrics.Scavenges += st.Scavenges
		r.Metrics.FullGCs += st.FullGCs
		r.Metrics.PeakFootprintBytes = max(r.Metrics.PeakFootprintBytes, st.PeakFootprintBytes)
		r.Metrics.TenuredBytes += st.TenuredBytes
	}
	if r.Metrics.TotalSeconds > 0 {
		r.Metrics.GCShare = r.Metrics.GCSeconds / r.Metrics.TotalSeconds
	}
	var value, baseValue float64
	switch {
	case p.Seconds():
		value, baseValue = r.Stats[0].TotalSeconds, baseline[0].TotalSeconds
	default:
		value, baseValue = p.aggregate(r.Slowdowns), 1
	}
	r.Speedup = baseValue / value
	if !r.Feasible {
		value = p.penalised(value, baseValue, r.Metrics.PeakFootprintBytes)
	}
	if math.IsNaN(value) || math.IsInf(value, 0) {
		return Result{}, fmt.Errorf("objective: value %v is not finite", value)
	}
	r.Value = value
	return r, nil
}

// runsOf numbers the workloads' runs (Workload.Run; an empty one is a run of its own) in order
// of first appearance, and counts them.
func runsOf(workloads []Workload) ([]int, int) {
	runOf := make([]int, len(workloads))
	seen := map[string]int{}
	n := 0
	for i, w := range workloads {
		if w.Run == "" {
			runOf[i] = n
			n++
			continue
		}
		k, ok := seen[w.Run]
		if !ok {
			k = n
			seen[w.Run] = k
			n++
		}
		runOf[i] = k
	}
	return runOf, n
}

// aggregate combines the workloads' slowdowns into the value of several workloads: each run's
// slowdown is the mean of its readings' (Workload.Run), and the runs' are combined by
// Settings.Aggregate, the worst or their mean.
func (p *Problem) aggregate(slowdowns []float64) float64 {
	sum := make([]float64, p.runs)
	count := make([]float64, p.runs)
	for i, s := range slowdowns {
		sum[p.runOf[i]] += s
		count[p.runOf[i]]++
	}
	var worst, total float64
	for k := range sum {
		v := sum[k] / count[k]
		worst = max(worst, v)
		total += v
	}
	if p.settings.Aggregate == AggregateMean {
		return total / float64(p.runs)
	}
	return worst
}

// Runs is the number of runs the workloads read (Workload.Run): fewer than the workloads when
// some are alternative readings of one run.
func (p *Problem) Runs() int { return p.runs }

// penalised is an infeasible configuration's value: never better than the default, and worse
// the further over budget, so value-only samplers are pushed back towards the feasible region.
func (p *Problem) penalised(value, baseValue float64, footprint uint64) float64 {
	over := 1.0
	if b := p.settings.MaxFootprintBytes; b > 0 && footprint > b {
		over += float64(footprint-b) / float64(b)
	}
	return max(value, baseValue) * (1 + over)
}

// DefaultValue is the value of the default parameters as Evaluate judges them: the baseline
// total seconds for one workload (on the search replicas, their statistic), 1 (no slowdown)
// for several.
func (p *Problem) DefaultValue() float64 {
	if len(p.workloads) != 1 {
		return 1
	}
	if p.searchDefault > 0 {
		return p.searchDefault
	}
	return p.baseline[0].TotalSeconds
}

// peakLiveBytes is the largest weighted number of bytes alive at once (an object is alive on
// [Birth, Death), or to the end when alive at the end).
func peakLiveBytes(p *profile.Profile) uint64 {
	s, err := lifetimes.Summarize(p, lifetimes.AnalysisOptions{TopObjects: -1})
	if err != nil {
		return 0
	}
	return s.PeakLiveBytes
}

// NominalDefaultValue is the value of the default parameters on the profile exactly as
// recorded, one simulation: what EvaluateNominal's Speedup is measured against (the baseline
// total seconds for one workload, 1 for several). DefaultValue differs when the search runs on
// replicas.
func (p *Problem) NominalDefaultValue() float64 {
	if len(p.workloads) != 1 {
		return 1
	}
	return p.baseline[0].TotalSeconds
}

// SearchRuns says what a search trial's value is measured on: "the profile as recorded (one
// simulation)", or "the mean of 2 perturbed runs" (the search replicas and their statistic).
func (p *Problem) SearchRuns() string {
	k := p.settings.Uncertainty.SearchReplicas
	if k <= 0 || len(p.replicas) == 0 {
		return "the profile as recorded (one simulation)"
	}
	return fmt.Sprintf("the %s of %d perturbed runs (inputs like this one)", p.settings.Statistic, k)
}

// Seconds reports whether the problem's values are seconds (one workload) rather than slowdowns
// over the defaults (several): ValueUnit "s" or "×".
func (p *Problem) Seconds() bool { return len(p.workloads) == 1 }

// ValueUnit is the unit of the problem's values: "s" (one workload's run time) or "×" (a
// slowdown over the defaults, combined over several workloads). Every output asks here.
func (p *Problem) ValueUnit() string {
	if p.Seconds() {
		return "s"
	}
	return "×"
}
