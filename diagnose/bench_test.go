package diagnose

import (
	"context"
	"runtime"
	"testing"

	"github.com/gctune/gctune/tunable"
)

// Benchmarks of the report's simulations (docs/benchmarks.md):
//
//	go test ./diagnose -run '^$' -bench . -benchtime 3x
//
// The sensitivity sweeps have report.DefaultSweepPoints (21) points per parameter. Each builds
// on a bundled DataFrame workload with the best point of testdata/explain.
func BenchmarkReport(b *testing.B) {
	cases := []struct {
		workload string
		best     tunable.Point
	}{
		{"dataframe-500mb", tunable.Point{NewSpaceBytes: 860 << 20, HeadroomBytes: 598 << 20, ShrinkBytes: 26 << 20, Ratio: 43.1, Proportion: 0.371}},
		{"dataframe-3.1gb", tunable.Point{NewSpaceBytes: 970 << 20, HeadroomBytes: 1519 << 20, ShrinkBytes: 1 << 20, Ratio: 10.62, Proportion: 1.213}},
	}
	for _, c := range cases {
		prob := testProblem(b, 0, c.workload)
		space := tunable.DefaultSpace()
		b.Run("diagnose/"+c.workload, func(b *testing.B) {
			for b.Loop() {
				if _, err := Diagnose(context.Background(), prob, c.best, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("sensitivity/"+c.workload, func(b *testing.B) {
			for b.Loop() {
				if _, err := Sensitivity(context.Background(), prob, space, c.best, 21, NewPool(runtime.GOMAXPROCS(0), nil)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
