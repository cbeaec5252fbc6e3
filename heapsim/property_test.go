package heapsim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile"
)

// randomProfile builds a profile of n records deterministically from seed: mostly small
// objects dying at once, some short- and medium-lived, 5 % living to the end, a few large
// objects (straight to old space), a few pinned ones and a few containers, some receiving
// unlisted stores for a window, some only listed referents (Profile.StoredIn), some handing
// their references to a successor.
func randomProfile(tb testing.TB, seed uint64, n int) *profile.Profile {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	type rec struct {
		size, w, life uint64
		toEnd         bool
		flags         uint8
		container     bool
	}
	recs := make([]rec, n)
	var end uint64
	for i := range recs {
		r := &recs[i]
		switch x := rng.Float64(); {
		case x < 0.002:
			r.size = 600*KiB + uint64(rng.IntN(int(2*MiB)))
		case x < 0.1:
			r.size = 16 + 8*uint64(rng.IntN(2000))
		default:
			r.size = 16 + 8*uint64(rng.IntN(12))
		}
		r.w = 1
		if r.size < 4096 {
			r.w = 1 + uint64(rng.IntN(200))
		}
		switch x := rng.Float64(); {
		case x < 0.7:
		case x < 0.85:
			r.life = uint64(rng.ExpFloat64() * float64(8*MiB))
		case x < 0.95:
			r.life = uint64(rng.ExpFloat64() * float64(200*MiB))
		default:
			r.toEnd = true
			r.flags |= profile.FlagAliveAtEnd
		}
		if rng.Float64() < 0.001 {
			r.flags |= profile.FlagOldSpace
		}
		r.container = r.size > 1000 && r.w == 1 && rng.Float64() < 0.05
		end += r.w * r.size
	}
	var b profile.Builder
	b.Grow(n)
	cls := b.Class("Object")
	bytesCls := b.Class("ByteString")
	var clock uint64
	var stores []uint16 // the stores of the containers so far
	containers := 0
	for _, r := range recs {
		death := min(clock+r.life, end)
		if r.toEnd {
			death = end
		}
		c := cls
		if rng.IntN(4) == 0 {
			c = bytesCls
		}
		i := b.Add(c, uint32(r.size), clock, death, uint32(r.w), r.flags)
		switch {
		case r.container:
			until := min(clock+uint64(rng.IntN(int(end-clock)+1)), end)
			if rng.IntN(2) == 0 {
				until = clock // listed referents only
			}
			ct := profile.Container{Record: int32(i), StoresFromBytes: clock, StoresUntilBytes: until, ImmediateFraction: float32(rng.IntN(3)) / 2}
			if containers > 0 && rng.IntN(3) == 0 {
				// The previous container hands its references to this one.
				b.SetSuccessor(containers-1, containers)
			}
			b.AddContainer(ct)
			from := float32(rng.IntN(3)) / 4
			stores = append(stores, b.AddStore(profile.Store{Container: int32(containers), FromFraction: from, ForFraction: (1 - from) * float32(1+rng.IntN(2)) / 2}))
			containers++
		case len(stores) > 0 && r.size < 4096 && rng.IntN(5) == 0:
			b.SetStoredIn(i, stores[rng.IntN(len(stores))])
		}
		clock += r.w * r.size
	}
	p, err := b.Build(profile.Meta{Source: fmt.Sprintf("random:%d", seed), EndBytes: end})
	require.NoError(tb, err)
	return p
}

// randomParams draws parameters over the search space's range.
func randomParams(rng *rand.Rand) Params {
	p := DefaultParams()
	p.NewSpaceBytes = 3*MiB + uint64(rng.IntN(int(120*MiB)))
	p.GrowthHeadroomBytes = 1*MiB + uint64(rng.IntN(int(600*MiB)))
	p.ShrinkThresholdBytes = 1*MiB + uint64(rng.IntN(int(600*MiB)))
	p.FullGCRatio = rng.Float64() * 4
	p.Survivors = Survivors{Mode: SurvivorsProportion, Proportion: rng.Float64() * 1.2}
	p.Bug588 = rng.IntN(4) == 0
	return p
}

// TestProperties checks, over many seeds and parameter draws, the invariants any run must
// keep: bytes are conserved (allocated + image = still in the heap + reclaimed), the
// footprint always covers new space and old-space use, counts and times are never negative,
// tenured garbage is part of what was tenured, and the same inputs give the same Stats.
func TestProperties(t *testing.T) { checkProperties(t, 0, 10) }

// TestLongProperties is TestProperties over 30 more seeds (slow under the race detector, so
// run without it, README).
func TestLongProperties(t *testing.T) {
	if testing.Short() {
		t.Skip("30 more seeds (slow under the race detector): runs without -short")
	}
	checkProperties(t, 10, 40)
}

// checkProperties checks the invariants over the seeds from to to (excluded).
func checkProperties(t *testing.T, from, to uint64) {
	for seed := from; seed < to; seed++ {
		p := randomProfile(t, seed, 20000)
		rng := rand.New(rand.NewPCG(seed, 7))
		for k := range 3 {
			params := randomParams(rng)
			t.Run(fmt.Sprintf("seed%d/%d", seed, k), func(t *testing.T) {
				var events int
				layout := ComputeLayout(params)
				opts := Options{OnEvent: func(e *Event) {
					events++
					require.GreaterOrEqual(t, e.FootprintBytes, layout.NewSpaceBytes+e.OldUsedBytes, "footprint below new space + old use at %v", e.Kind)
					require.GreaterOrEqual(t, e.Seconds, 0.0)
					require.LessOrEqual(t, e.SurvivorBytesAfter, layout.SurvivorBytes)
				}}
				st, err := Run(p, params, PriorCost(), opts)
				require.NoError(t, err)
				require.Equal(t, st.AllocatedBytes+params.ImageBytes, st.HeapBytesAtEnd+st.ReclaimedBytes, "bytes not conserved")
				require.Equal(t, uint64(p.WeightedBytes()), st.AllocatedBytes)
				require.GreaterOrEqual(t, st.PeakFootprintBytes, st.HeapBytesAtEnd)
				require.GreaterOrEqual(t, st.HeapBytesAtEnd, st.LiveBytesAtEnd)
				require.Equal(t, st.FullGCs, st.FullGCsRatio+st.FullGCsLargeAlloc+st.FullGCsExplicit)
				require.LessOrEqual(t, st.TenuredGarbageBytes, st.TenuredBytes)
				require.LessOrEqual(t, st.TenuredByAgeBytes, st.TenuredBytes)
				require.GreaterOrEqual(t, st.TenuredObjects, 0.0)
				require.GreaterOrEqual(t, st.GCSeconds, 0.0)
				require.InDelta(t, st.GCSeconds, st.ScavengeSeconds+st.FullGCSeconds+st.GrowSeconds+st.ShrinkSeconds, 1e-9*st.GCSeconds+1e-12)
				require.Equal(t, st.Scavenges+st.FullGCs+st.Grows+st.Shrinks, events, "one event per scavenge, full GC, growth and shrink")
				again, err := Simulate(p, params, PriorCost())
				require.NoError(t, err)
				require.Equal(t, st, again, "same inputs, different Stats")
			})
		}
	}
}

// TestParallelSharedProfile runs simulations concurrently on one Profile (go test -race
// checks that heapsim never writes to it) and compares them with sequential runs.
func TestParallelSharedProfile(t *testing.T) {
	p := randomProfile(t, 99, 20000)
	rng := rand.New(rand.NewPCG(99, 1))
	params := make([]Params, 8)
	want := make([]Stats, len(params))
	for i := range params {
		params[i] = randomParams(rng)
		st, err := Simulate(p, params[i], DefaultCost())
		require.NoError(t, err)
		want[i] = st
	}
	got := make([]Stats, len(params))
	done := make(chan int)
	for i := range params {
		go func() {
			st, err := Simulate(p, params[i], DefaultCost())
			if err == nil {
				got[i] = st
			}
			done <- i
		}()
	}
	for range params {
		<-done
	}
	require.Equal(t, want, got)
}

func TestValidateNamesTheField(t *testing.T) {
	cases := []struct {
		field string
		mod   func(*Params)
	}{
		{"newSpaceBytes", func(p *Params) { p.NewSpaceBytes = 2 * GiB }},
		{"newSpaceBytes", func(p *Params) { p.NewSpaceBytes = 0 }},
		{"newSpaceBytes", func(p *Params) { p.NewSpaceBytes = 256 * KiB }},
		{"fullGCRatio", func(p *Params) { p.FullGCRatio = -1 }},
		{"fullGCRatio", func(p *Params) { p.FullGCRatio = nan() }},
		{"growthHeadroomBytes", func(p *Params) { p.GrowthHeadroomBytes = 100 * KiB }},
		{"shrinkThresholdBytes", func(p *Params) { p.ShrinkThresholdBytes = 0 }},
		{"survivors.proportion", func(p *Params) { p.Survivors = Survivors{Mode: SurvivorsProportion, Proportion: -0.5} }},
		{"survivors.proportion", func(p *Params) { p.Survivors = Survivors{Mode: SurvivorsProportion, Proportion: inf()} }},
		{"stackPages", func(p *Params) { p.StackPages = 0 }},
		{"pageBytes", func(p *Params) { p.PageBytes = 3000 }},
		{"maxOldSpaceBytes", func(p *Params) { p.MaxOldSpaceBytes = 1 * MiB }},
	}
	for _, c := range cases {
		p := DefaultParams()
		c.mod(&p)
		err := p.Validate()
		require.ErrorIs(t, err, ErrInvalidParams, c.field)
		require.Contains(t, err.Error(), c.field)
	}
	require.NoError(t, DefaultParams().Validate())
	c := DefaultCost()
	c.RSPointerSlotSeconds = -1
	require.ErrorContains(t, c.Validate(), "rsPointerSlotSeconds")
}

// TestEventLogAddsUpToStats: the event log's per-event figures sum to the run's totals.
func TestEventLogAddsUpToStats(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		p := randomProfile(t, seed, 20000)
		var tenured uint64
		var secs float64
		var scav, full int
		st, err := Run(p, DefaultParams(), DefaultCost(), Options{OnEvent: func(e *Event) {
			tenured += e.TenuredBytes
			secs += e.Seconds
			switch e.Kind {
			case EventScavenge:
				scav++
			case EventFullGC:
				full++
			}
		}})
		require.NoError(t, err)
		require.Equal(t, st.TenuredBytes, tenured, "seed %d", seed)
		require.Equal(t, st.Scavenges, scav)
		require.Equal(t, st.FullGCs, full)
		require.InDelta(t, st.GCSeconds, secs, 1e-9*max(st.GCSeconds, 1))
	}
}
