package heapsim

import (
	"math"
	"testing"
)

// TestWallClock: the wall clock starts at 0, never goes back, steps by each GC pause at its
// clock and ends at the run's total time at its end.
func TestWallClock(t *testing.T) {
	p := randomProfile(t, 3, 20_000)
	params, cost := DefaultParams(), DefaultCost()
	clocks, secs, err := WallClock(p, params, cost)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Simulate(p, params, cost)
	if err != nil {
		t.Fatal(err)
	}
	n := len(clocks)
	if n != len(secs) || clocks[0] != 0 || secs[0] != 0 {
		t.Fatalf("starts at (%d, %v) with %d clocks and %d seconds", clocks[0], secs[0], n, len(secs))
	}
	var steps float64
	for i := 1; i < n; i++ {
		if clocks[i] < clocks[i-1] || secs[i] < secs[i-1] {
			t.Fatalf("point %d (%d, %v) goes back from (%d, %v)", i, clocks[i], secs[i], clocks[i-1], secs[i-1])
		}
		if clocks[i] == clocks[i-1] {
			steps += secs[i] - secs[i-1]
		}
	}
	if clocks[n-1] != p.Meta.EndBytes || math.Abs(secs[n-1]-st.TotalSeconds) > 1e-9*st.TotalSeconds {
		t.Errorf("ends at (%d, %v), want (%d, %v)", clocks[n-1], secs[n-1], p.Meta.EndBytes, st.TotalSeconds)
	}
	if math.Abs(steps-st.GCSeconds) > 1e-9*st.GCSeconds {
		t.Errorf("pauses add to %v s, want the GC time %v s", steps, st.GCSeconds)
	}
}
