package heapsim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile"
)

// withHeldBy returns a copy of p whose records are held, with probability share each, by a
// record among the 64 around them (before or after, any kind: containers, large and pinned
// objects, byte classes), a harder mix than any spec states.
func withHeldBy(tb testing.TB, p *profile.Profile, seed uint64, share float64) *profile.Profile {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	q := *p
	q.HeldBy = make([]int32, p.Len())
	for i := range q.HeldBy {
		if rng.Float64() >= share {
			continue
		}
		h := min(max(i+rng.IntN(64)-48, 0), p.Len()-1)
		if h != i {
			q.HeldBy[i] = int32(h) + 1
		}
	}
	require.NoError(tb, q.Validate())
	return &q
}

// TestYoungRefsProperties runs the invariants of TestProperties on random profiles with
// young→young references beside containers and listed referents, and checks that the
// remembered set's holders never outnumber the old objects.
func TestYoungRefsProperties(t *testing.T) {
	changed := 0 // runs the references change: the rule is exercised
	for seed := range uint64(12) {
		plain := randomProfile(t, seed, 20000)
		p := withHeldBy(t, plain, seed, 0.3)
		rng := rand.New(rand.NewPCG(seed, 7))
		for k := range 2 {
			params := randomParams(rng)
			t.Run(fmt.Sprintf("seed%d/%d", seed, k), func(t *testing.T) {
				var events int
				layout := ComputeLayout(params)
				opts := Options{OnEvent: func(e *Event) {
					events++
					require.GreaterOrEqual(t, e.FootprintBytes, layout.NewSpaceBytes+e.OldUsedBytes)
					require.LessOrEqual(t, e.SurvivorBytesAfter, layout.SurvivorBytes)
					require.GreaterOrEqual(t, e.RSRemainingEntries, 0.0)
				}}
				st, err := Run(p, params, PriorCost(), opts)
				require.NoError(t, err)
				require.Equal(t, st.AllocatedBytes+params.ImageBytes, st.HeapBytesAtEnd+st.ReclaimedBytes, "bytes not conserved")
				require.LessOrEqual(t, st.TenuredByAgeBytes, st.TenuredBytes)
				// The remembered set's growth scavenges are priced, not replayed: no event.
				require.Equal(t, st.Scavenges-st.RSGrowthScavenges+st.FullGCs+st.Grows+st.Shrinks, events)
				again, err := Simulate(p, params, PriorCost())
				require.NoError(t, err)
				require.Equal(t, st, again, "same inputs, different Stats")
				before, err := Simulate(plain, params, PriorCost())
				require.NoError(t, err)
				if before != st {
					changed++
				}
			})
		}
	}
	require.Positive(t, changed)
	t.Logf("%d of 24 runs changed by the references", changed)
}

// TestYoungRefsParallel runs simulations of one profile with young→young references
// concurrently (go test -race: heapsim never writes to the Profile) against sequential runs.
func TestYoungRefsParallel(t *testing.T) {
	p := withHeldBy(t, randomProfile(t, 99, 20000), 99, 0.3)
	rng := rand.New(rand.NewPCG(99, 1))
	params := []Params{randomParams(rng), randomParams(rng), DefaultParams()}
	want := make([]Stats, len(params))
	for i, pr := range params {
		st, err := Simulate(p, pr, PriorCost())
		require.NoError(t, err)
		want[i] = st
	}
	got := make([]Stats, len(params))
	done := make(chan int)
	for i, pr := range params {
		go func() {
			got[i], _ = Simulate(p, pr, PriorCost())
			done <- i
		}()
	}
	for range params {
		<-done
	}
	require.Equal(t, want, got)
}

// TestYoungRefsStatedNoneUnchanged: a HeldBy column naming no holder is the profile without
// one, to the last field of Stats.
func TestYoungRefsStatedNoneUnchanged(t *testing.T) {
	p := randomProfile(t, 5, 20000)
	q := *p
	q.HeldBy = make([]int32, p.Len())
	for _, params := range []Params{DefaultParams(), randomParams(rand.New(rand.NewPCG(5, 5)))} {
		a, err := Simulate(p, params, PriorCost())
		require.NoError(t, err)
		b, err := Simulate(&q, params, PriorCost())
		require.NoError(t, err)
		require.Equal(t, a, b)
	}
}
