package spec

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gctune/gctune/profile"
)

// genSampler draws sizes or lifetimes from one Dist with gonum's stat/distuv
// distributions, whose Src is the phase's seeded PCG. The distribution is held by value and
// dispatched with a switch rather than through distuv.Rander: the generator's inner loop
// draws two samples per record and the interface call showed in profiles.
type genSampler struct {
	kind     genKind
	value    float64 // genFixed
	lo, hi   float64 // clamp bounds
	fraction float64 // genFraction
	phaseEnd uint64  // genPhaseEnd: the end of the named phase
	uniform  distuv.Uniform
	exp      distuv.Exponential
	lognorm  distuv.LogNormal
	normal   distuv.Normal
	gamma    distuv.Gamma
	weibull  distuv.Weibull
	pareto   distuv.Pareto
	cat      distuv.Categorical
	choice   []float64  // genChoice values
	weights  []float64  // genChoice weights, normalised (for the mean)
	table    *sizeTable // the rounded size distribution tabulated, when it is small
}

type genKind uint8

const (
	genFixed genKind = iota
	genUniform
	genExponential
	genLognormal
	genNormal
	genGamma
	genWeibull
	genPareto
	genChoice
	genImmediate
	genUntilEnd
	genPhaseEnd
	genFraction
	genRestOfRun // uniform lifetime without max: death uniform over the rest of the run
)

// newSampler builds a sampler for a validated Dist; src may be nil when only the mean is
// wanted.
func newSampler(d *Dist, lifetime bool, src rand.Source, phaseEnd uint64) *genSampler {
	g := &genSampler{lo: d.MinBytes, hi: math.Inf(1), phaseEnd: phaseEnd}
	if d.MaxBytes != 0 {
		g.hi = d.MaxBytes
	}
	if !lifetime {
		g.lo = max(g.lo, profile.MinObjectBytes)
		g.hi = min(g.hi, specMaxObjectBytes)
	}
	if k, ok := lookupDistKind(d.Kind); ok {
		k.sampler(g, d, lifetime, src)
	}
	if !lifetime {
		g.table = newSizeTable(g, src)
	}
	return g
}

// The sampler set-ups of the distribution kinds (distKinds' sampler column).

func samplerFixed(g *genSampler, d *Dist, _ bool, _ rand.Source) {
	g.kind, g.value = genFixed, d.ValueBytes
}

func samplerUniform(g *genSampler, d *Dist, lifetime bool, src rand.Source) {
	switch {
	case lifetime && d.MaxBytes == 0:
		g.kind = genRestOfRun
		g.uniform = distuv.Uniform{Min: 0, Max: 1, Src: src}
	case d.MinBytes == d.MaxBytes: // degenerate: a fixed value
		g.kind, g.value = genFixed, d.MinBytes
	default:
		g.kind = genUniform
		g.uniform = distuv.Uniform{Min: d.MinBytes, Max: d.MaxBytes, Src: src}
	}
}

func samplerExponential(g *genSampler, d *Dist, _ bool, src rand.Source) {
	g.kind = genExponential
	g.exp = distuv.Exponential{Rate: 1 / d.MeanBytes, Src: src}
}

func samplerLognormal(g *genSampler, d *Dist, _ bool, src rand.Source) {
	g.kind = genLognormal
	g.lognorm = distuv.LogNormal{Mu: math.Log(d.MedianBytes), Sigma: d.Sigma, Src: src}
	if d.Sigma == 0 { // degenerate: the median
		g.kind, g.value = genFixed, d.MedianBytes
	}
}

func samplerNormal(g *genSampler, d *Dist, _ bool, src rand.Source) {
	g.kind = genNormal
	g.normal = distuv.Normal{Mu: d.MeanBytes, Sigma: d.StdDevBytes, Src: src}
	if d.StdDevBytes == 0 {
		g.kind, g.value = genFixed, d.MeanBytes
	}
}

func samplerGamma(g *genSampler, d *Dist, _ bool, src rand.Source) {
	g.kind = genGamma
	g.gamma = distuv.Gamma{Alpha: d.Shape, Beta: d.Shape / d.MeanBytes, Src: src}
}

func samplerWeibull(g *genSampler, d *Dist, _ bool, src rand.Source) {
	g.kind = genWeibull
	g.weibull = distuv.Weibull{K: d.Shape, Lambda: d.ScaleBytes, Src: src}
}

func samplerPareto(g *genSampler, d *Dist, _ bool, src rand.Source) {
	g.kind = genPareto
	g.pareto = distuv.Pareto{Xm: d.ScaleBytes, Alpha: d.Alpha, Src: src}
}

func samplerChoice(g *genSampler, d *Dist, _ bool, src rand.Source) {
	g.kind = genChoice
	g.choice = d.ValuesBytes
	g.weights = make([]float64, len(d.ValuesBytes))
	sum := 0.0
	for i := range g.weights {
		g.weights[i] = 1
		if len(d.Weights) != 0 {
			g.weights[i] = d.Weights[i]
		}
		sum += g.weights[i]
	}
	for i := range g.weights {
		g.weights[i] /= sum
	}
	if len(g.choice) == 1 {
		g.kind, g.value = genFixed, g.choice[0]
		return
	}
	g.cat = distuv.NewCategorical(g.weights, src)
}

func samplerFraction(g *genSampler, d *Dist, _ bool, _ rand.Source) {
	g.kind, g.fraction = genFraction, d.Fraction
}

// samplerOf sets up a kind without parameters.
func samplerOf(kind genKind) func(*genSampler, *Dist, bool, rand.Source) {
	return func(g *genSampler, _ *Dist, _ bool, _ rand.Source) { g.kind = kind }
}

// raw returns one sample, not clamped.
func (g *genSampler) raw() float64 {
	switch g.kind {
	case genUniform:
		return g.uniform.Rand()
	case genExponential:
		return g.exp.Rand()
	case genLognormal:
		return g.lognorm.Rand()
	case genNormal:
		return g.normal.Rand()
	case genGamma:
		return g.gamma.Rand()
	case genWeibull:
		return g.weibull.Rand()
	case genPareto:
		return g.pareto.Rand()
	case genChoice:
		return g.choice[int(g.cat.Rand())]
	}
	return g.value
}

// continuous is what the size table and the mean need of a continuous distuv distribution.
type continuous interface {
	CDF(x float64) float64
	Quantile(p float64) float64
}

// continuous returns the distribution of a continuous kind, nil for fixed and choice.
func (g *genSampler) continuous() continuous {
	switch g.kind {
	case genUniform:
		return g.uniform
	case genExponential:
		return g.exp
	case genLognormal:
		return g.lognorm
	case genNormal:
		return g.normal
	case genGamma:
		return g.gamma
	case genWeibull:
		return g.weibull
	case genPareto:
		return g.pareto
	}
	return nil
}

// quantile is the inverse CDF of the distribution (not clamped), nil for fixed and choice.
func (g *genSampler) quantile() func(float64) float64 {
	if d := g.continuous(); d != nil {
		return d.Quantile
	}
	return nil
}

// cdf is the distribution's CDF (not clamped), nil for fixed and choice.
func (g *genSampler) cdf() func(float64) float64 {
	if d := g.continuous(); d != nil {
		return d.CDF
	}
	return nil
}

// clamp bounds a sample to [lo, hi]; NaN becomes lo.
func (g *genSampler) clamp(v float64) float64 {
	if !(v >= g.lo) {
		v = g.lo
	}
	if v > g.hi {
		v = g.hi
	}
	return v
}

// roundSize turns a clamped size into a Spur object size: whole 8-byte units, at least 16.
func roundSize(v float64) uint32 {
	n := math.Ceil(v/8) * 8
	if !(n >= profile.MinObjectBytes) {
		return profile.MinObjectBytes
	}
	if n > specMaxObjectBytes {
		return specMaxObjectBytes
	}
	return uint32(n)
}

// sizeBytes draws one object size.
func (g *genSampler) sizeBytes() uint32 {
	switch {
	case g.table != nil:
		return g.table.draw()
	case g.kind == genFixed:
		return roundSize(g.clamp(g.value))
	}
	return roundSize(g.clamp(g.raw()))
}

// tableSizes is the number of sizes a sizeTable holds (8 KiB of table, so that it stays in
// the L1 cache: the draws hit it at random), and maxTableTail the largest probability of the
// sizes beyond them that a table leaves to the tail bucket.
const (
	tableSizes   = 1024
	maxTableTail = 0.01
)

// sizeTable draws object sizes from the exact distribution of the rounded, clamped size with
// Walker's alias method. A size is a whole number of 8-byte units, so the sizes of a size
// distribution form a discrete distribution, and the first tableSizes of them (8 KiB from the
// smallest) carry nearly all the probability of the usual ones: each gets its probability
// from the distuv distribution's CDF (size s collects the samples in (s−8, s]), or from
// choice's weights, and one more bucket holds the rest, drawn by inverting the CDF. A draw then
// costs one random number instead of, for a lognormal, a normal deviate and an exponential:
// the generator's inner loop spent half its time in math.Exp before.
type sizeTable struct {
	src      rand.Source
	pick     aliasTable
	minBytes uint32  // size of entry 0; entry k < tail is minBytes + 8k
	tail     int     // index of the tail bucket (the number of entries when there is none)
	cutBytes uint32  // the largest tabulated size; the tail draws above it
	cutCDF   float64 // CDF at cutBytes
	maxBytes uint32  // the largest size
	quantile func(float64) float64
	clamp    func(float64) float64
}

// aliasTable picks index k with probability p[k] in O(1) from one 64-bit random number
// (Walker's alias method, Vose's construction): the high 32 bits choose an entry, the low 32
// bits keep it or take its alias.
type aliasTable struct {
	n       uint64
	entries []aliasEntry
}

// aliasEntry keeps its index when the low 32 bits of the draw are below accept, else gives
// alias.
type aliasEntry struct{ accept, alias uint32 }

// newAliasTable builds the table of probabilities p (any non-negative weights with a
// positive sum).
func newAliasTable(p []float64) aliasTable {
	n := len(p)
	t := aliasTable{n: uint64(n), entries: make([]aliasEntry, n)}
	sum := 0.0
	for _, x := range p {
		sum += x
	}
	scaled := make([]float64, n)
	var small, large []int
	for i, x := range p {
		scaled[i] = x / sum * float64(n)
		if scaled[i] < 1 {
			small = append(small, i)
		} else {
			large = append(large, i)
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		t.entries[s] = aliasEntry{accept: uint32(min(scaled[s]*(1<<32), math.MaxUint32)), alias: uint32(l)}
		scaled[l] -= 1 - scaled[s]
		if scaled[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	for _, i := range append(small, large...) { // probability 1, up to rounding
		t.entries[i] = aliasEntry{accept: math.MaxUint32, alias: uint32(i)}
	}
	return t
}

// index maps a 64-bit random number to an index.
func (t *aliasTable) index(u uint64) int {
	k := (u >> 32) * t.n >> 32
	if e := t.entries[k]; uint32(u) >= e.accept {
		return int(e.alias)
	}
	return int(k)
}

// newSizeTable tabulates g's size distribution, or returns nil when it is fixed, has no CDF,
// or spreads too much probability beyond the first tableSizes sizes.
func newSizeTable(g *genSampler, src rand.Source) *sizeTable {
	if src == nil || g.kind == genFixed {
		return nil
	}
	lo, hi := roundSize(g.lo), roundSize(g.hi)
	if g.kind == genChoice { // only the values' range matters
		lo, hi = math.MaxUint32, 0
		for _, v := range g.choice {
			s := roundSize(g.clamp(v))
			lo, hi = min(lo, s), max(hi, s)
		}
	}
	sizes := uint64(hi-lo)/8 + 1
	if sizes < 2 {
		return nil
	}
	t := &sizeTable{src: src, minBytes: lo, maxBytes: hi, quantile: g.quantile(), clamp: g.clamp}
	var p []float64
	switch cdf := g.cdf(); {
	case g.kind == genChoice:
		if sizes > tableSizes {
			return nil
		}
		p = make([]float64, sizes)
		for i, v := range g.choice {
			p[(roundSize(g.clamp(v))-lo)/8] += g.weights[i]
		}
		t.tail = int(sizes)
	case cdf != nil && t.quantile != nil:
		// Size lo collects every sample up to lo (clamped ones included), size s above it the
		// samples in (s − 8, s]; the last size (or the tail bucket) everything above.
		n := min(sizes, tableSizes)
		p = make([]float64, n, n+1)
		prev := 0.0
		for k := range n - 1 {
			c := cdf(float64(lo) + 8*float64(k))
			p[k] = max(c-prev, 0)
			prev = max(c, prev)
		}
		t.tail = int(n)
		if n == sizes {
			p[n-1] = max(1-prev, 0)
		} else {
			t.cutBytes = lo + 8*uint32(n-1)
			t.cutCDF = max(cdf(float64(t.cutBytes)), prev)
			p[n-1] = t.cutCDF - prev
			if 1-t.cutCDF > maxTableTail {
				return nil
			}
			p = append(p, 1-t.cutCDF)
		}
	default:
		return nil
	}
	sum := 0.0
	for _, x := range p {
		sum += x
	}
	if math.IsNaN(sum) || math.IsInf(sum, 0) || sum <= 0 { // a CDF the table cannot use: draw instead
		return nil
	}
	t.pick = newAliasTable(p)
	return t
}

// draw returns one size.
func (t *sizeTable) draw() uint32 {
	k := t.pick.index(t.src.Uint64())
	if k == t.tail {
		return t.drawTail()
	}
	return t.minBytes + 8*uint32(k)
}

// drawTail draws a size above cutBytes by inverting the CDF.
func (t *sizeTable) drawTail() uint32 {
	u := float64(t.src.Uint64()>>11) / (1 << 53)
	s := roundSize(t.clamp(t.quantile(t.cutCDF + u*(1-t.cutCDF))))
	return min(max(s, t.cutBytes+8), t.maxBytes)
}

// meanSizeBytes is the expected value of sizeBytes, by quantile integration (no random
// draws), for record estimates and pre-sizing.
func (g *genSampler) meanSizeBytes() float64 {
	size := func(v float64) float64 { return float64(roundSize(g.clamp(v))) }
	if g.kind == genChoice {
		m := 0.0
		for i, v := range g.choice {
			m += g.weights[i] * size(v)
		}
		return m
	}
	q := g.quantile()
	if q == nil {
		return size(g.value)
	}
	const k = 256
	m := 0.0
	for i := range k {
		m += size(q((float64(i) + 0.5) / k))
	}
	return m / k
}

// death returns the death of an object born at birth, and FlagAliveAtEnd when the object
// reaches the end of the run.
func (g *genSampler) death(birth, end uint64) (uint64, uint8) {
	var lifetimeBytes float64
	switch g.kind {
	case genImmediate:
		return birth, 0
	case genUntilEnd:
		return end, profile.FlagAliveAtEnd
	case genPhaseEnd:
		if g.phaseEnd >= end {
			return end, profile.FlagAliveAtEnd
		}
		return max(g.phaseEnd, birth), 0
	case genFraction:
		lifetimeBytes = g.fraction * float64(end)
	case genRestOfRun:
		rest := float64(end - birth)
		lo := math.Min(g.lo, rest)
		lifetimeBytes = lo + g.uniform.Rand()*(rest-lo)
	case genFixed:
		lifetimeBytes = g.clamp(g.value)
	default:
		lifetimeBytes = g.clamp(g.raw())
	}
	if lifetimeBytes >= float64(end-birth) {
		return end, profile.FlagAliveAtEnd
	}
	return birth + uint64(lifetimeBytes), 0
}
