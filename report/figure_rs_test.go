package report

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gctune/gctune/heapsim"
)

// TestRSMembershipSeries: the membership series follow the scavenge events only, scanned and
// kept apart, and count the scavenges after which an entry stayed.
func TestRSMembershipSeries(t *testing.T) {
	events := []heapsim.Event{
		{Kind: heapsim.EventScavenge, ClockBytes: 100, RSEntries: 2, RSRemainingEntries: 2},
		{Kind: heapsim.EventFullGC, ClockBytes: 150},
		{Kind: heapsim.EventScavenge, ClockBytes: 200, RSEntries: 3, RSRemainingEntries: 1},
		{Kind: heapsim.EventScavenge, ClockBytes: 300, RSEntries: 1},
	}
	m := rsMembershipSeries(events, func(c uint64) float64 { return float64(c) / 100 })
	assert.Equal(t, 3, m.scavenges)
	assert.Equal(t, 2, m.keptScans)
	assert.Equal(t, []float64{1, 2, 3}, []float64{m.scanned[0].X, m.scanned[1].X, m.scanned[2].X})
	assert.Equal(t, []float64{2, 3, 1}, []float64{m.scanned[0].Y, m.scanned[1].Y, m.scanned[2].Y})
	assert.Equal(t, []float64{2, 1, 0}, []float64{m.kept[0].Y, m.kept[1].Y, m.kept[2].Y})
}
