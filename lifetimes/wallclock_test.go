package lifetimes

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile"
)

// TestWallClockAt: linear between points, the later time at a pause's clock, flat past the end.
func TestWallClockAt(t *testing.T) {
	w := WallClock{Clocks: []uint64{0, 100, 100, 200}, Seconds: []float64{0, 1, 3, 4}}
	require.NoError(t, w.Validate())
	assert.InDelta(t, 0.5, w.At(50), 1e-12)
	assert.InDelta(t, 3, w.At(100), 1e-12, "a clock at a pause reads after it")
	assert.InDelta(t, 3.5, w.At(150), 1e-12)
	assert.InDelta(t, 4, w.At(300), 1e-12)
	assert.Error(t, WallClock{Clocks: []uint64{0}, Seconds: []float64{0}}.Validate())
	assert.Error(t, WallClock{Clocks: []uint64{0, 10}, Seconds: []float64{1, 0}}.Validate())
}

// TestBucketedShare: an object is long-lived from one bucket of wall-clock lifetime; a GC
// pause it spans counts, as in a profiler timing with a clock ([IWST23-L]).
func TestBucketedShare(t *testing.T) {
	var b profile.Builder
	c := b.Class("Object")
	b.Add(c, 16, 10, 20, 1, 0)   // 0.1 s of mutator: short
	b.Add(c, 16, 90, 110, 3, 0)  // 0.2 s and the 2 s pause at 100: long
	b.Add(c, 32, 0, 200, 1, 0)   // the run: long
	b.Add(c, 16, 120, 180, 5, 0) // 0.6 s: short
	p, err := b.Build(profile.Meta{Source: "test", EndBytes: 200})
	require.NoError(t, err)
	w := WallClock{Clocks: []uint64{0, 100, 100, 200}, Seconds: []float64{0, 1, 3, 4}}
	s, err := BucketedShare(p, w, 0)
	require.NoError(t, err)
	assert.Equal(t, DefaultBucketSeconds, s.BucketSeconds)
	assert.InDelta(t, 4, s.RunSeconds, 1e-12)
	assert.Equal(t, uint64(4), s.LongLivedObjects)
	assert.Equal(t, uint64(3*16+32), s.LongLivedBytes)
	assert.InDelta(t, 4.0/10, s.LongLivedObjectShare, 1e-12)
	assert.InDelta(t, 80.0/176, s.LongLivedByteShare, 1e-12)
	assert.InDelta(t, 0.25, s.ThresholdShare, 1e-12)

	s, err = BucketedShare(p, w, 0.5)
	require.NoError(t, err)
	assert.Equal(t, uint64(9), s.LongLivedObjects, "the 0.6 s objects too")
	_, err = BucketedShare(p, w, -1)
	assert.Error(t, err)
}
