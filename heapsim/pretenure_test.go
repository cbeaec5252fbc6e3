package heapsim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile"
)

// pretenureProfile builds a run of two sites interleaved: "App>>#cache" allocates objects of
// 64 bytes that live to the end (12.8 MB in all), "App>>#parse" ten times as many that die
// 1 KiB after their birth; with a container site "App>>#table" when withTable is set (one
// 8 KiB Array at the start receiving young stores for the whole run, as a cache's table does).
func pretenureProfile(t *testing.T, withTable bool) *profile.Profile {
	t.Helper()
	var b profile.Builder
	obj := b.Class("Object")
	arr := b.Class("Array")
	cache, parse, table := b.Site("App>>#cache @3"), b.Site("App>>#parse @7"), b.Site("App>>#table @2")
	const n = 200_000
	end := uint64(n * (64 + 10*64) * 2)
	clock := uint64(0)
	if withTable {
		i := b.Add(arr, 8208, clock, end, 1, profile.FlagAliveAtEnd)
		b.SetSite(i, table)
		b.AddContainer(profile.Container{Record: int32(i), StoresFromBytes: 0, StoresUntilBytes: end})
		clock += 8208
	}
	for range n {
		i := b.Add(obj, 64, clock, end, 1, profile.FlagAliveAtEnd)
		b.SetSite(i, cache)
		clock += 64
		j := b.Add(obj, 64, clock, clock+1024, 10, 0)
		b.SetSite(j, parse)
		clock += 640
	}
	p, err := b.Build(profile.Meta{Source: "pretenure-test", EndBytes: end})
	require.NoError(t, err)
	return p
}

// site returns the index of the site named name.
func siteIndex(t *testing.T, p *profile.Profile, name string) uint32 {
	t.Helper()
	m := p.MatchSites(name)
	require.Len(t, m, 1, name)
	return m[0]
}

func runPretenured(t *testing.T, p *profile.Profile, sites ...string) (Stats, []uint64) {
	t.Helper()
	var idx []uint32
	for _, s := range sites {
		idx = append(idx, siteIndex(t, p, s))
	}
	q, err := Pretenured(p, idx)
	require.NoError(t, err)
	bySite := make([]uint64, len(p.SiteNames))
	st, err := Run(q, DefaultParams(), DefaultCost(), Options{TenuredBytesBySite: bySite})
	require.NoError(t, err)
	return st, bySite
}

// TestPretenureLongLived: pretenuring a site whose objects live to the end, as
// primitiveNewOldSpace (596) does, takes them out of eden: the scavenger no longer copies and
// tenures them (SpurGenerationScavenger>>copyAndForward:, copyToOldSpace:bytes:format:), so the
// bytes tenured by scavenges fall by theirs, and the GC time falls.
func TestPretenureLongLived(t *testing.T) {
	p := pretenureProfile(t, false)
	base, baseBySite := runPretenured(t, p)
	cache := siteIndex(t, p, "App>>#cache")
	require.Greater(t, baseBySite[cache], uint64(0), "at the defaults the scavenger tenures the cache")
	var sum uint64
	for _, b := range baseBySite {
		sum += b
	}
	assert.Equal(t, base.TenuredBytes, sum, "the bytes by site add up to the bytes tenured")

	pre, preBySite := runPretenured(t, p, "App>>#cache")
	assert.Zero(t, preBySite[cache], "a pretenured object is never copied")
	assert.Less(t, pre.TenuredBytes, base.TenuredBytes)
	assert.Less(t, pre.CopiedBytes, base.CopiedBytes)
	assert.GreaterOrEqual(t, pre.DirectOldBytes, uint64(200_000*64), "every pretenured byte is allocated in old space")
	assert.Less(t, pre.Scavenges, base.Scavenges, "eden fills only with the other site's objects")
	assert.Less(t, pre.GCSeconds, base.GCSeconds)
}

// TestPretenureShortLivedCostsFullGCs: pretenuring a site whose objects die young puts every
// one of their bytes in old space, where only a full GC reclaims them: old space grows past
// heapGrowthToSizeGCRatio (SpurMemoryManager>>sufficientSpaceAfterGC:) again and again, and
// the full GCs cost more than the scavenges they spare.
func TestPretenureShortLivedCostsFullGCs(t *testing.T) {
	p := pretenureProfile(t, false)
	base, _ := runPretenured(t, p)
	pre, _ := runPretenured(t, p, "App>>#parse")
	assert.Greater(t, pre.FullGCs, base.FullGCs, "short-lived pretenured objects fill old space")
	assert.Greater(t, pre.GCSeconds, base.GCSeconds, "the trade-off: the full GCs cost more than the scavenges saved")
}

// TestPretenureContainerIsRemembered: a pretenured object that receives young ones is old
// from its birth, so the write barrier (SpurMemoryManager>>storePointer:ofObject:withValue:
// → possibleOldObjectStoreInto:) remembers it at its first young store, and every scavenge
// scans it (scavengeRememberedSetStartingAt:); young, it was scanned by no scavenge until it
// was tenured.
func TestPretenureContainerIsRemembered(t *testing.T) {
	p := pretenureProfile(t, true)
	base, _ := runPretenured(t, p)
	pre, _ := runPretenured(t, p, "App>>#table")
	assert.Greater(t, pre.ScavengesWithRS, base.ScavengesWithRS)
	assert.Equal(t, pre.Scavenges, pre.ScavengesWithRS, "old from its birth: in the set at every scavenge")
}

// TestPretenuredView: the view changes only the chosen sites' flags and leaves the profile
// alone; a profile without sites is refused.
func TestPretenuredView(t *testing.T) {
	p := pretenureProfile(t, false)
	cache := siteIndex(t, p, "App>>#cache")
	q, err := Pretenured(p, []uint32{cache})
	require.NoError(t, err)
	for i := range p.Len() {
		assert.Zero(t, p.Flags[i]&profile.FlagPretenured)
		assert.Equal(t, p.Site[i] == cache, q.Flags[i]&profile.FlagPretenured != 0)
	}
	_, err = Pretenured(p, []uint32{99})
	assert.Error(t, err)
	var b profile.Builder
	b.Add(b.Class("A"), 16, 0, 16, 1, 0)
	plain, err := b.Build(profile.Meta{EndBytes: 16})
	require.NoError(t, err)
	_, err = Pretenured(plain, nil)
	assert.Error(t, err)
}
