package heapsim

import (
	"testing"
	"time"

	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/spec"
)

// bundledWithCellsHeld generates bundled workload name with every mix entry of class
// ByteString held by the Array entry of its phase (a row Array holding its cells, what
// DataFrameCsvReader>>readFromInternal: builds), as a spec would state it with heldBy. The
// bundled specs do not state it yet.
func bundledWithCellsHeld(tb testing.TB, name string) *profile.Profile {
	tb.Helper()
	sp, err := spec.BundledSpec(name)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range sp.Phases {
		ph := &sp.Phases[i]
		rows := 0
		for _, m := range ph.Mix {
			if m.Class == "Array" {
				rows++
			}
		}
		if rows != 1 {
			continue
		}
		for j := range ph.Mix {
			if ph.Mix[j].Class == "ByteString" {
				ph.Mix[j].HeldBy = "Array"
			}
		}
	}
	if err := sp.Validate(); err != nil {
		tb.Fatal(err)
	}
	p, err := sp.Generate(spec.GenerateOptions{Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	if p.HeldBy == nil {
		tb.Fatalf("%s: no cell held by a row", name)
	}
	return p
}

// BenchmarkHeldByBundled is BenchmarkSimulateBundled's dataframe-3.1gb with its cells
// held by their rows (young→young references, youngrefs.go): what the rule costs when a
// profile states references. Run: go test ./heapsim -run '^$' -bench HeldByBundled
func BenchmarkHeldByBundled(b *testing.B) {
	p := bundledWithCellsHeld(b, "dataframe-3.1gb")
	params, cost := DefaultParams(), DefaultCost()
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		if _, err := Simulate(p, params, cost); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(p.Len())*float64(b.N)/time.Since(start).Seconds(), "records/s")
}
