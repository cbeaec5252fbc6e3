package pretenure

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/uncertainty"
)

// twoSites: "App>>#cache" allocates 64-byte objects that live to the end, "App>>#parse" ten
// twice as many that die 1 KiB later.
func twoSites(t *testing.T) *profile.Profile {
	t.Helper()
	var b profile.Builder
	obj := b.Class("Object")
	cache, parse := b.Site("App>>#cache @3"), b.Site("App>>#parse @7")
	const n = 600_000
	end := uint64(n * (64 + 2*64) * 2)
	clock := uint64(0)
	for range n {
		i := b.Add(obj, 64, clock, end, 1, profile.FlagAliveAtEnd)
		b.SetSite(i, cache)
		clock += 64
		j := b.Add(obj, 64, clock, clock+1024, 2, 0)
		b.SetSite(j, parse)
		clock += 128
	}
	p, err := b.Build(profile.Meta{Source: "two-sites", EndBytes: end})
	require.NoError(t, err)
	return p
}

func problem(t *testing.T, p *profile.Profile, replicas int) *objective.Problem {
	t.Helper()
	m := uncertainty.Default()
	m.Replicas, m.SearchReplicas = replicas, 0
	if replicas == 0 {
		m = uncertainty.Model{}
	}
	prob, err := objective.NewProblem([]objective.Workload{{Name: "w", Profile: p}}, heapsim.DefaultCost(), heapsim.DefaultParams(),
		objective.Settings{Uncertainty: m, Seed: 7})
	require.NoError(t, err)
	return prob
}

// TestLongAdviseLongLivedSite: the site whose objects the scavenger copies and tenures is tried
// and advised, with a gain on every replica; the site whose objects die young is not even a
// candidate (the scavenger tenures nothing of it).
func TestLongAdviseLongLivedSite(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates twoSites' 1.2 million records (slow under the race detector): runs without -short")
	}
	prob := problem(t, twoSites(t), 4)
	tuned := heapsim.DefaultParams()
	tuned.GrowthHeadroomBytes = 256 << 20
	// The mutator's cost dominates this small run: the gain is about 1 %, so the test
	// advises from half of it.
	adv, err := Advise(prob, tuned, Options{Tolerance: 0.005})
	require.NoError(t, err)
	require.Len(t, adv.Candidates, 1)
	c := adv.Candidates[0]
	assert.Equal(t, []string{"App>>#cache @3"}, c.Sites)
	assert.Equal(t, 1.0, c.LongLivedShare)
	assert.Greater(t, c.TenuredBytes, uint64(0))
	assert.Len(t, c.Gains, 4)
	assert.True(t, c.Advised, "gain %v", c.Gain)
	assert.Greater(t, c.Interval.Lo, 1.0, "faster on every replica")
	assert.Contains(t, c.Change, "in App>>#cache (at pc 3): basicNew → basicNewTenured")
	assert.Equal(t, Note, adv.Note)
	assert.Len(t, adv.Advised(), 1)
	assert.Nil(t, adv.Combined)
}

// TestLongAdviseIsDeterministic: the same problem, parameters and options give the same advice.
func TestLongAdviseIsDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates twoSites' 1.2 million records (slow under the race detector): runs without -short")
	}
	p := twoSites(t)
	a, err := Advise(problem(t, p, 2), heapsim.DefaultParams(), Options{})
	require.NoError(t, err)
	b, err := Advise(problem(t, p, 2), heapsim.DefaultParams(), Options{})
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

// TestLongAdviseModelOff: with the uncertainty model off the sites are judged on the profiled
// run itself.
func TestLongAdviseModelOff(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates twoSites' 1.2 million records (slow under the race detector): runs without -short")
	}
	adv, err := Advise(problem(t, twoSites(t), 0), heapsim.DefaultParams(), Options{})
	require.NoError(t, err)
	require.NotEmpty(t, adv.Candidates)
	assert.Len(t, adv.Candidates[0].Gains, 1)
}

// TestAdviseNoSites: a profile without sites is refused.
func TestAdviseNoSites(t *testing.T) {
	var b profile.Builder
	b.Add(b.Class("A"), 16, 0, 16, 1, 0)
	plain, err := b.Build(profile.Meta{EndBytes: 1 << 20})
	require.NoError(t, err)
	_, err = Advise(problem(t, plain, 0), heapsim.DefaultParams(), Options{})
	assert.ErrorIs(t, err, ErrNoSites)
}

// TestLongAttribute: at the defaults the long-lived site's objects are what the scavenger tenures,
// all of what enters old space; the site dying young is left out.
func TestLongAttribute(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates twoSites' 1.2 million records (slow under the race detector): runs without -short")
	}
	ws, err := Attribute(problem(t, twoSites(t), 0))
	require.NoError(t, err)
	require.Len(t, ws, 1)
	require.Len(t, ws[0].Sites, 1)
	s := ws[0].Sites[0]
	assert.Equal(t, "App>>#cache @3", s.Site)
	assert.Greater(t, s.TenuredBytes, uint64(0))
	assert.InDelta(t, 1.0, s.OldShare, 0.01)
}
