package heapsim

import (
	"math"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestRSInOrderStrideFactor checks the stride factor against BenchmarkRSScan's table: 1 up to
// 32 bytes, the measured ratios at the measured strides, monotone between them.
func TestRSInOrderStrideFactor(t *testing.T) {
	if f := rsInOrderStrideFactor(16); f != 1 {
		t.Errorf("factor(16) = %v, want 1", f)
	}
	for i, s := range rsInOrderStride {
		if got, want := rsInOrderStrideFactor(s), rsInOrderNanos[i]/rsInOrderNanos[0]; math.Abs(got-want) > 1e-12 {
			t.Errorf("factor(%v) = %v, want %v", s, got, want)
		}
	}
	prev := 0.0
	for s := 8.0; s <= 4096; s += 8 {
		f := rsInOrderStrideFactor(s)
		if f < prev {
			t.Fatalf("factor(%v) = %v < factor(%v) = %v", s, f, s-8, prev)
		}
		prev = f
	}
}

// TestRSLocalityPrices checks the scan's price by where the referents lie (locality.go): an
// old container scanned at every scavenge (a window of unlisted young stores) holds 1,000
// referents of 32 bytes, allocated in old space either together (one batch: adjacent, in slot
// order) or one at a time between young allocations (1,000 batches: every slot a jump).
// SpurGenerationScavenger>>scavengeReferentsOf: reads every referent's header (isForwarded:):
// in order the reads stream, 1 slot at the scattered price and 999 at the in-order one;
// scattered, all 1,000 at the scattered price.
func TestRSLocalityPrices(t *testing.T) {
	together := `
rec size=8016 old container life=end
rec size=32 w=1000 old life=end into=0
rec size=96 w=1000 n=500 life=0`
	oneByOne := `
rec size=8016 old container life=end
loop 1000
rec size=32 old life=end into=0
rec size=96 life=0
endloop
rec size=96 w=1000 n=500 life=0`
	cost := DefaultCost()
	P, I := cost.RSPointerSlotSeconds, cost.RSInOrderSlotSeconds
	for _, c := range []struct {
		name    string
		input   string
		perScan float64
	}{
		{"together", together, P + 999*I},
		{"one by one", oneByOne, 1000 * P},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := buildScenarioProfile(&datadriven.TestData{Cmd: "profile", Input: c.input})
			if err != nil {
				t.Fatal(err)
			}
			st, err := Simulate(p, DefaultParams(), cost)
			if err != nil {
				t.Fatal(err)
			}
			scans := float64(st.RSPointerSlotsScanned) / 1000
			if scans < 3 || scans != math.Trunc(scans) {
				t.Fatalf("%d pointer slots scanned: want whole scans of 1,000 slots, at least 3", st.RSPointerSlotsScanned)
			}
			if want := scans * c.perScan; math.Abs(st.RSScanSeconds-want) > 1e-9*want {
				t.Errorf("RSScanSeconds = %v, want %v scans × %v = %v", st.RSScanSeconds, scans, c.perScan, want)
			}
			// With the in-order price equal to the scattered one, locality changes nothing.
			flat := cost
			flat.RSInOrderSlotSeconds = flat.RSPointerSlotSeconds
			st2, err := Simulate(p, DefaultParams(), flat)
			if err != nil {
				t.Fatal(err)
			}
			if want := float64(st2.RSPointerSlotsScanned) * P; math.Abs(st2.RSScanSeconds-want) > 1e-9*want {
				t.Errorf("flat cost: RSScanSeconds = %v, want %v", st2.RSScanSeconds, want)
			}
		})
	}
}
