package heapsim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile/spec"
)

// TestLongBundledInnerScavengeEdens checks the premise of the DataFrame specs' young allocation
// against the simulator's mechanics: each spec adds to the published scavenges half an eden
// for each full GC that follows young allocation (the scavenge inside a full GC empties eden
// without being counted, docs/spur-model.md §3.7), naming which full GCs those are (the large
// allocations the free old space cannot hold). At the defaults the simulated run must have
// exactly that many full GCs finding young bytes in eden, their inner scavenges must empty
// about the half edens assumed, and the scheduled scavenges must come out within two of the
// published count.
func TestLongBundledInnerScavengeEdens(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the three DataFrame workloads")
	}
	const edenBytes = 11_780_725 // the scavenge threshold of a 16 MiB new space (§1.1)
	for _, tc := range []struct {
		name      string
		afterEden int // full GCs after young allocation, as the spec's comment lists them
	}{
		{"dataframe-500mb", 3},   // the first build allocation, 2 converted columns
		{"dataframe-1.6gb", 6},   // the rows' last step, the first build allocation, 3 converted columns, the row names
		{"dataframe-3.1gb", 103}, // the rows' last step, the first build allocation, 100 converted columns, the row names
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp, err := spec.BundledSpec(tc.name)
			require.NoError(t, err)
			p, err := sp.Generate(spec.GenerateOptions{Seed: 1})
			require.NoError(t, err)
			var full int
			var innerEden uint64
			st, err := Run(p, DefaultParams(), DefaultCost(), Options{OnEvent: func(e *Event) {
				if e.Kind == EventFullGC && e.EdenUsedBytes > 0 {
					full++
					innerEden += e.EdenUsedBytes
				}
			}})
			require.NoError(t, err)
			assert.Equal(t, tc.afterEden, full, "full GCs after young allocation")
			assert.InDelta(t, float64(tc.afterEden)/2, float64(innerEden)/edenBytes, 2+0.05*float64(tc.afterEden)/2, "edens the inner scavenges empty")
			assert.InDelta(t, p.Meta.ReportedScavenges, st.Scavenges, 2, "scheduled scavenges against the published count")
		})
	}
}
