package heapsim

import (
	"fmt"
	"testing"
	"time"
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
