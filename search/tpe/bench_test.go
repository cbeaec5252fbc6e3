package tpe

import (
	"fmt"
	"strings"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/cmaes"
	gtpe "github.com/c-bata/goptuna/tpe"
)

// benchSampler names a way to build a study's samplers from a seed.
type benchSampler struct {
	name string
	make func(seed uint64) (goptuna.Sampler, goptuna.RelativeSampler)
}

// benchSamplers are the samplers compared on the bowl.
var benchSamplers = []benchSampler{
	{"gctune-tpe", func(seed uint64) (goptuna.Sampler, goptuna.RelativeSampler) {
		return NewSampler(WithSeed(seed)), nil
	}},
	{"gctune-tpe-multivariate", func(seed uint64) (goptuna.Sampler, goptuna.RelativeSampler) {
		s := NewSampler(WithSeed(seed), WithMultivariate(true))
		return s, s
	}},
	// goptuna's stock TPE draws from the global math/rand: its numbers change from run to run.
	{"goptuna-tpe", func(seed uint64) (goptuna.Sampler, goptuna.RelativeSampler) {
		return gtpe.NewSampler(gtpe.SamplerOptionSeed(int64(seed))), nil
	}},
	// CMA-ES is a RelativeSampler; goptuna asks the random sampler for the first trial (no
	// completed trial yet, so no search space).
	{"goptuna-cmaes", func(seed uint64) (goptuna.Sampler, goptuna.RelativeSampler) {
		return goptuna.NewRandomSampler(goptuna.RandomSamplerOptionSeed(int64(seed))),
			cmaes.NewSampler(cmaes.SamplerOptionSeed(int64(seed)))
	}},
	{"random", func(seed uint64) (goptuna.Sampler, goptuna.RelativeSampler) {
		return goptuna.NewRandomSampler(goptuna.RandomSamplerOptionSeed(int64(seed))), nil
	}},
}

// BenchmarkBowl compares samplers on the 5-parameter shifted bowl (bowl_test.go): for
// each, the median over seeds 1..10 of the best value after 50, 100 and 200 trials, reported as
// the metrics best@50, best@100, best@200 and logged as a Markdown table at the end. One
// iteration runs 10 studies of 200 trials per sampler; run it once:
//
//	go test ./search/tpe -run '^$' -bench Bowl -benchtime 1x -v
//
// scripts/bench_samplers_bowl.py prints the same table for Python Optuna's samplers.
func BenchmarkBowl(b *testing.B) {
	const nSeeds, nTrials = 10, 200
	checkpoints := []int{50, 100, 200}
	rows := make([][]float64, len(benchSamplers))
	for i, sm := range benchSamplers {
		b.Run(sm.name, func(b *testing.B) {
			var medians []float64
			for b.Loop() {
				bests := make([][]float64, len(checkpoints))
				for seed := uint64(1); seed <= nSeeds; seed++ {
					s, rel := sm.make(seed)
					trace, err := runBowl(s, rel, nTrials)
					if err != nil {
						b.Fatal(err)
					}
					for j, c := range checkpoints {
						bests[j] = append(bests[j], trace[c-1])
					}
				}
				medians = medians[:0]
				for j := range checkpoints {
					medians = append(medians, median(bests[j]))
				}
			}
			for j, c := range checkpoints {
				b.ReportMetric(medians[j], fmt.Sprintf("best@%d", c))
			}
			rows[i] = medians
		})
	}
	var t strings.Builder
	fmt.Fprintf(&t, "median best over %d seeds on the shifted bowl\n| sampler |", nSeeds)
	for _, c := range checkpoints {
		fmt.Fprintf(&t, " @%d |", c)
	}
	t.WriteString("\n| --- |" + strings.Repeat(" --- |", len(checkpoints)) + "\n")
	for i, sm := range benchSamplers {
		if rows[i] == nil {
			continue // filtered out by -bench
		}
		fmt.Fprintf(&t, "| %s |", sm.name)
		for _, m := range rows[i] {
			fmt.Fprintf(&t, " %.4f |", m)
		}
		t.WriteString("\n")
	}
	b.Log("\n" + t.String())
}

// BenchmarkSample measures one proposal of the bowl's first parameter (independent) and of
// the whole bowl (multivariate) against histories of 50, 200 and 1000 completed trials.
func BenchmarkSample(b *testing.B) {
	for _, n := range []int{50, 200, 1000} {
		study := newStudy(b, goptuna.NewRandomSampler(goptuna.RandomSamplerOptionSeed(1)), nil)
		if err := study.Optimize(bowl, n); err != nil {
			b.Fatal(err)
		}
		trials, err := study.GetTrials()
		if err != nil {
			b.Fatal(err)
		}
		space := trials[0].Distributions
		current := goptuna.FrozenTrial{ID: -1}
		b.Run(fmt.Sprintf("independent/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			s := NewSampler(WithSeed(1))
			for b.Loop() {
				if _, err := s.Sample(study, current, "x0", space["x0"]); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("multivariate/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			s := NewSampler(WithSeed(1), WithMultivariate(true))
			for b.Loop() {
				if _, err := s.SampleRelative(study, current, space); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
