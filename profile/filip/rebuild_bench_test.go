package filip

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gctune/gctune/profile"
)

// sampledBenchProfile is a 1/100-sampled profile of n records on the bytes clock: windows of
// about 100 objects of 16-400 bytes, one in 1,000 holding a 1-20 MiB large object.
func sampledBenchProfile(b *testing.B, n int) *profile.Profile {
	rng := rand.New(rand.NewPCG(1, 2))
	var bl profile.Builder
	c := bl.Class("C")
	var clock uint64
	for range n {
		size := uint32(16 + 8*rng.IntN(48))
		clock += 100*uint64(size) + uint64(rng.IntN(4000))
		if rng.IntN(1000) == 0 {
			clock += uint64(1<<20 + rng.IntN(19<<20))
		}
		bl.Add(c, size, clock, clock+uint64(rng.IntN(1<<20)), 100, 0)
	}
	p, err := bl.Build(profile.Meta{EndBytes: clock + 1<<30, SamplingRate: 0.01})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func BenchmarkRebuild(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		p := sampledBenchProfile(b, n)
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Rebuild(p, RebuildOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
