package lifetimes

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/gctune/gctune/profile"
)

// WallClock maps a profile's clock (bytes allocated) to seconds of a run: piecewise linear
// through its points, which heapsim.WallClock makes from a simulated run (mutator time plus
// GC pauses). Two points at one clock are a pause: a clock there reads the later time.
type WallClock struct {
	Clocks  []uint64
	Seconds []float64
}

// Validate checks that the points are as many, at least two, with clocks and seconds that
// never decrease, seconds finite.
func (w WallClock) Validate() error {
	if len(w.Clocks) != len(w.Seconds) || len(w.Clocks) < 2 {
		return fmt.Errorf("lifetimes: wall clock: %d clocks and %d seconds: want as many, at least 2", len(w.Clocks), len(w.Seconds))
	}
	for i := 1; i < len(w.Clocks); i++ {
		if w.Clocks[i] < w.Clocks[i-1] || !(w.Seconds[i] >= w.Seconds[i-1]) || math.IsInf(w.Seconds[i], 0) {
			return fmt.Errorf("lifetimes: wall clock: point %d (%d, %g) goes back from (%d, %g)", i, w.Clocks[i], w.Seconds[i], w.Clocks[i-1], w.Seconds[i-1])
		}
	}
	return nil
}

// At returns the seconds at clock c: the last point at or before c, interpolated towards the
// next; past the last point, its seconds.
func (w WallClock) At(c uint64) float64 {
	i := sort.Search(len(w.Clocks), func(i int) bool { return w.Clocks[i] > c }) - 1
	if i < 0 {
		return w.Seconds[0]
	}
	if i == len(w.Clocks)-1 || w.Clocks[i+1] == w.Clocks[i] {
		return w.Seconds[i]
	}
	f := float64(c-w.Clocks[i]) / float64(w.Clocks[i+1]-w.Clocks[i])
	return w.Seconds[i] + f*(w.Seconds[i+1]-w.Seconds[i])
}

// DefaultBucketSeconds is [IWST23-L]'s bucket: lifetimes read from 1-second buckets.
const DefaultBucketSeconds = 1.0

// BucketShare is the long-lived share read the way [IWST23-L] read it on the 500 MB load
// (25 % of the objects, 40 % of the bytes): lifetimes on a wall clock (microseconds, GC
// pauses included) put in buckets of BucketSeconds, and an object long-lived when its
// lifetime falls beyond the first bucket.
type BucketShare struct {
	BucketSeconds float64 `json:"bucketSeconds"`
	// RunSeconds is the run's length on the wall clock.
	RunSeconds float64 `json:"runSeconds"`
	// LongLivedObjects and LongLivedBytes count the objects living at least one bucket;
	// the shares are of every object and byte of the profile.
	LongLivedObjects     uint64  `json:"longLivedObjects"`
	LongLivedBytes       uint64  `json:"longLivedBytes"`
	LongLivedObjectShare float64 `json:"longLivedObjectShare"`
	LongLivedByteShare   float64 `json:"longLivedByteShare"`
	// ThresholdShare is one bucket as a fraction of the run: the --threshold that reads the
	// same objects as long-lived on the bytes clock when the wall clock is linear in it.
	ThresholdShare float64 `json:"thresholdShare"`
}

// BucketedShare reads p's long-lived share on the wall clock w in buckets of bucketSeconds
// (0: DefaultBucketSeconds): an object is long-lived when w(death) − w(birth) ≥ bucketSeconds.
func BucketedShare(p *profile.Profile, w WallClock, bucketSeconds float64) (*BucketShare, error) {
	if p == nil {
		return nil, errors.New("lifetimes: bucketed share: nil profile")
	}
	if bucketSeconds == 0 {
		bucketSeconds = DefaultBucketSeconds
	}
	if !(bucketSeconds > 0) || math.IsInf(bucketSeconds, 0) {
		return nil, fmt.Errorf("lifetimes: bucket of %v seconds: want a positive number", bucketSeconds)
	}
	if err := w.Validate(); err != nil {
		return nil, err
	}
	s := &BucketShare{BucketSeconds: bucketSeconds, RunSeconds: w.At(p.Meta.EndBytes)}
	var objects, bytes uint64
	for i := range p.Len() {
		n, b := uint64(p.Weight[i]), uint64(p.Weight[i])*uint64(p.SizeBytes[i])
		objects += n
		bytes += b
		if w.At(p.Death[i])-w.At(p.Birth[i]) >= bucketSeconds {
			s.LongLivedObjects += n
			s.LongLivedBytes += b
		}
	}
	s.LongLivedObjectShare = share(s.LongLivedObjects, objects)
	s.LongLivedByteShare = share(s.LongLivedBytes, bytes)
	if s.RunSeconds > 0 {
		s.ThresholdShare = bucketSeconds / s.RunSeconds
	}
	return s, nil
}
