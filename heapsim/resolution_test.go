package heapsim

import (
	"math"
	"testing"

	"github.com/gctune/gctune/profile/spec"
)

// TestLongBundledResolutionConverged checks that dataframe-3.1gb's own resolution (records per
// object, the spec's `resolution`) is fine enough: generated twice as finely, the simulated
// run time moves by less than 1 %, at the defaults (hundreds of full GCs) and at a tuned
// configuration. A record stands for a run of objects born together (docs/workloads.md); what
// decides the collector's work is how many bytes live how long, which a coarser record keeps,
// so the resolution is a speed knob the search's budget depends on (docs/benchmarks.md), and
// this test is what licenses the coarser one. (dataframe-500mb and dataframe-1.6gb, at 0.05,
// differ between generations by one discrete event of about 2 s of GC time whichever way the
// resolution moves, a generation's draw rather than a trend; measured in docs/benchmarks.md.)
func TestLongBundledResolutionConverged(t *testing.T) {
	if testing.Short() {
		t.Skip("generates each DataFrame workload at two resolutions")
	}
	tuned := DefaultParams()
	tuned.NewSpaceBytes, tuned.GrowthHeadroomBytes, tuned.FullGCRatio = 512*MiB, 2*GiB, 16
	for _, name := range []string{"dataframe-3.1gb"} {
		sp, err := spec.BundledSpec(name)
		if err != nil {
			t.Fatal(err)
		}
		own, err := sp.Generate(spec.GenerateOptions{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		finer, err := sp.Generate(spec.GenerateOptions{Seed: 1, Resolution: 2 * sp.Resolution})
		if err != nil {
			t.Fatal(err)
		}
		if finer.Len() < own.Len()*3/2 {
			t.Fatalf("%s: %d records at twice the resolution against %d", name, finer.Len(), own.Len())
		}
		for _, params := range []Params{DefaultParams(), tuned} {
			a, err := Simulate(own, params, DefaultCost())
			if err != nil {
				t.Fatal(err)
			}
			b, err := Simulate(finer, params, DefaultCost())
			if err != nil {
				t.Fatal(err)
			}
			if d := math.Abs(a.TotalSeconds/b.TotalSeconds - 1); d > 0.01 {
				t.Errorf("%s at eden %d MiB: %.1f s at resolution %g (%d records), %.1f s at %g (%d): %.2f %% apart",
					name, params.NewSpaceBytes/MiB, a.TotalSeconds, sp.Resolution, own.Len(), b.TotalSeconds, 2*sp.Resolution, finer.Len(), 100*d)
			}
		}
	}
}
