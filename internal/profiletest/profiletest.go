// Package profiletest builds the small hand-made profiles that the tests of the profile
// packages (profile/filip, profile/gcprof, profile/source) and of lifetimes share. For tests
// only; it imports nothing of gctune's but profile.
package profiletest

import (
	"math/rand/v2"
	"testing"

	"github.com/gctune/gctune/profile"
)

// Small is a hand-built run of 1000 bytes:
//
//	class       size    birth death weight  lifetime  notes
//	Fraction    24      0     10    4       1 %
//	Array       80      100   1000  1       90 %      alive at end, container
//	Fraction    24      200   250   2       5 %       exactly the default threshold
//	ByteString  16      300   349   3       4.9 %
//	Big         600000  400   900   1       50 %      74,998 slots: direct to old space
//	Pinned      40      500   500   1       0 %       FlagOldSpace
//
// Live bytes: 96 at 0, 0 at 10, 80 at 100, 128 at 200, 80 at 250, 128 at 300, 80 at 349,
// 600080 from 400 to 900, 80 after.
func Small(t testing.TB) *profile.Profile {
	t.Helper()
	var b profile.Builder
	frac, arr, str, big, pin := b.Class("Fraction"), b.Class("Array"), b.Class("ByteString"), b.Class("Big"), b.Class("Pinned")
	// Added out of birth order on purpose: Build sorts.
	b.Add(str, 16, 300, 349, 3, 0)
	b.Add(frac, 24, 0, 10, 4, 0)
	a := b.Add(arr, 80, 100, 1000, 1, profile.FlagAliveAtEnd)
	b.Add(frac, 24, 200, 250, 2, 0)
	b.Add(big, 600000, 400, 900, 1, 0)
	b.Add(pin, 40, 500, 500, 1, profile.FlagOldSpace)
	b.AddContainer(profile.Container{Record: int32(a), StoresFromBytes: 100, StoresUntilBytes: 900})
	p, err := b.Build(profile.Meta{Source: "test:small", Profiler: "hand", EndBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Dense builds a profile of weight-1 records born back to back (each at the total of the
// sizes before it, as the generator does), with sizes from size(i) and lifetimes from life(i)
// (negative: alive at the end).
func Dense(t testing.TB, n int, size func(i int) uint32, life func(i int) int64) *profile.Profile {
	t.Helper()
	var b profile.Builder
	classes := []uint32{b.Class("Array"), b.Class("ByteString"), b.Class("Foo class")}
	var clock uint64
	var end uint64
	births := make([]uint64, n)
	sizes := make([]uint32, n)
	for i := range n {
		births[i] = clock
		sizes[i] = size(i)
		clock += uint64(sizes[i])
	}
	end = clock + 1000
	for i := range n {
		l := life(i)
		death, flags := end, profile.FlagAliveAtEnd
		if l >= 0 {
			death, flags = min(births[i]+uint64(l), end-500), 0
			death = max(death, births[i])
		}
		b.Add(classes[i%len(classes)], sizes[i], births[i], death, 1, flags)
	}
	p, err := b.Build(profile.Meta{Source: "test", EndBytes: end, SamplingRate: 1})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// WithLarge is a Dense profile of n small objects (16-400 bytes, seeded) with the large
// objects of the given sizes at the given positions (living 3 MiB of the clock).
func WithLarge(t testing.TB, n int, large map[int]uint32, seed uint64) *profile.Profile {
	rng := rand.New(rand.NewPCG(seed, 1))
	return Dense(t, n, func(i int) uint32 {
		if s, ok := large[i]; ok {
			return s
		}
		return 16 + 8*uint32(rng.IntN(48))
	}, func(i int) int64 {
		if _, ok := large[i]; ok {
			return 3 << 20
		}
		return int64(rng.IntN(1 << 16))
	})
}
