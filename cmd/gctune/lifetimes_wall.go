package main

import (
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/profile"
)

// bucketSecondsUsage is --bucket-seconds's help.
const bucketSecondsUsage = "also state the long-lived share as [IWST23-L] read it: lifetimes on the wall clock of the run simulated at the default parameters (GC pauses included), long-lived from one bucket of this many seconds (the paper: 1); 0 = off"

// wallShare is --bucket-seconds: p's long-lived share read on the wall clock of its default
// run, simulated with the built-in cost model (docs/calibration.md), in buckets of bucket
// seconds; nil when bucket is 0.
func wallShare(p *profile.Profile, bucket float64) (*lifetimes.BucketShare, error) {
	if bucket == 0 {
		return nil, nil
	}
	if !(bucket > 0) {
		return nil, usageErrorf("--bucket-seconds %v: want a positive number of seconds, or 0", bucket)
	}
	clocks, secs, err := heapsim.WallClock(p, heapsim.DefaultParams(), heapsim.DefaultCost())
	if err != nil {
		return nil, err
	}
	return lifetimes.BucketedShare(p, lifetimes.WallClock{Clocks: clocks, Seconds: secs}, bucket)
}
