package numfmt

import (
	"math"
	"testing"
)

func TestRoundSig(t *testing.T) {
	for _, c := range []struct {
		x      float64
		digits int
		want   float64
	}{
		{0.333333, 4, 0.3333},
		{123456, 3, 123000},
		{-0.0012345, 2, -0.0012},
		{999.96, 4, 1000},
		{1000, 4, 1000},
		{0, 3, 0},
	} {
		if got := RoundSig(c.x, c.digits); got != c.want {
			t.Errorf("RoundSig(%v, %d) = %v, want %v", c.x, c.digits, got, c.want)
		}
	}
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
