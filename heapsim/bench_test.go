package heapsim

import (
	"fmt"
	"testing"
	"time"

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

// BenchmarkSimulateBundled measures one evaluation of each bundled DataFrame workload at its
// default resolution and default parameters (the budget: ≤ 0.2 s and ≥ 50 M records/s for dataframe-3.1gb).
// Run: go test ./heapsim -run '^$' -bench SimulateBundled -benchmem
func BenchmarkSimulateBundled(b *testing.B) {
	for _, name := range []string{"dataframe-500mb", "dataframe-1.6gb", "dataframe-3.1gb"} {
		sp, err := spec.BundledSpec(name)
		if err != nil {
			b.Fatal(err)
		}
		p, err := sp.Generate(spec.GenerateOptions{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		params, cost := DefaultParams(), DefaultCost()
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				if _, err := Simulate(p, params, cost); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(p.Len())*float64(b.N)/time.Since(start).Seconds(), "records/s")
		})
	}
}
