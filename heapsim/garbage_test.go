package heapsim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Garbage fills eden and so moves the scavenges; its bytes are allocated (mutator time) and
// reclaimed, never copied or tenured.
func TestGarbageMovesScavenges(t *testing.T) {
	p := randomProfile(t, 3, 20_000)
	params, cost := DefaultParams(), DefaultCost()
	plain, err := Simulate(p, params, cost)
	require.NoError(t, err)

	// A whole eden cycle before the first record: exactly one more scavenge, of garbage only.
	whole, err := Run(p, params, cost, Options{Garbage: []Garbage{{AtBytes: 0, EdenFraction: 1}}})
	require.NoError(t, err)
	threshold := uint64(ComputeLayout(params).ScavengeThresholdBytes)
	assert.Equal(t, threshold, whole.GarbageBytes)
	assert.Equal(t, plain.AllocatedBytes+threshold, whole.AllocatedBytes)
	assert.Equal(t, plain.Scavenges+1, whole.Scavenges, "the garbage fills eden once")
	assert.Greater(t, whole.MutatorSeconds, plain.MutatorSeconds)

	// Half a cycle shifts every later scavenge: the run differs, and stays valid.
	half, err := Run(p, params, cost, Options{Garbage: []Garbage{{AtBytes: 0, EdenFraction: 0.5}, {AtBytes: p.Meta.EndBytes / 2, Bytes: 3 * MiB}}})
	require.NoError(t, err)
	assert.Equal(t, threshold/2+3*MiB, half.GarbageBytes)
	assert.NotEqual(t, plain.CopiedBytes, half.CopiedBytes, "the scavenges met other survivors")
	assert.LessOrEqual(t, half.Scavenges, plain.Scavenges+2)
	assert.GreaterOrEqual(t, half.Scavenges, plain.Scavenges)

	// Deterministic.
	again, err := Run(p, params, cost, Options{Garbage: []Garbage{{AtBytes: 0, EdenFraction: 0.5}, {AtBytes: p.Meta.EndBytes / 2, Bytes: 3 * MiB}}})
	require.NoError(t, err)
	assert.Equal(t, half, again)

	// A burst past the last record is dropped: the run is over.
	late, err := Run(p, params, cost, Options{Garbage: []Garbage{{AtBytes: p.Meta.EndBytes + 1, Bytes: 64 * MiB}}})
	require.NoError(t, err)
	assert.Equal(t, plain, late)
}

func TestGarbageValidated(t *testing.T) {
	p := randomProfile(t, 3, 1000)
	for name, g := range map[string][]Garbage{
		"negative fraction": {{EdenFraction: -0.1}},
		"NaN fraction":      {{EdenFraction: nan()}},
		"out of order":      {{AtBytes: 10}, {AtBytes: 5}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Run(p, DefaultParams(), DefaultCost(), Options{Garbage: g})
			require.ErrorIs(t, err, ErrInvalidParams)
		})
	}
}

// A caller that gives the garbage's objects per byte gets the run it would compute itself.
func TestGarbageRateGiven(t *testing.T) {
	p := randomProfile(t, 3, 20_000)
	g := []Garbage{{AtBytes: 0, EdenFraction: 0.5}, {AtBytes: p.Meta.EndBytes / 2, Bytes: 3 * MiB}}
	computed, err := Run(p, DefaultParams(), DefaultCost(), Options{Garbage: g})
	require.NoError(t, err)
	given, err := Run(p, DefaultParams(), DefaultCost(), Options{Garbage: g, GarbageObjectsPerByte: GarbageRate(p)})
	require.NoError(t, err)
	assert.Equal(t, computed, given)
	assert.Greater(t, GarbageRate(p), 0.0)
}
