package lifetimes

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile"
)

// sitesProfile: site A allocates k records of weight w and 32 bytes living to the end, site B
// k records of weight w and 64 bytes living 100 bytes; one large record from site C.
func sitesProfile(t *testing.T, k int, w uint32) *profile.Profile {
	t.Helper()
	var b profile.Builder
	c := b.Class("Object")
	sa, sb, sc := b.Site("A>>#a @1"), b.Site("B>>#b @2"), b.Site("C>>#c @3")
	clock := uint64(0)
	end := uint64(k)*uint64(w)*96 + 2_000_000
	for range k {
		i := b.Add(c, 32, clock, end, w, profile.FlagAliveAtEnd)
		b.SetSite(i, sa)
		clock += 32 * uint64(w)
		j := b.Add(c, 64, clock, clock+100, w, 0)
		b.SetSite(j, sb)
		clock += 64 * uint64(w)
	}
	l := b.Add(c, 1_000_000, clock, clock+10, 1, 0)
	b.SetSite(l, sc)
	p, err := b.Build(profile.Meta{Source: "sites", EndBytes: end, SamplingRate: 1 / float64(w)})
	require.NoError(t, err)
	return p
}

func TestSites(t *testing.T) {
	p := sitesProfile(t, 1000, 1)
	tenured := make([]uint64, len(p.SiteNames))
	tenured[0] = 32_000 // as a simulation would say: A's objects tenured
	rows, err := Sites(p, SiteOptions{TenuredBytes: tenured})
	require.NoError(t, err)
	require.Len(t, rows, 3)
	assert.Equal(t, "A>>#a @1", rows[0].Site, "the most tenured first")
	assert.Equal(t, uint64(32_000), rows[0].TenuredBytes)
	assert.Equal(t, 1.0, rows[0].LongLivedShare)
	assert.Equal(t, "C>>#c @3", rows[1].Site, "then by bytes")
	assert.Equal(t, uint64(1_000_000), rows[1].DirectOldBytes)
	assert.Equal(t, "B>>#b @2", rows[2].Site)
	assert.Equal(t, 0.0, rows[2].LongLivedShare)
	assert.InDelta(t, 100/float64(p.Meta.EndBytes), rows[2].AverageLifetime, 1e-12)
	assert.Zero(t, rows[0].ObjectsCI95, "not sampled: no interval")

	var b profile.Builder
	b.Add(b.Class("A"), 16, 0, 16, 1, 0)
	plain, err := b.Build(profile.Meta{EndBytes: 16})
	require.NoError(t, err)
	_, err = Sites(plain, SiteOptions{})
	assert.Error(t, err)
}

// TestSitesSampledInterval: at 1/N a site of k records is estimated at k·N objects ± 1.96·N·
// sqrt(k(1 − 1/N)); the large record, weighing 1, adds none.
func TestSitesSampledInterval(t *testing.T) {
	p := sitesProfile(t, 400, 100)
	rows, err := Sites(p, SiteOptions{Sampled: true})
	require.NoError(t, err)
	for _, r := range rows {
		switch r.Site {
		case "A>>#a @1":
			assert.Equal(t, uint64(40_000), r.Objects)
			assert.InDelta(t, 1.959964*100*math.Sqrt(400*0.99), r.ObjectsCI95, 1e-6)
			assert.InDelta(t, 32*r.ObjectsCI95, r.BytesCI95, 1e-6)
			assert.Zero(t, r.LongLivedShareCI95, "every record long-lived: no spread")
		case "C>>#c @3":
			assert.Zero(t, r.ObjectsCI95)
		}
	}
}
