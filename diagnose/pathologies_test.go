package diagnose

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gctune/gctune/heapsim"
)

func TestPathologiesTable(t *testing.T) {
	var kinds []string
	for _, p := range pathologies() {
		kinds = append(kinds, p.kind)
		assert.NotEmpty(t, p.title, p.kind)
		assert.NotNil(t, p.present, p.kind)
		assert.NotNil(t, p.cost, p.kind)
		assert.NotNil(t, p.evidence, p.kind)
		assert.NotNil(t, p.count, p.kind)
	}
	assert.Equal(t, []string{KindLargeAllocBursts, KindRatioLive, KindRememberedSet, KindPrematureTenuring}, kinds)

	// Each kind reads its own measure of the run.
	r := runResult{acc: &accumulator{large: 2, largeSeconds: 1.5, rsSeconds: 0.25},
		stats: heapsim.Stats{TenuredBytes: 100, TenuredShortLivedBytes: 25, TenureSeconds: 2}}
	assert.Equal(t, 1.5, r.cost(KindLargeAllocBursts))
	assert.Equal(t, 0.25, r.cost(KindRememberedSet))
	assert.Equal(t, 0.5, r.cost(KindPrematureTenuring))
	assert.True(t, r.present(KindLargeAllocBursts))
	assert.False(t, r.present(KindRatioLive))
	assert.Zero(t, r.cost("no-such-kind"))
	assert.False(t, r.present("no-such-kind"))
	assert.Empty(t, evidenceCount("no-such-kind", r, r))
	back := runResult{acc: &accumulator{large: 3}}
	assert.Equal(t, " (3 such full GCs instead of 2)", evidenceCount(KindLargeAllocBursts, r, back))
}
