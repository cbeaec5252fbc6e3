package spec

import (
	"testing"
)

// BenchmarkGenerate measures generation speed at each workload's default resolution, as
// records per second (the target is at least 20 M records/s on one core). Run with
//
//	go test ./lifetimes -run '^$' -bench Generate -benchmem
func BenchmarkGenerate(b *testing.B) {
	for _, name := range []string{"request-server", "dataframe-500mb", "dataframe-3.1gb"} {
		b.Run(name, func(b *testing.B) {
			s, err := BundledSpec(name)
			if err != nil {
				b.Fatal(err)
			}
			records := 0
			for b.Loop() {
				p, err := s.Generate(GenerateOptions{Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				records += p.Len()
			}
			b.ReportMetric(float64(records)/b.Elapsed().Seconds()/1e6, "Mrecords/s")
			b.ReportMetric(float64(records)/float64(b.N), "records/op")
		})
	}
}

// BenchmarkParseSpec measures parsing and validating a bundled spec.
func BenchmarkParseSpec(b *testing.B) {
	data, err := bundledFS.ReadFile("workloads/dataframe-500mb.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Parse(data, "dataframe-500mb.yaml"); err != nil {
			b.Fatal(err)
		}
	}
}
