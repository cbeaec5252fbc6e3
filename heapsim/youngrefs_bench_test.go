package heapsim

import (
	"testing"
	"time"

	"github.com/gctune/gctune/profile/spec"
)

// BenchmarkWithoutHeldBy is BenchmarkSimulateBundled's dataframe-3.1gb with its stated
// young→young references dropped (Profile.HeldBy nil, as every FiLiP export reads): against
// BenchmarkSimulateBundled/dataframe-3.1gb, which states each cell held by its row (the spec's
// heldBy since issue 20), what the rule costs (youngrefs.go). Run:
// go test ./heapsim -run '^$' -bench 'SimulateBundled$/dataframe-3.1gb|WithoutHeldBy'
func BenchmarkWithoutHeldBy(b *testing.B) {
	sp, err := spec.BundledSpec("dataframe-3.1gb")
	if err != nil {
		b.Fatal(err)
	}
	p, err := sp.Generate(spec.GenerateOptions{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	if p.HeldBy == nil {
		b.Fatal("dataframe-3.1gb states no young→young reference")
	}
	q := *p
	q.HeldBy = nil
	params, cost := DefaultParams(), DefaultCost()
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		if _, err := Simulate(&q, params, cost); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(q.Len())*float64(b.N)/time.Since(start).Seconds(), "records/s")
}
