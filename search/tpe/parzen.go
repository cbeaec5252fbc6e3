package tpe

// This file holds the Parzen estimator of the TPE sampler (sampler.go): the search-space
// transform, the kernel fit (weights, adaptive bandwidths, magic clip, prior), sampling from the
// truncated mixture and its log density. It is written from Bergstra et al. 2011, "Algorithms
// for Hyper-Parameter Optimization" (NeurIPS), section 4, and from the defaults documented by
// Optuna's TPESampler (v3.1), which gctune's results are compared with. It touches no storage
// and no global state: every random draw comes from the *rand.Rand passed in.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/c-bata/goptuna"
)

// dimKind says how one dimension of the search space is modelled.
type dimKind int

const (
	// continuous: a Gaussian kernel density on [low, high] (Uniform, LogUniform).
	continuous dimKind = iota
	// discrete: a Gaussian kernel density on [low, high] widened by half a step on each
	// side, whose mass is collected on a grid of cells of width q (Int, StepInt, Discrete).
	discrete
	// categorical: a weighted histogram over choice indices (Categorical).
	categorical
)

// Numerical constants of the estimator.
const (
	// magicClipMaxKernels caps the magic clip's divisor: sigma >= (high-low)/min(100, 1+m)
	// for m kernels (Bergstra et al. 2011 and hyperopt; Optuna's consider_magic_clip).
	magicClipMaxKernels = 100.0
	// scottMagnitude is the constant of the multivariate bandwidth rule
	// sigma = 0.2 * n^(-1/(D+4)) * (high-low): Scott's rule as used by BOHB (Falkner et al.
	// 2018) and by Optuna's multivariate TPE (SIGMA0_MAGNITUDE = 0.2).
	scottMagnitude = 0.2
	// minSigma is the smallest bandwidth when the magic clip is off (Optuna's EPS).
	minSigma = 1e-12
	// logQAsymptotic is the standardised distance beyond which log Q(x) (the Gaussian upper
	// tail) is computed from its asymptotic series instead of math.Erfc: erfc(37/sqrt 2) is
	// about 6e-300, still a normal float64, and there the series' error is below 1e-16.
	logQAsymptotic = 37.0
)

// dimension is one dimension of the search space, in TPE's internal (transformed) space.
//
// Transform: LogUniform is modelled in log space; Uniform, Int, StepInt and Discrete in their
// own linear space; Categorical by choice index (goptuna's internal representation). A discrete
// dimension is the grid gridLow + k*q, k = 0..gridK; its kernel density lives on
// [gridLow - q/2, gridTop + q/2], so that every grid value, including the upper bound, owns a
// cell of the same width q (goptuna's own random sampler never returns the upper bound of an
// integer range; this one does).
type dimension struct {
	name string
	dist interface{}
	kind dimKind
	// low, high bound the kernel density in the transformed space.
	low, high float64
	// isLog marks a LogUniform dimension (transformed value = log of goptuna's value).
	isLog bool
	// distLow, distHigh are goptuna's bounds of a continuous dimension (for clamping exp(x)).
	distLow, distHigh float64
	// q, gridLow, gridTop, gridK describe the grid of a discrete dimension.
	q, gridLow, gridTop float64
	gridK               int
	// nChoices is the number of choices of a categorical dimension.
	nChoices int
}

// newDimension builds the dimension for a goptuna distribution. single reports a distribution
// with only one value, which needs no model: its value is singleValue.
func newDimension(name string, dist interface{}) (dim dimension, single bool, singleValue float64, err error) {
	dim = dimension{name: name, dist: dist}
	switch d := dist.(type) {
	case goptuna.UniformDistribution:
		if !(d.Low <= d.High) || math.IsInf(d.Low, 0) || math.IsInf(d.High, 0) {
			return dim, false, 0, fmt.Errorf("search: tpe: param %q: bad range [%v, %v]", name, d.Low, d.High)
		}
		if d.Single() {
			return dim, true, d.Low, nil
		}
		dim.kind = continuous
		dim.low, dim.high = d.Low, d.High
		dim.distLow, dim.distHigh = d.Low, d.High
	case goptuna.LogUniformDistribution:
		if !(d.Low > 0 && d.Low <= d.High) || math.IsInf(d.High, 0) {
			return dim, false, 0, fmt.Errorf("search: tpe: param %q: bad log range [%v, %v]", name, d.Low, d.High)
		}
		if d.Single() {
			return dim, true, d.Low, nil
		}
		dim.kind = continuous
		dim.isLog = true
		dim.low, dim.high = math.Log(d.Low), math.Log(d.High)
		dim.distLow, dim.distHigh = d.Low, d.High
	case goptuna.IntUniformDistribution:
		if d.Low > d.High {
			return dim, false, 0, fmt.Errorf("search: tpe: param %q: bad int range [%d, %d]", name, d.Low, d.High)
		}
		if d.Single() {
			return dim, true, float64(d.Low), nil
		}
		dim.setGrid(float64(d.Low), 1, d.High-d.Low, float64(d.High))
	case goptuna.StepIntUniformDistribution:
		if d.Low > d.High || d.Step <= 0 {
			return dim, false, 0, fmt.Errorf("search: tpe: param %q: bad int range [%d, %d] step %d", name, d.Low, d.High, d.Step)
		}
		if d.Single() {
			return dim, true, float64(d.Low), nil
		}
		k := (d.High - d.Low) / d.Step
		dim.setGrid(float64(d.Low), float64(d.Step), k, float64(d.Low+k*d.Step))
	case goptuna.DiscreteUniformDistribution:
		if !(d.Low <= d.High) || !(d.Q > 0) || math.IsInf(d.Low, 0) || math.IsInf(d.High, 0) {
			return dim, false, 0, fmt.Errorf("search: tpe: param %q: bad discrete range [%v, %v] q %v", name, d.Low, d.High, d.Q)
		}
		// A tolerance of 1e-8 steps absorbs the rounding of (high-low)/q.
		k := int(math.Floor((d.High-d.Low)/d.Q + 1e-8))
		if d.Single() || k == 0 {
			return dim, true, d.Low, nil
		}
		top := d.Low + float64(k)*d.Q
		if math.Abs(top-d.High) <= 1e-8*d.Q || top > d.High {
			top = d.High // the upper bound is on the grid: return it exactly
		}
		dim.setGrid(d.Low, d.Q, k, top)
	case goptuna.CategoricalDistribution:
		if len(d.Choices) == 0 {
			return dim, false, 0, fmt.Errorf("search: tpe: param %q: no choices", name)
		}
		if d.Single() {
			return dim, true, 0, nil
		}
		dim.kind = categorical
		dim.nChoices = len(d.Choices)
	default:
		return dim, false, 0, fmt.Errorf("search: tpe: param %q: distribution %T: %w", name, dist, goptuna.ErrUnknownDistribution)
	}
	return dim, false, 0, nil
}

// setGrid makes d the discrete dimension gridLow + k*q, k = 0..gridK, whose top value is top.
func (d *dimension) setGrid(gridLow, q float64, gridK int, top float64) {
	d.kind = discrete
	d.q, d.gridLow, d.gridTop, d.gridK = q, gridLow, top, gridK
	d.low, d.high = gridLow-0.5*q, top+0.5*q
}

// transform maps goptuna's internal value of this dimension into TPE's space, clamped to the
// density's bounds (a value outside, say from a hand-enqueued trial, would otherwise put a
// kernel centre outside the truncation interval).
func (d *dimension) transform(v float64) float64 {
	if d.kind != continuous {
		return d.round(v)
	}
	x := v
	if d.isLog {
		x = math.Log(v)
	}
	return clamp(x, d.low, d.high)
}

// untransform maps a value of TPE's space back to goptuna's internal representation.
func (d *dimension) untransform(x float64) float64 {
	if d.kind != continuous {
		return d.round(x)
	}
	if d.isLog {
		return clamp(math.Exp(x), d.distLow, d.distHigh)
	}
	return clamp(x, d.distLow, d.distHigh)
}

// round maps a value of a categorical or discrete dimension to the nearest choice index or
// grid point; both spaces, goptuna's and TPE's, are the same for these kinds.
func (d *dimension) round(v float64) float64 {
	if d.kind == categorical {
		return math.Round(v)
	}
	return d.snap(v)
}

// snap rounds a discrete value to the nearest grid point (clamped to the grid) and returns
// exactly gridTop for the top point.
func (d *dimension) snap(x float64) float64 {
	k := math.Round((x - d.gridLow) / d.q)
	if !(k > 0) { // also NaN
		return d.gridLow
	}
	return d.gridPoint(k)
}

// gridPoint is the grid value gridLow + k*q of a discrete dimension for 0 <= k, exactly gridTop
// for k >= gridK.
func (d *dimension) gridPoint(k float64) float64 {
	if k >= float64(d.gridK) {
		return d.gridTop
	}
	return d.gridLow + k*d.q
}

// sampleUniform draws one value of this dimension uniformly (the start-up phase), in TPE's
// space: uniform in log space for LogUniform, uniform over all grid points including the upper
// bound for discrete dimensions, uniform over choices for categoricals.
func (d *dimension) sampleUniform(rng *rand.Rand) float64 {
	switch d.kind {
	case categorical:
		return float64(rng.IntN(d.nChoices))
	case discrete:
		return d.gridPoint(float64(rng.IntN(d.gridK + 1)))
	}
	return d.low + rng.Float64()*(d.high-d.low)
}

// parzenParams are the settings of the Parzen estimator (Optuna's _ParzenEstimatorParameters;
// consider_prior is always on).
type parzenParams struct {
	// priorWeight is the raw weight of the prior kernel; observations carry the weights of
	// defaultWeights (at most 1 each). Default 1.0.
	priorWeight float64
	// considerMagicClip bounds bandwidths below by (high-low)/min(100, 1+m). Default true.
	considerMagicClip bool
	// considerEndpoints lets the outermost kernels measure their distance to the range's
	// endpoints. Default false: they use their inner neighbour only.
	considerEndpoints bool
	// multivariate selects Scott's rule (shared by all kernels of a dimension) instead of the
	// per-kernel adaptive bandwidths.
	multivariate bool
}

// defaultParzenParams returns Optuna's documented defaults.
func defaultParzenParams() parzenParams {
	return parzenParams{priorWeight: 1.0, considerMagicClip: true}
}

// defaultWeights is the weight of each of n observations, oldest first (Bergstra et al.
// 2013, "Making a Science of Model Search", and Optuna's default_weights): uniform (1) for
// n < 25; otherwise the newest 25 weigh 1 and the oldest n-25 ramp linearly from 1/n up to 1,
// so that old observations fade as the search moves on.
func defaultWeights(n int) []float64 {
	w := make([]float64, n)
	if n < 25 {
		for i := range w {
			w[i] = 1
		}
		return w
	}
	ramp := n - 25
	for i := 0; i < ramp; i++ { // numpy.linspace(1/n, 1, ramp)
		if ramp == 1 {
			w[i] = 1 / float64(n)
			continue
		}
		t := float64(i) / float64(ramp-1)
		w[i] = 1/float64(n) + t*(1-1/float64(n))
	}
	for i := ramp; i < n; i++ {
		w[i] = 1
	}
	return w
}

// parzen is a mixture of m = n+1 kernels: one per observation plus the prior (the last).
// Kernel k is the product over dimensions of a truncated Gaussian N(mu[d][k], sigma[d][k])
// restricted to [low_d, high_d] (continuous and discrete dimensions) or of a categorical
// distribution catP[d][k] (categorical dimensions); its mixture weight is weights[k]. With one
// dimension this is the univariate estimator of Bergstra et al. 2011; with several it is the
// joint density of multivariate TPE (Falkner et al. 2018), where all dimensions of a draw share
// the kernel index k.
type parzen struct {
	dims []dimension
	// weights are the normalised mixture weights (sum 1), logWeights their logs.
	weights, logWeights []float64
	// mus and sigmas are [dim][kernel]; nil rows for categorical dimensions.
	mus, sigmas [][]float64
	// logMass[d][k] = log(Phi((high-mu)/sigma) - Phi((low-mu)/sigma)): the kernel's mass
	// inside the truncation interval, the normaliser of the truncated density.
	logMass [][]float64
	// catP and catLogP are [dim][kernel][choice]; nil rows for numerical dimensions.
	catP, catLogP [][][]float64
}

// newParzen fits the estimator to observations obs[d][i] (TPE's space, one row per
// dimension, observations oldest first) with per-observation weights w[i].
//
// Mixture weights: w_i / (sum w + priorWeight) for the observations and
// priorWeight / (sum w + priorWeight) for the prior.
//
// Prior (numerical): a Gaussian at (low+high)/2 with sigma = high-low, i.e. a broad bump that
// keeps every point of the range possible and stabilises the estimate when few observations
// exist (Bergstra et al. 2011, sec. 4.1).
//
// Bandwidths (numerical, univariate): sort the kernel centres including the prior's; each
// kernel's sigma is the larger of the distances to its left and right neighbours, where the
// range's endpoints low and high are the neighbours of the outermost centres; with
// considerEndpoints off, the outermost centres (when there are at least two) use their inner
// neighbour only. Multivariate: every observation kernel of dimension d has Scott's bandwidth
// sigma_d = 0.2 * max(n,1)^(-1/(D+4)) * (high_d-low_d) for D dimensions. Then all are clipped
// to [minSigma, high-low] with minSigma = (high-low)/min(100, 1+m) (the magic clip, m = n+1
// kernels) and the prior's sigma is set to high-low.
//
// Categorical: kernel i puts priorWeight/(n+1) on every choice plus 1 on its observed choice,
// normalised; the prior kernel is uniform.
func newParzen(dims []dimension, obs [][]float64, w []float64, p parzenParams) *parzen {
	n := len(w)
	m := n + 1
	pe := &parzen{
		dims:       dims,
		weights:    make([]float64, m),
		logWeights: make([]float64, m),
		mus:        make([][]float64, len(dims)),
		sigmas:     make([][]float64, len(dims)),
		logMass:    make([][]float64, len(dims)),
		catP:       make([][][]float64, len(dims)),
		catLogP:    make([][][]float64, len(dims)),
	}
	total := p.priorWeight
	for _, wi := range w {
		total += wi
	}
	for i, wi := range w {
		pe.weights[i] = wi / total
	}
	pe.weights[n] = p.priorWeight / total
	for k, wk := range pe.weights {
		pe.logWeights[k] = math.Log(wk)
	}

	for d := range dims {
		dim := &dims[d]
		if dim.kind == categorical {
			pe.catP[d], pe.catLogP[d] = categoricalKernels(obs[d], dim.nChoices, p.priorWeight)
			continue
		}
		mus, sigmas := numericalKernels(obs[d], dim.low, dim.high, len(dims), p)
		pe.mus[d], pe.sigmas[d] = mus, sigmas
		pe.logMass[d] = make([]float64, m)
		for k := range mus {
			pe.logMass[d][k] = logNormalMass((dim.low-mus[k])/sigmas[k], (dim.high-mus[k])/sigmas[k])
		}
	}
	return pe
}

// numericalKernels returns the centres and bandwidths of the n observation kernels plus the
// prior (last) for one numerical dimension on [low, high] of a D-dimensional estimator; see
// newParzen for the rules.
func numericalKernels(obs []float64, low, high float64, nDims int, p parzenParams) (mus, sigmas []float64) {
	n := len(obs)
	m := n + 1
	span := high - low
	mus = make([]float64, m)
	copy(mus, obs) // never sort the caller's slice, nor mus in place (goptuna's TPE bug)
	mus[n] = 0.5 * (low + high)
	sigmas = make([]float64, m)

	if p.multivariate {
		s := scottMagnitude * math.Pow(math.Max(float64(n), 1), -1/float64(nDims+4)) * span
		for k := range sigmas {
			sigmas[k] = s
		}
	} else {
		order := make([]int, m)
		for k := range order {
			order[k] = k
		}
		sort.SliceStable(order, func(a, b int) bool { return mus[order[a]] < mus[order[b]] })
		// ext = [low, sorted mus..., high]
		ext := make([]float64, m+2)
		ext[0], ext[m+1] = low, high
		for j, k := range order {
			ext[j+1] = mus[k]
		}
		for j, k := range order {
			sigmas[k] = math.Max(ext[j+1]-ext[j], ext[j+2]-ext[j+1])
		}
		if !p.considerEndpoints && m >= 2 {
			sigmas[order[0]] = ext[2] - ext[1]
			sigmas[order[m-1]] = ext[m] - ext[m-1]
		}
	}

	sigmaLow, sigmaHigh := minSigma, span
	if p.considerMagicClip {
		sigmaLow = span / math.Min(magicClipMaxKernels, 1+float64(m))
	}
	for k := range sigmas {
		sigmas[k] = clamp(sigmas[k], sigmaLow, sigmaHigh)
	}
	sigmas[n] = span // the prior
	return mus, sigmas
}

// categoricalKernels returns each kernel's probabilities over nChoices choices and their
// logs: observation kernel i is proportional to priorWeight/(n+1) + [c == obs_i], the prior
// kernel (last) is uniform.
func categoricalKernels(obs []float64, nChoices int, priorWeight float64) (p, logP [][]float64) {
	n := len(obs)
	p = make([][]float64, n+1)
	logP = make([][]float64, n+1)
	base := priorWeight / float64(n+1)
	for k := 0; k <= n; k++ {
		row := make([]float64, nChoices)
		for c := range row {
			row[c] = base
		}
		if k < n {
			c := int(obs[k])
			if c >= 0 && c < nChoices {
				row[c]++
			}
		}
		sum := 0.0
		for _, v := range row {
			sum += v
		}
		lrow := make([]float64, nChoices)
		for c := range row {
			row[c] /= sum
			lrow[c] = math.Log(row[c])
		}
		p[k], logP[k] = row, lrow
	}
	return p, logP
}

// sample draws size points (TPE's space, [point][dim]) from the mixture: a kernel index k
// with probability weights[k], then every dimension from kernel k, a truncated Gaussian drawn
// by inverting its CDF (then snapped to the grid for discrete dimensions) or a choice drawn
// from its categorical row. The order of draws is fixed, so a seeded rng gives the same points.
func (pe *parzen) sample(rng *rand.Rand, size int) [][]float64 {
	out := make([][]float64, size)
	for i := range out {
		k := drawIndex(rng, pe.weights)
		x := make([]float64, len(pe.dims))
		for d := range pe.dims {
			dim := &pe.dims[d]
			switch dim.kind {
			case categorical:
				x[d] = float64(drawIndex(rng, pe.catP[d][k]))
			default:
				v := truncNormal(rng, pe.mus[d][k], pe.sigmas[d][k], dim.low, dim.high)
				if dim.kind == discrete {
					v = dim.snap(v)
				}
				x[d] = v
			}
		}
		out[i] = x
	}
	return out
}

// logPDF returns log p(x) for a point x of TPE's space (discrete values on the grid):
//
//	log p(x) = logsumexp_k [ log weights[k] + sum_d log p_kd(x_d) ]
//
// where, for a continuous dimension, p_kd is the truncated Gaussian density
// phi((x-mu)/sigma) / (sigma * Z) with Z = Phi((high-mu)/sigma) - Phi((low-mu)/sigma); for a
// discrete dimension it is the kernel's mass on the grid cell [x-q/2, x+q/2] (intersected with
// [low, high]) divided by Z, i.e. the probability of drawing that grid value; for a
// categorical dimension it is the kernel's probability of the choice.
func (pe *parzen) logPDF(x []float64) float64 {
	m := len(pe.weights)
	terms := make([]float64, m)
	copy(terms, pe.logWeights)
	for d := range pe.dims {
		dim := &pe.dims[d]
		switch dim.kind {
		case categorical:
			c := int(x[d])
			for k := 0; k < m; k++ {
				if c < 0 || c >= dim.nChoices {
					terms[k] = math.Inf(-1)
					continue
				}
				terms[k] += pe.catLogP[d][k][c]
			}
		case continuous:
			for k := 0; k < m; k++ {
				mu, sigma := pe.mus[d][k], pe.sigmas[d][k]
				z := (x[d] - mu) / sigma
				terms[k] += -0.5*z*z - math.Log(sigma) - 0.5*math.Log(2*math.Pi) - pe.logMass[d][k]
			}
		case discrete:
			lo := math.Max(x[d]-0.5*dim.q, dim.low)
			hi := math.Min(x[d]+0.5*dim.q, dim.high)
			for k := 0; k < m; k++ {
				mu, sigma := pe.mus[d][k], pe.sigmas[d][k]
				terms[k] += logNormalMass((lo-mu)/sigma, (hi-mu)/sigma) - pe.logMass[d][k]
			}
		}
	}
	return logSumExp(terms)
}

// drawIndex draws an index with probability proportional to p[i] (p sums to about 1) by
// inverting the cumulative sum; rounding at the end of the sum falls to the last positive entry.
func drawIndex(rng *rand.Rand, p []float64) int {
	u := rng.Float64()
	acc := 0.0
	last := 0
	for i, v := range p {
		if v <= 0 {
			continue
		}
		acc += v
		last = i
		if u < acc {
			return i
		}
	}
	return last
}

// truncNormal draws from N(mu, sigma) truncated to [low, high] by inverting the CDF: with
// u uniform on [0,1), p = Phi(a) + u*(Phi(b)-Phi(a)), a = (low-mu)/sigma, b = (high-mu)/sigma,
// and x = mu + sigma*Phi^-1(p). The lower half is inverted through Phi and the upper half
// through the upper tail Q = 1-Phi, so that neither tail loses precision.
func truncNormal(rng *rand.Rand, mu, sigma, low, high float64) float64 {
	a, b := (low-mu)/sigma, (high-mu)/sigma
	u := rng.Float64()
	pa, pb := normalCDF(a), normalCDF(b)
	var z float64
	if p := pa + u*(pb-pa); p < 0.5 {
		z = -math.Sqrt2 * math.Erfcinv(2*p)
	} else {
		qa, qb := normalCDF(-a), normalCDF(-b) // Q(a), Q(b)
		q := qb + (1-u)*(qa-qb)
		z = math.Sqrt2 * math.Erfcinv(2*q)
	}
	x := mu + sigma*z
	if math.IsNaN(x) {
		x = mu
	}
	return clamp(x, low, high)
}

// clamp limits x to [low, high] (NaN stays NaN).
func clamp(x, low, high float64) float64 {
	return math.Min(math.Max(x, low), high)
}

// normalCDF is the standard normal CDF, Phi(z) = erfc(-z/sqrt 2)/2, accurate in the lower tail.
func normalCDF(z float64) float64 {
	return 0.5 * math.Erfc(-z/math.Sqrt2)
}

// logQ is log Q(x), the log of the standard normal upper tail 1-Phi(x), finite for every
// finite x: math.Erfc while it stays a normal float64, then the asymptotic series
// Q(x) = phi(x)/x * (1 - 1/x^2 + 3/x^4 - 15/x^6 + ...).
func logQ(x float64) float64 {
	if x < logQAsymptotic {
		return math.Log(0.5 * math.Erfc(x/math.Sqrt2))
	}
	x2 := x * x
	series := 1 - 1/x2 + 3/(x2*x2) - 15/(x2*x2*x2)
	return -0.5*x2 - math.Log(x) - 0.5*math.Log(2*math.Pi) + math.Log(series)
}

// logNormalMass is log(Phi(b) - Phi(a)), the standard normal mass of [a, b], computed
// without cancellation: in a tail it is log(Q(a) - Q(b)) = log Q(a) + log1p(-exp(log Q(b) -
// log Q(a))) (mirrored for the lower tail); an interval containing 0 has mass at least
// min(Phi(b)-1/2, 1/2-Phi(a)) and is computed directly from erf. Empty intervals give -Inf.
func logNormalMass(a, b float64) float64 {
	switch {
	case !(a < b):
		return math.Inf(-1)
	case a > 0:
		return logDiffExp(logQ(a), logQ(b))
	case b < 0:
		return logDiffExp(logQ(-b), logQ(-a))
	}
	return math.Log(0.5 * (math.Erf(b/math.Sqrt2) - math.Erf(a/math.Sqrt2)))
}

// logDiffExp is log(exp(la) - exp(lb)) for la >= lb, computed as la + log1p(-exp(lb-la)).
func logDiffExp(la, lb float64) float64 {
	if math.IsInf(la, -1) || lb >= la {
		return math.Inf(-1)
	}
	return la + math.Log1p(-math.Exp(lb-la))
}

// logSumExp is log(sum_i exp(v_i)), computed as max + log(sum exp(v_i - max)) so that
// neither very large nor very negative terms overflow or vanish. All -Inf gives -Inf.
func logSumExp(v []float64) float64 {
	mx := math.Inf(-1)
	for _, x := range v {
		if x > mx {
			mx = x
		}
	}
	if math.IsInf(mx, 0) || math.IsNaN(mx) {
		return mx
	}
	sum := 0.0
	for _, x := range v {
		sum += math.Exp(x - mx)
	}
	return mx + math.Log(sum)
}
