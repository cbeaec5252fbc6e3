package numfmt

import (
	"math"
	"testing"
)

func TestRoundSig(t *testing.T) {
	check := func(x float64, digits int, want float64) {
		t.Helper()
		if got := RoundSig(x, digits); got != want {
			t.Errorf("RoundSig(%v, %d) = %v, want %v", x, digits, got, want)
		}
	}
	check(0.333333, 4, 0.3333)
	check(123456, 3, 123000)
	check(-0.0012345, 2, -0.0012)
	check(999.96, 4, 1000)
	check(1000, 4, 1000)
	check(0, 3, 0)
	if !math.IsNaN(RoundSig(math.NaN(), 3)) || !math.IsInf(RoundSig(math.Inf(-1), 3), -1) {
		t.Error("RoundSig changed NaN or -Inf")
	}
}

func TestCompactPercent(t *testing.T) {
	for f, want := range map[float64]string{0.05: "5%", 1e-6: "0.0001%", 0.0545559: "5.46%", 1: "100%", 0: "0%"} {
		if got := CompactPercent(f); got != want {
			t.Errorf("CompactPercent(%v) = %q, want %q", f, got, want)
		}
	}
}
