package heapsim

import (
	"fmt"
	"testing"
	"time"

	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/spec"
)

// BenchmarkSimulate measures records simulated per second at default parameters on random
// profiles of growing size. Run: go test ./heapsim -run '^$' -bench Simulate -benchmem
func BenchmarkSimulate(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000, 10_000_000} {
		p := randomProfile(b, 1, n)
		params, cost := DefaultParams(), DefaultCost()
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				if _, err := Simulate(p, params, cost); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/time.Since(start).Seconds(), "records/s")
		})
	}
}

// bundledNames are the bundled workloads the speed benchmarks run, the DataFrame ones first.
var bundledNames = []string{"dataframe-500mb", "dataframe-1.6gb", "dataframe-3.1gb",
	"cache-churn", "compiler-phases", "image-processing", "request-server"}

// bundledProfile generates bundled workload name at its default resolution (seed 1).
func bundledProfile(b *testing.B, name string) *profile.Profile {
	b.Helper()
	sp, err := spec.BundledSpec(name)
	if err != nil {
		b.Fatal(err)
	}
	p, err := sp.Generate(spec.GenerateOptions{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkSimulateBundled measures one evaluation of each bundled workload at its default
// resolution and default parameters, the profile prepared once (Prepare) as a search does.
// The targets (issue 34): dataframe-3.1gb in at most 40 ms of CPU and every workload at
// 80 M records/s or more, no allocation per record. Measure CPU, not wall time, on a shared
// machine: the user-time slope between -test.benchtime 1x and 11x with -test.cpu 1
// (docs/benchmarks.md). Run: go test ./heapsim -run '^$' -bench SimulateBundled -benchmem
func BenchmarkSimulateBundled(b *testing.B) {
	for _, name := range bundledNames {
		p := bundledProfile(b, name)
		pp, err := Prepare(p)
		if err != nil {
			b.Fatal(err)
		}
		params, cost := DefaultParams(), DefaultCost()
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				if _, err := pp.Run(params, cost, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(p.Len())*float64(b.N)/time.Since(start).Seconds(), "records/s")
		})
	}
}

// BenchmarkSimulateReplica is BenchmarkSimulateBundled's dataframe-3.1gb as a perturbed
// replica runs it: sizes scaled by 1.03 and rounded as the run reads them
// (Options.SizeScale), against the same run on a copy of the scaled sizes. Run:
// go test ./heapsim -run '^$' -bench SimulateReplica -benchmem
func BenchmarkSimulateReplica(b *testing.B) {
	p := bundledProfile(b, "dataframe-3.1gb")
	pp, err := Prepare(p)
	if err != nil {
		b.Fatal(err)
	}
	q := *p
	q.SizeBytes = make([]uint32, len(p.SizeBytes))
	for i, s := range p.SizeBytes {
		q.SizeBytes[i] = ScaledSize(s, 1.03, 7, i)
	}
	qq, err := Prepare(&q)
	if err != nil {
		b.Fatal(err)
	}
	params, cost := DefaultParams(), DefaultCost()
	for _, c := range []struct {
		name string
		pp   *Prepared
		opts Options
	}{{"lazy", pp, Options{SizeScale: 1.03, SizeSeed: 7}}, {"copied", qq, Options{}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.pp.Run(params, cost, c.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStreamColumns is the streaming limit of BenchmarkSimulateBundled: one pass that
// only reads the per-record columns a simulation reads (Birth, SizeBytes, Weight, Flags,
// Death, StoredIn, HeldBy) and sums them, no model. A simulation reads the records allocated
// since the last scavenge twice (allocation, then the scavenge's walk of eden), the second
// time from cache. Run: go test ./heapsim -run '^$' -bench StreamColumns
func BenchmarkStreamColumns(b *testing.B) {
	for _, name := range bundledNames {
		p := bundledProfile(b, name)
		b.Run(name, func(b *testing.B) {
			var sink uint64
			start := time.Now()
			for b.Loop() {
				sink += streamColumns(p)
			}
			b.ReportMetric(float64(p.Len())*float64(b.N)/time.Since(start).Seconds(), "records/s")
			if sink == 1 {
				b.Log(sink)
			}
		})
	}
}

// streamColumns reads every column a simulation reads, once, record by record.
func streamColumns(p *profile.Profile) uint64 {
	var sum uint64
	births, sizes, weights, flags, deaths := p.Birth, p.SizeBytes, p.Weight, p.Flags, p.Death
	stored, held := p.StoredIn, p.HeldBy
	for i := range births {
		sum += births[i] ^ deaths[i] + uint64(sizes[i])*uint64(weights[i]) + uint64(flags[i])
		if stored != nil {
			sum += uint64(stored[i])
		}
		if held != nil {
			sum += uint64(held[i])
		}
	}
	return sum
}
