package tpe

// TPESampler is gctune's Tree-structured Parzen Estimator. goptuna's own tpe package is not used:
// its kernel centres are scrambled by an in-place sort, its Gaussian distance is not squared,
// its log-sum-exp and acceptance weights are wrong, and it draws from the global math/rand
// (docs/search.md, "samplers", lists the faults). This one is written from the algorithm:
//
//   - Bergstra, Bardenet, Bengio, Kégl 2011, "Algorithms for Hyper-Parameter Optimization"
//     (NeurIPS): TPE, the adaptive Parzen estimator, the prior and the EI criterion.
//   - Bergstra, Yamins, Cox 2013, "Making a Science of Model Search" (ICML): the linear
//     forgetting ramp of observation weights.
//   - Falkner, Klein, Hutter 2018, "BOHB" (ICML): the multivariate kernel density.
//   - Optuna's TPESampler (v3.1) documentation and defaults, against which it is benchmarked
//     (search/tpe_bench_test.go, scripts/bench_samplers_bowl.py).

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/c-bata/goptuna"
)

var (
	_ goptuna.Sampler         = (*TPESampler)(nil)
	_ goptuna.RelativeSampler = (*TPESampler)(nil)
)

// Defaults of the TPE sampler (Optuna's documented TPESampler defaults).
const (
	// TPEDefaultStartupTrials is the number of finished observations of a parameter below which
	// the sampler draws it uniformly at random: a kernel density fitted to fewer points than
	// this is mostly noise. Optuna's n_startup_trials = 10.
	TPEDefaultStartupTrials = 10
	// TPEDefaultEICandidates is the number of candidates drawn from l(x) and scored by
	// l(x)/g(x) per proposal: more candidates exploit harder, fewer explore more. Optuna's and
	// hyperopt's n_ei_candidates = 24.
	TPEDefaultEICandidates = 24
	// TPEDefaultPriorWeight is the weight of the prior kernel relative to an observation's
	// (at most 1): one pseudo-observation spread over the whole range. Optuna's prior_weight.
	TPEDefaultPriorWeight = 1.0
	// tpeFeasibleAttr is the trial user attribute that the objective sets to "false" when a
	// trial broke a constraint (a memory budget). Such trials are always in the "bad" group.
	tpeFeasibleAttr = "feasible"
	// tpePCGStream is the fixed second word of the PCG state, so one uint64 seed picks the
	// stream (an arbitrary odd constant: the PCG multiplier of O'Neill 2014).
	tpePCGStream = 0x5851f42d4c957f2d
)

// TPEDefaultGamma is the size of the "good" group for n finished observations,
// gamma(n) = min(ceil(0.1 n), 25): the best 10 %, at most 25 (Optuna's default_gamma). The good
// group's density l(x) is what TPE samples from; a small fraction keeps it sharp, the cap keeps
// it from spreading as the study grows.
func TPEDefaultGamma(n int) int {
	g := (n + 9) / 10 // ceil(0.1 n) for n >= 0
	if g > 25 {
		g = 25
	}
	return g
}

// TPEOption configures a TPESampler; see NewTPESampler.
type TPEOption func(*tpeConfig)

// tpeConfig holds the sampler's settings.
type tpeConfig struct {
	seed          uint64
	startupTrials int
	eiCandidates  int
	gamma         func(int) int
	priorWeight   float64
	multivariate  bool
	constantLiar  bool
}

// validate reports the first bad setting.
func (c *tpeConfig) validate() error {
	switch {
	case c.startupTrials < 0:
		return fmt.Errorf("search: tpe: startup trials must be >= 0, got %d", c.startupTrials)
	case c.eiCandidates < 1:
		return fmt.Errorf("search: tpe: EI candidates must be >= 1, got %d", c.eiCandidates)
	case c.gamma == nil:
		return errors.New("search: tpe: gamma function must not be nil")
	case !(c.priorWeight > 0) || math.IsInf(c.priorWeight, 1):
		return fmt.Errorf("search: tpe: prior weight must be finite and > 0, got %v", c.priorWeight)
	}
	return nil
}

// TPEOptionSeed sets the seed of the sampler's random stream (default 0). The same seed and the same
// sequence of calls (hence the same history) give the same proposals, bit for bit.
func TPEOptionSeed(seed uint64) TPEOption { return func(c *tpeConfig) { c.seed = seed } }

// TPEOptionStartupTrials sets how many finished observations of a parameter (or, multivariate, of
// the whole joint space) are drawn uniformly at random before TPE starts (default
// TPEDefaultStartupTrials; must be >= 0).
func TPEOptionStartupTrials(n int) TPEOption { return func(c *tpeConfig) { c.startupTrials = n } }

// TPEOptionEICandidates sets how many candidates are drawn from l(x) per proposal (default
// TPEDefaultEICandidates; must be >= 1).
func TPEOptionEICandidates(n int) TPEOption { return func(c *tpeConfig) { c.eiCandidates = n } }

// TPEOptionGamma sets the function giving the size of the good group for n finished observations
// (default TPEDefaultGamma). Its result is clamped to [0, number of feasible observations].
func TPEOptionGamma(gamma func(n int) int) TPEOption { return func(c *tpeConfig) { c.gamma = gamma } }

// TPEOptionPriorWeight sets the weight of the prior kernel (default TPEDefaultPriorWeight; must be
// finite and > 0).
func TPEOptionPriorWeight(w float64) TPEOption { return func(c *tpeConfig) { c.priorWeight = w } }

// TPEOptionMultivariate turns on multivariate TPE (default off): SampleRelative models the joint
// density of all parameters of goptuna's relative search space as a mixture whose kernels are
// products over dimensions, so correlations between parameters are learnt. Register the sampler
// with both goptuna.StudyOptionSampler and goptuna.StudyOptionRelativeSampler.
func TPEOptionMultivariate(on bool) TPEOption { return func(c *tpeConfig) { c.multivariate = on } }

// TPEOptionConstantLiar turns on the constant liar (default off): RUNNING trials other than the one
// being sampled count as observations of the bad group, as if they had the worst value, so
// parallel workers sharing a study do not all propose the same point.
func TPEOptionConstantLiar(on bool) TPEOption { return func(c *tpeConfig) { c.constantLiar = on } }

// TPESampler is a seeded Tree-structured Parzen Estimator for goptuna. It implements both
// goptuna.Sampler (independent TPE, one parameter at a time) and goptuna.RelativeSampler
// (multivariate TPE, when TPEOptionMultivariate is on).
//
// For each proposal it reads the study's trials, keeps the usable observations of the
// parameter(s) (see below), splits them into a good group of the best gamma(n) and a bad group
// of the rest, fits a Parzen estimator l(x) to the good group and g(x) to the bad group (see
// newTPEParzen in tpe_parzen.go for the kernels), draws EI-candidates points from l(x) and
// returns the one maximising log l(x) - log g(x) (Bergstra et al. 2011 show that maximising
// l/g maximises expected improvement). Before startup-trials observations exist it draws
// uniformly at random from the same seeded stream.
//
// Usable observations: trials in state COMPLETE or PRUNED, other than the current trial,
// holding every sampled parameter with an identical distribution, whose value is finite (for a
// pruned trial, the value at its latest reported step). With the constant liar, RUNNING trials
// holding the parameters are used too. Values are minimised (negated for a maximising study).
//
// Groups: feasible COMPLETE trials ranked by value, then feasible PRUNED trials by latest step
// (deeper first) and value; the good group is the first min(gamma(n), ranked) of them, n
// counting all finished usable trials. Infeasible trials (user attribute "feasible" = "false",
// set by the objective for a trial over its memory budget) are always in the bad group, as in
// Optuna's constrained TPE where they rank after every feasible trial, so the search learns
// where not to go; RUNNING trials of the constant liar are in the bad group too. Within a
// group, observations are ordered oldest first (by trial number) for the forgetting weights.
//
// Determinism: one math/rand/v2 PCG stream seeded by TPEOptionSeed, guarded by a mutex because
// goptuna may call from several goroutines; trials are ordered by number and parameters by
// name before any draw. The same seed and the same sequence of calls over the same history give
// the same values bit for bit (testdata/tpe/proposals pins them); the stream advances with
// every call, so concurrent workers interleave draws: give each worker its own seed.
//
// Against Optuna 3.1: the kernels, bandwidths, weights, prior and candidate rule are the same
// (tpe_parzen_test.go checks them against Optuna's own estimator); Optuna 3.1's continuous
// density leaves out the Gaussian's 1/sigma (optuna/optuna#5109, fixed in 3.5), this one is
// normalised. On the benchmark bowl that omission happens to help Optuna 3.1 (see
// tpe_bench_test.go); it is not reproduced here.
//
// Multivariate use: goptuna v0.9.0 panics inferring the relative search space when it holds a
// categorical parameter; pass goptuna.StudyOptionDefineSearchSpace.
type TPESampler struct {
	cfg    tpeConfig
	err    error
	mu     sync.Mutex // guards rng
	rng    *rand.Rand
	parzen tpeParzenParams
}

// NewTPESampler returns a TPE sampler with Optuna's defaults changed by opts: seed 0,
// TPEDefaultStartupTrials, TPEDefaultEICandidates, TPEDefaultGamma, TPEDefaultPriorWeight,
// magic clip on, endpoints off, univariate, no constant liar. A bad option is reported by
// Validate and by every Sample or SampleRelative call.
func NewTPESampler(opts ...TPEOption) *TPESampler {
	cfg := tpeConfig{
		startupTrials: TPEDefaultStartupTrials,
		eiCandidates:  TPEDefaultEICandidates,
		gamma:         TPEDefaultGamma,
		priorWeight:   TPEDefaultPriorWeight,
	}
	for _, opt := range opts {
		opt(&cfg)
	}
	p := tpeDefaultParzenParams()
	p.priorWeight = cfg.priorWeight
	return &TPESampler{
		cfg:    cfg,
		err:    cfg.validate(),
		rng:    rand.New(rand.NewPCG(cfg.seed, tpePCGStream)),
		parzen: p,
	}
}

// Validate returns the error of the first bad option given to NewTPESampler, or nil.
func (s *TPESampler) Validate() error { return s.err }

// Sample proposes goptuna's internal value of one parameter (independent TPE). It implements
// goptuna.Sampler.
func (s *TPESampler) Sample(study *goptuna.Study, trial goptuna.FrozenTrial, paramName string, distribution interface{}) (float64, error) {
	if s.err != nil {
		return 0, s.err
	}
	dim, single, value, err := newTPEDim(paramName, distribution)
	if err != nil || single {
		return value, err
	}
	dims := []tpeDim{dim}
	hist, err := s.history(study, trial, dims)
	if err != nil {
		return 0, err
	}
	p := s.parzen
	p.multivariate = false

	s.mu.Lock()
	defer s.mu.Unlock()
	var x []float64
	if hist.nFinished < s.cfg.startupTrials {
		x = []float64{dim.sampleUniform(s.rng)}
	} else {
		x = s.propose(dims, hist, p)
	}
	return dim.untransform(x[0]), nil
}

// SampleRelative proposes goptuna's internal values of all parameters of searchSpace jointly
// (multivariate TPE). It implements goptuna.RelativeSampler. It returns an empty map, so that
// goptuna falls back to Sample for every parameter, when multivariate is off, when the space
// has no parameter with more than one value, or while fewer than startup-trials usable
// observations of the joint space exist (Sample then draws the start-up points).
func (s *TPESampler) SampleRelative(study *goptuna.Study, trial goptuna.FrozenTrial, searchSpace map[string]interface{}) (map[string]float64, error) {
	if s.err != nil {
		return nil, s.err
	}
	out := map[string]float64{}
	if !s.cfg.multivariate || len(searchSpace) == 0 {
		return out, nil
	}
	names := make([]string, 0, len(searchSpace))
	for name := range searchSpace {
		names = append(names, name)
	}
	sort.Strings(names)
	dims := make([]tpeDim, 0, len(names))
	for _, name := range names {
		dim, single, _, err := newTPEDim(name, searchSpace[name])
		if errors.Is(err, goptuna.ErrUnknownDistribution) {
			continue // left to Sample, which reports it
		}
		if err != nil {
			return nil, err
		}
		if !single {
			dims = append(dims, dim)
		}
	}
	if len(dims) == 0 {
		return out, nil
	}
	hist, err := s.history(study, trial, dims)
	if err != nil {
		return nil, err
	}
	if hist.nFinished < s.cfg.startupTrials {
		return out, nil
	}
	p := s.parzen
	p.multivariate = true

	s.mu.Lock()
	x := s.propose(dims, hist, p)
	s.mu.Unlock()
	for d := range dims {
		out[dims[d].name] = dims[d].untransform(x[d])
	}
	return out, nil
}

// propose runs one TPE step on dims: split, fit l and g, draw candidates from l, return the
// candidate maximising log l - log g (the first on ties). The caller holds s.mu.
func (s *TPESampler) propose(dims []tpeDim, hist tpeHistory, p tpeParzenParams) []float64 {
	below, above := hist.split(s.cfg.gamma(hist.nFinished))
	l := newTPEParzen(dims, tpeColumns(below, len(dims)), tpeDefaultWeights(len(below)), p)
	g := newTPEParzen(dims, tpeColumns(above, len(dims)), tpeDefaultWeights(len(above)), p)
	candidates := l.sample(s.rng, s.cfg.eiCandidates)
	best, bestScore := 0, math.Inf(-1)
	for i, c := range candidates {
		score := l.logPDF(c) - g.logPDF(c)
		if score > bestScore { // NaN never wins
			best, bestScore = i, score
		}
	}
	return candidates[best]
}

// tpeGroup classifies a usable observation.
type tpeGroup int

const (
	tpeGroupComplete tpeGroup = iota
	tpeGroupPruned
	tpeGroupInfeasible
	tpeGroupRunning
)

// tpeObservation is one usable trial: its parameters in TPE's space and its rank keys.
type tpeObservation struct {
	number, id int
	x          []float64
	group      tpeGroup
	value      float64 // minimised
	step       int     // latest step of a pruned trial, -1 if none
}

// tpeHistory is the usable observations of a set of dimensions, ordered by trial number.
type tpeHistory struct {
	obs []tpeObservation
	// nFinished counts the finished (non-running) usable observations.
	nFinished int
}

// history collects the usable observations of dims from the study (see TPESampler).
func (s *TPESampler) history(study *goptuna.Study, current goptuna.FrozenTrial, dims []tpeDim) (tpeHistory, error) {
	trials, err := study.GetTrials()
	if err != nil && !errors.Is(err, goptuna.ErrTrialsPartiallyDeleted) {
		return tpeHistory{}, fmt.Errorf("search: tpe: reading trials: %w", err)
	}
	sign := 1.0
	if study.Direction() == goptuna.StudyDirectionMaximize {
		sign = -1
	}
	var h tpeHistory
	for i := range trials {
		t := &trials[i]
		if t.ID == current.ID {
			continue
		}
		o := tpeObservation{number: t.Number, id: t.ID, step: -1}
		switch t.State {
		case goptuna.TrialStateComplete:
			o.group = tpeGroupComplete
			o.value = sign * t.Value
		case goptuna.TrialStatePruned:
			o.group = tpeGroupPruned
			o.value = math.Inf(1) // no step reported: rank after every pruned trial with one
			if step, ok := t.GetLatestStep(); ok {
				o.step = step
				o.value = sign * t.IntermediateValues[step]
				if math.IsInf(o.value, 0) {
					continue
				}
			}
		case goptuna.TrialStateRunning:
			if !s.cfg.constantLiar {
				continue
			}
			o.group = tpeGroupRunning
		default:
			continue
		}
		if math.IsNaN(o.value) || (o.group == tpeGroupComplete && math.IsInf(o.value, 0)) {
			continue
		}
		if !tpeHasParams(t, dims) {
			continue
		}
		if o.group != tpeGroupRunning && strings.EqualFold(t.UserAttrs[tpeFeasibleAttr], "false") {
			o.group = tpeGroupInfeasible
		}
		o.x = make([]float64, len(dims))
		for d := range dims {
			o.x[d] = dims[d].transform(t.InternalParams[dims[d].name])
		}
		if o.group != tpeGroupRunning {
			h.nFinished++
		}
		h.obs = append(h.obs, o)
	}
	sort.SliceStable(h.obs, func(a, b int) bool { return tpeOlder(&h.obs[a], &h.obs[b]) })
	return h, nil
}

// tpeHasParams reports whether t holds every dimension with an identical distribution and a
// finite internal value.
func tpeHasParams(t *goptuna.FrozenTrial, dims []tpeDim) bool {
	for d := range dims {
		v, ok := t.InternalParams[dims[d].name]
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
		if !reflect.DeepEqual(t.Distributions[dims[d].name], dims[d].dist) {
			return false
		}
	}
	return true
}

// tpeOlder orders observations by trial number, then ID.
func tpeOlder(a, b *tpeObservation) bool {
	if a.number != b.number {
		return a.number < b.number
	}
	return a.id < b.id
}

// split returns the good group (the first nBelow ranked feasible finished observations) and
// the bad group (everything else, infeasible and running included), each oldest first.
func (h tpeHistory) split(nBelow int) (below, above []tpeObservation) {
	ranked := make([]tpeObservation, 0, len(h.obs))
	for _, o := range h.obs {
		if o.group == tpeGroupComplete || o.group == tpeGroupPruned {
			ranked = append(ranked, o)
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool {
		a, b := &ranked[i], &ranked[j]
		if a.group != b.group {
			return a.group == tpeGroupComplete
		}
		if a.group == tpeGroupPruned && a.step != b.step {
			return a.step > b.step
		}
		if a.value != b.value {
			return a.value < b.value
		}
		return tpeOlder(a, b)
	})
	nBelow = min(max(nBelow, 0), len(ranked))
	below = append(below, ranked[:nBelow]...)
	above = append(above, ranked[nBelow:]...)
	for _, o := range h.obs {
		if o.group == tpeGroupInfeasible || o.group == tpeGroupRunning {
			above = append(above, o)
		}
	}
	sort.SliceStable(below, func(i, j int) bool { return tpeOlder(&below[i], &below[j]) })
	sort.SliceStable(above, func(i, j int) bool { return tpeOlder(&above[i], &above[j]) })
	return below, above
}

// tpeColumns turns observations into one row per dimension.
func tpeColumns(obs []tpeObservation, nDims int) [][]float64 {
	cols := make([][]float64, nDims)
	for d := range cols {
		cols[d] = make([]float64, len(obs))
		for i := range obs {
			cols[d][i] = obs[i].x[d]
		}
	}
	return cols
}
