package search

import (
	"fmt"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/cmaes"
	gtpe "github.com/c-bata/goptuna/tpe"

	"github.com/gctune/gctune/search/tpe"
)

// Sampler names accepted by Settings.Sampler.
const (
	// SamplerTPE is gctune's own TPE (multivariate, with constant liar when workers share a
	// study). The default: see docs/benchmarks.md for the comparison that chose it.
	SamplerTPE = "tpe"
	// SamplerTPEIndependent is gctune's TPE with one Parzen estimator per dimension.
	SamplerTPEIndependent = "tpe-independent"
	// SamplerCMAES is goptuna's CMA-ES (read and found sound: docs/search.md), with random sampling
	// for the first trials.
	SamplerCMAES = "cmaes"
	// SamplerRandom is uniform random search in the (log-)space: the baseline.
	SamplerRandom = "random"
	// SamplerGoptunaTPE is goptuna's stock TPE, kept only for the benchmark: its maths are
	// wrong and it is not reproducible (docs/search.md).
	SamplerGoptunaTPE = "goptuna-tpe"
)

// DefaultSampler is the sampler that won the benchmark in docs/benchmarks.md.
const DefaultSampler = SamplerTPE

// newSamplerFunc builds a worker's samplers from its seed; parallel is true when several
// workers share the study.
type newSamplerFunc func(seed uint64, parallel bool) (goptuna.Sampler, goptuna.RelativeSampler)

// Samplers lists the accepted sampler names.
func Samplers() []string {
	return []string{SamplerCMAES, SamplerGoptunaTPE, SamplerRandom, SamplerTPE, SamplerTPEIndependent}
}

func samplerFactory(name string) (newSamplerFunc, error) {
	random := func(seed uint64) goptuna.Sampler {
		return goptuna.NewRandomSampler(goptuna.RandomSamplerOptionSeed(int64(seed >> 1)))
	}
	switch name {
	case SamplerTPE, "":
		return func(seed uint64, parallel bool) (goptuna.Sampler, goptuna.RelativeSampler) {
			t := tpe.NewSampler(tpe.WithSeed(seed), tpe.WithMultivariate(true), tpe.WithConstantLiar(parallel))
			return t, t
		}, nil
	case SamplerTPEIndependent:
		return func(seed uint64, parallel bool) (goptuna.Sampler, goptuna.RelativeSampler) {
			return tpe.NewSampler(tpe.WithSeed(seed), tpe.WithConstantLiar(parallel)), nil
		}, nil
	case SamplerCMAES:
		return func(seed uint64, _ bool) (goptuna.Sampler, goptuna.RelativeSampler) {
			return random(seed), cmaes.NewSampler(cmaes.SamplerOptionSeed(int64(seed >> 1)))
		}, nil
	case SamplerRandom:
		return func(seed uint64, _ bool) (goptuna.Sampler, goptuna.RelativeSampler) { return random(seed), nil }, nil
	case SamplerGoptunaTPE:
		// Seeded for its start-up trials; its later draws use Go's global source, so its runs
		// still do not repeat (docs/search.md).
		return func(seed uint64, _ bool) (goptuna.Sampler, goptuna.RelativeSampler) {
			return gtpe.NewSampler(gtpe.SamplerOptionSeed(int64(seed >> 1))), nil
		}, nil
	}
	return nil, fmt.Errorf("search: sampler %q: want one of %v", name, Samplers())
}
