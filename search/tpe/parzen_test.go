package tpe

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testDimension builds a dimension or fails the test.
func testDimension(t *testing.T, name string, dist interface{}) dimension {
	t.Helper()
	dim, single, _, err := newDimension(name, dist)
	require.NoError(t, err)
	require.False(t, single)
	return dim
}

var unitBox = goptuna.UniformDistribution{Low: -5, High: 5}

func TestDefaultWeights(t *testing.T) {
	assert.Empty(t, defaultWeights(0))
	assert.Equal(t, []float64{1, 1, 1}, defaultWeights(3))
	for _, n := range []int{24, 25} { // uniform up to 25 (the ramp has n-25 = 0 entries at 25)
		for _, w := range defaultWeights(n) {
			assert.Equal(t, 1.0, w)
		}
	}
	w26 := defaultWeights(26) // numpy.linspace(1/26, 1, 1) = [1/26]
	assert.InDelta(t, 1.0/26, w26[0], 1e-15)
	assert.Equal(t, 1.0, w26[1])
	w28 := defaultWeights(28) // ramp [1/28, (1/28+1)/2, 1], then 25 ones
	require.Len(t, w28, 28)
	assert.InDelta(t, 0.03571428571428571, w28[0], 1e-15)
	assert.InDelta(t, 0.5178571428571429, w28[1], 1e-15)
	assert.InDelta(t, 1.0, w28[2], 1e-15)
	for _, w := range w28[3:] {
		assert.Equal(t, 1.0, w)
	}
}

func TestDefaultGamma(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 1, 9: 1, 10: 1, 11: 2, 100: 10, 101: 11, 250: 25, 1000: 25} {
		assert.Equal(t, want, DefaultGamma(n), "n=%d", n)
	}
}

func TestKernelsHandComputed(t *testing.T) {
	p := defaultParzenParams()

	// One observation at 2 on [-5, 5]: centres sorted 0 (prior), 2; padded -5, 0, 2, 5.
	// Endpoints off: the outer centres take their inner neighbour's distance, 2 each; the
	// magic clip raises that to 10/min(100, 1+2) = 3.333; the prior gets 10.
	mus, sigmas := numericalKernels([]float64{2}, -5, 5, 1, p)
	assert.Equal(t, []float64{2, 0}, mus)
	assert.InDeltaSlice(t, []float64{10.0 / 3, 10}, sigmas, 1e-12)

	// Observations -1, 3: sorted -1, 0 (prior), 3; padded -5, -1, 0, 3, 5. Interior rule
	// max(left, right): -1 -> 4, 0 -> 3, 3 -> 3; endpoints off: -1 -> 1, 3 -> 3. Magic clip
	// 10/min(100, 4) = 2.5 lifts -1 to 2.5. Prior 10.
	obs := []float64{3, -1}
	mus, sigmas = numericalKernels(obs, -5, 5, 1, p)
	assert.Equal(t, []float64{3, -1, 0}, mus)
	assert.InDeltaSlice(t, []float64{3, 2.5, 10}, sigmas, 1e-12)
	assert.Equal(t, []float64{3, -1}, obs, "the caller's observations must not be reordered")

	// Same with endpoints considered: -1 keeps max(4, 1) = 4.
	pe := p
	pe.considerEndpoints = true
	_, sigmas = numericalKernels(obs, -5, 5, 1, pe)
	assert.InDeltaSlice(t, []float64{3, 4, 10}, sigmas, 1e-12)

	// Without the magic clip, -1 keeps its 1.
	pc := p
	pc.considerMagicClip = false
	_, sigmas = numericalKernels(obs, -5, 5, 1, pc)
	assert.InDeltaSlice(t, []float64{3, 1, 10}, sigmas, 1e-12)

	// The magic clip's divisor is capped at 100: 300 identical points have neighbours at
	// distance 0 and get sigma = 10/100, except the first in sorted order (kernel 0, a stable
	// sort keeps ties in order), whose left neighbour is the prior's centre at distance 1.5.
	many := make([]float64, 300)
	for i := range many {
		many[i] = 1.5
	}
	_, sigmas = numericalKernels(many, -5, 5, 1, p)
	assert.InDelta(t, 1.5, sigmas[0], 1e-15)
	assert.InDelta(t, 0.1, sigmas[150], 1e-15)
	assert.InDelta(t, 10, sigmas[300], 0)

	// Multivariate (Scott): 0.2 * 16^(-1/(2+4)) * 10 for every observation kernel.
	pm := p
	pm.multivariate = true
	_, sigmas = numericalKernels(make([]float64, 16), -5, 5, 2, pm)
	for k := 0; k < 16; k++ {
		assert.InDelta(t, 1.2599210498948732, sigmas[k], 1e-12)
	}
	assert.Equal(t, 10.0, sigmas[16])
}

func TestMixtureWeights(t *testing.T) {
	dim := testDimension(t, "x", unitBox)
	// Three observations of weight 1 and the prior of weight 1: each 1/4.
	pe := newParzen([]dimension{dim}, [][]float64{{1, 2, 3}}, []float64{1, 1, 1}, defaultParzenParams())
	assert.InDeltaSlice(t, []float64{0.25, 0.25, 0.25, 0.25}, pe.weights, 1e-15)
	// Prior weight 2 and ramped weights 0.5, 1: (0.5, 1, 2) / 3.5.
	p := defaultParzenParams()
	p.priorWeight = 2
	pe = newParzen([]dimension{dim}, [][]float64{{1, 2}}, []float64{0.5, 1}, p)
	assert.InDeltaSlice(t, []float64{0.5 / 3.5, 1 / 3.5, 2 / 3.5}, pe.weights, 1e-15)
	// No observation: the prior alone.
	pe = newParzen([]dimension{dim}, [][]float64{{}}, nil, defaultParzenParams())
	assert.Equal(t, []float64{1}, pe.weights)
}

func TestLogPDFHandComputed(t *testing.T) {
	dim := testDimension(t, "x", unitBox)
	p := defaultParzenParams()

	// The prior alone, N(0, 10) truncated to [-5, 5]:
	// log( phi(0)/10 / (Phi(0.5) - Phi(-0.5)) ) = log(0.0398942.../0.3829249...).
	prior := newParzen([]dimension{dim}, [][]float64{{}}, nil, p)
	assert.InDelta(t, -2.261607292503096, prior.logPDF([]float64{0}), 1e-12)

	// Observations -1, 3 (kernels N(3, 3), N(-1, 2.5), N(0, 10), weights 1/3 each) at x = 1.
	two := newParzen([]dimension{dim}, [][]float64{{3, -1}}, []float64{1, 1}, p)
	assert.InDelta(t, -2.091474819177876, two.logPDF([]float64{1}), 1e-12)

	// Integer 0..9: cells of width 1 on [-0.5, 9.5]; the prior N(4.5, 10) gives the cell of 0
	// the mass (Phi(-0.4) - Phi(-0.5)) / (Phi(0.5) - Phi(-0.5)) = 0.0941195...
	idim := testDimension(t, "n", goptuna.IntUniformDistribution{Low: 0, High: 9})
	ip := newParzen([]dimension{idim}, [][]float64{{}}, nil, p)
	assert.InDelta(t, math.Log(0.0941195454813175), ip.logPDF([]float64{0}), 1e-12)

	// Categorical, 4 choices, observations 0, 2, 2, 3, 2: a kernel is (1/6 + [c = obs]) / (10/6),
	// i.e. 0.7 on its choice and 0.1 elsewhere; the prior is uniform. With weights 1/6 each:
	// p(0) = (0.7 + 4*0.1 + 0.25)/6 = 0.225, p(1) = (5*0.1 + 0.25)/6 = 0.125,
	// p(2) = (3*0.7 + 2*0.1 + 0.25)/6 = 0.425, p(3) = 0.225.
	cdim := testDimension(t, "c", goptuna.CategoricalDistribution{Choices: []string{"a", "b", "c", "d"}})
	cp := newParzen([]dimension{cdim}, [][]float64{{0, 2, 2, 3, 2}}, []float64{1, 1, 1, 1, 1}, p)
	assert.InDeltaSlice(t, []float64{0.7, 0.1, 0.1, 0.1}, cp.catP[0][0], 1e-15)
	for c, want := range []float64{0.225, 0.125, 0.425, 0.225} {
		assert.InDelta(t, math.Log(want), cp.logPDF([]float64{float64(c)}), 1e-12, "choice %d", c)
	}
}

// The mixture is a probability distribution: the continuous density integrates to 1 over its
// range (Optuna 3.1's does not: optuna#5109), the discrete cell masses and categorical
// probabilities sum to 1.
func TestDensityNormalised(t *testing.T) {
	p := defaultParzenParams()
	dim := testDimension(t, "x", unitBox)
	obs := []float64{-4.9, -1, 0.2, 0.25, 3, 4.99}
	pe := newParzen([]dimension{dim}, [][]float64{obs}, defaultWeights(len(obs)), p)
	const steps = 200000 // midpoint rule
	h := 10.0 / steps
	integral := 0.0
	for i := 0; i < steps; i++ {
		integral += math.Exp(pe.logPDF([]float64{-5 + (float64(i)+0.5)*h})) * h
	}
	assert.InDelta(t, 1, integral, 1e-6)

	for _, dist := range []interface{}{
		goptuna.IntUniformDistribution{Low: -3, High: 7},
		goptuna.StepIntUniformDistribution{Low: 2, High: 21, Step: 3},
		goptuna.DiscreteUniformDistribution{Low: 0.1, High: 1.0, Q: 0.1},
	} {
		dim := testDimension(t, "x", dist)
		obs := []float64{dim.gridLow, dim.gridTop, dim.snap(dim.gridLow + 2*dim.q)}
		pe := newParzen([]dimension{dim}, [][]float64{obs}, []float64{1, 1, 1}, p)
		total := 0.0
		for k := 0; k <= dim.gridK; k++ {
			total += math.Exp(pe.logPDF([]float64{dim.snap(dim.gridLow + float64(k)*dim.q)}))
		}
		assert.InDelta(t, 1, total, 1e-12, "%T", dist)
	}
}

func TestLogSumExpStable(t *testing.T) {
	assert.InDelta(t, -1000+math.Ln2, logSumExp([]float64{-1000, -1000}), 1e-12)
	assert.InDelta(t, 1000+math.Ln2, logSumExp([]float64{1000, 1000}), 1e-12)
	assert.InDelta(t, 0, logSumExp([]float64{0, math.Inf(-1)}), 0)
	assert.InDelta(t, 800, logSumExp([]float64{800, -800}), 1e-12)
	assert.True(t, math.IsInf(logSumExp([]float64{math.Inf(-1), math.Inf(-1)}), -1))
	assert.True(t, math.IsInf(logSumExp(nil), -1))
}

func TestLogNormalMass(t *testing.T) {
	// log(Phi(2) - Phi(1)), directly and mirrored.
	assert.InDelta(t, -1.9957982691807552, logNormalMass(1, 2), 1e-13)
	assert.InDelta(t, -1.9957982691807552, logNormalMass(-2, -1), 1e-13)
	assert.InDelta(t, math.Log(0.3829249225480262), logNormalMass(-0.5, 0.5), 1e-13)
	assert.True(t, math.IsInf(logNormalMass(1, 1), -1))
	// Deep tails stay finite where erf differences would be 0: for a -> inf,
	// log Q(a) ~ -a^2/2 - log a - log sqrt(2 pi).
	for _, a := range []float64{30, 40, 100, 1e3} {
		got := logNormalMass(a, math.Inf(1))
		want := -a*a/2 - math.Log(a) - 0.5*math.Log(2*math.Pi)
		assert.InDelta(t, want, got, 2/(a*a), "a=%v", a)
		assert.False(t, math.IsInf(logNormalMass(a, a+0.01), 0), "a=%v", a)
		assert.InDelta(t, got, logNormalMass(-math.Inf(1), -a), 1e-9*math.Abs(got))
	}
	// The two formulas of log Q meet at the switch-over point.
	assert.InDelta(t, math.Log(0.5*math.Erfc(logQAsymptotic/math.Sqrt2)), logQ(logQAsymptotic), 1e-9)
	// A discrete candidate 80 sigmas from every kernel of g keeps a finite score.
	dim := testDimension(t, "n", goptuna.IntUniformDistribution{Low: 0, High: 100000})
	pe := newParzen([]dimension{dim}, [][]float64{{0, 0, 0, 0}}, []float64{1, 1, 1, 1}, defaultParzenParams())
	pe.weights, pe.logWeights = pe.weights[:4], pe.logWeights[:4] // drop the prior: kernels only
	assert.False(t, math.IsInf(pe.logPDF([]float64{100000}), 0))
}

func TestTruncNormalSampling(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// N(0, 1) truncated to [-1, 2] has mean (phi(-1) - phi(2)) / (Phi(2) - Phi(-1)).
	const n = 200000
	sum := 0.0
	for i := 0; i < n; i++ {
		x := truncNormal(rng, 0, 1, -1, 2)
		require.True(t, x >= -1 && x <= 2)
		sum += x
	}
	assert.InDelta(t, 0.22963717909132897, sum/n, 0.005)
	// A narrow kernel at the edge never leaves its interval.
	for i := 0; i < 1000; i++ {
		x := truncNormal(rng, 5, 0.05, -5, 5)
		require.True(t, x >= -5 && x <= 5, "x=%v", x)
	}
}

func TestDimTransform(t *testing.T) {
	l := testDimension(t, "l", goptuna.LogUniformDistribution{Low: 1e-3, High: 1e3})
	assert.InDelta(t, math.Log(1e-3), l.low, 1e-15)
	assert.Equal(t, 1e3, l.untransform(l.high+1)) // clamped to the distribution
	assert.InDelta(t, 10, l.untransform(l.transform(10)), 1e-12)

	// Int 0..3 (cells [-0.5, 3.5]): the upper bound is a proper grid value.
	i := testDimension(t, "i", goptuna.IntUniformDistribution{Low: 0, High: 3})
	assert.Equal(t, -0.5, i.low)
	assert.Equal(t, 3.5, i.high)
	assert.Equal(t, 3.0, i.untransform(3.49))
	assert.Equal(t, 3.0, i.untransform(i.high))
	assert.Equal(t, 0.0, i.untransform(i.low))

	// StepInt 2..21 step 3: grid 2, 5, ..., 20 (21 is off the grid).
	s := testDimension(t, "s", goptuna.StepIntUniformDistribution{Low: 2, High: 21, Step: 3})
	assert.Equal(t, 20.0, s.gridTop)
	assert.Equal(t, 6, s.gridK)
	assert.Equal(t, 20.0, s.untransform(s.high))
	assert.Equal(t, 11.0, s.untransform(12.4))

	// Discrete 0.1..1.0 step 0.1: the top is exactly 1.0, not 0.1 + 9*0.1.
	d := testDimension(t, "d", goptuna.DiscreteUniformDistribution{Low: 0.1, High: 1.0, Q: 0.1})
	assert.Equal(t, 1.0, d.gridTop)
	assert.Equal(t, 1.0, d.untransform(d.high))

	// Uniform start-up draws reach every grid value, the upper bound included.
	rng := rand.New(rand.NewPCG(3, 4))
	seen := map[float64]int{}
	for k := 0; k < 400; k++ {
		seen[i.sampleUniform(rng)]++
	}
	assert.Len(t, seen, 4)
	assert.Positive(t, seen[3])

	// Single-valued and bad distributions.
	_, single, v, err := newDimension("one", goptuna.IntUniformDistribution{Low: 4, High: 4})
	require.NoError(t, err)
	assert.True(t, single)
	assert.Equal(t, 4.0, v)
	_, _, _, err = newDimension("bad", goptuna.LogUniformDistribution{Low: 0, High: 1})
	assert.ErrorContains(t, err, "search: tpe")
	_, _, _, err = newDimension("odd", struct{}{})
	assert.ErrorIs(t, err, goptuna.ErrUnknownDistribution)
}

// optunaCase is one case of testdata/optuna31_parzen.json (see its generator).
type optunaCase struct {
	Name           string    `json:"name"`
	Multivariate   bool      `json:"multivariate"`
	Weights        []float64 `json:"weights"`
	LogPDF         []float64 `json:"log_pdf"`
	LogPDFOptuna31 []float64 `json:"log_pdf_optuna31"`
	Dims           []struct {
		Name       string      `json:"name"`
		Kind       string      `json:"kind"`
		Obs        []float64   `json:"obs"`
		Probes     []float64   `json:"probes"`
		Low        float64     `json:"low"`
		High       float64     `json:"high"`
		Step       float64     `json:"step"`
		NChoices   int         `json:"n_choices"`
		Mus        []float64   `json:"mus"`
		Sigmas     []float64   `json:"sigmas"`
		CatWeights [][]float64 `json:"cat_weights"`
	} `json:"dims"`
}

// TestParzenMatchesOptuna31 checks the estimator against Optuna 3.1's _ParzenEstimator on
// the same observations: identical kernel centres, bandwidths, mixture and categorical
// weights, and log density equal to Optuna's once its missing -log(sigma) (optuna#5109) is
// restored. It also shows that this term is the only difference: dropping it here reproduces
// Optuna 3.1's numbers.
func TestParzenMatchesOptuna31(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "optuna31_parzen.json"))
	require.NoError(t, err)
	var file struct {
		Cases []optunaCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &file))
	require.NotEmpty(t, file.Cases)

	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			dims := make([]dimension, len(c.Dims))
			obs := make([][]float64, len(c.Dims))
			for d, jd := range c.Dims {
				var dist interface{}
				switch {
				case jd.Kind == "float":
					dist = goptuna.UniformDistribution{Low: jd.Low, High: jd.High}
				case jd.Kind == "log":
					dist = goptuna.LogUniformDistribution{Low: jd.Low, High: jd.High}
				case jd.Kind == "int" && jd.Step == 1:
					dist = goptuna.IntUniformDistribution{Low: int(jd.Low), High: int(jd.High)}
				case jd.Kind == "int":
					dist = goptuna.StepIntUniformDistribution{Low: int(jd.Low), High: int(jd.High), Step: int(jd.Step)}
				case jd.Kind == "categorical":
					dist = goptuna.CategoricalDistribution{Choices: make([]string, jd.NChoices)}
				}
				dims[d] = testDimension(t, jd.Name, dist)
				obs[d] = make([]float64, len(jd.Obs))
				for i, v := range jd.Obs {
					obs[d][i] = dims[d].transform(v)
				}
			}
			p := defaultParzenParams()
			p.multivariate = c.Multivariate
			pe := newParzen(dims, obs, defaultWeights(len(obs[0])), p)
			assert.InDeltaSlice(t, c.Weights, pe.weights, 1e-15)
			for d, jd := range c.Dims {
				if jd.Kind == "categorical" {
					for k := range jd.CatWeights {
						assert.InDeltaSlice(t, jd.CatWeights[k], pe.catP[d][k], 1e-15)
					}
					continue
				}
				assert.InDeltaSlice(t, jd.Mus, pe.mus[d], 1e-12)
				assert.InDeltaSlice(t, jd.Sigmas, pe.sigmas[d], 1e-12)
			}
			for j := range c.LogPDF {
				x := make([]float64, len(dims))
				for d := range dims {
					x[d] = dims[d].transform(c.Dims[d].Probes[j])
				}
				assert.InDelta(t, c.LogPDF[j], pe.logPDF(x), 1e-9, "probe %d", j)
				assert.InDelta(t, c.LogPDFOptuna31[j], logPDFWithoutLogSigma(pe, x), 1e-9, "probe %d", j)
			}
		})
	}
}

// logPDFWithoutLogSigma is logPDF with Optuna 3.1's omission of -log(sigma) in continuous
// kernels (optuna#5109), for TestParzenMatchesOptuna31 only.
func logPDFWithoutLogSigma(pe *parzen, x []float64) float64 {
	terms := append([]float64(nil), pe.logWeights...)
	for d := range pe.dims {
		dim := &pe.dims[d]
		for k := range terms {
			switch dim.kind {
			case categorical:
				terms[k] += pe.catLogP[d][k][int(x[d])]
			case continuous:
				z := (x[d] - pe.mus[d][k]) / pe.sigmas[d][k]
				terms[k] += -0.5*z*z - 0.5*math.Log(2*math.Pi) - pe.logMass[d][k]
			case discrete:
				lo := (math.Max(x[d]-0.5*dim.q, dim.low) - pe.mus[d][k]) / pe.sigmas[d][k]
				hi := (math.Min(x[d]+0.5*dim.q, dim.high) - pe.mus[d][k]) / pe.sigmas[d][k]
				terms[k] += logNormalMass(lo, hi) - pe.logMass[d][k]
			}
		}
	}
	return logSumExp(terms)
}
