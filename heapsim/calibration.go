package heapsim

// DefaultCost returns the calibrated cost model. The coefficients have two origins:
//
//   - Priors from the mechanics of §6 and ordinary hardware (a 2020s laptop, like the MacBook of
//     [IWST23-L]): memory bandwidth of a few GB/s for copying and sweeping, a cache miss or two
//     per object marked or copied, about a nanosecond per remembered-set slot scanned.
//   - Three scale factors (mutator, scavenge, full GC) fitted once by
//     `go run ./heapsim/calibrate -write`
//     on the three bundled DataFrame workloads at default parameters against the published
//     default runs ([IWST23-L] Table 1); docs/calibration.md has the fit. Never refit on runs
//     with non-default parameters.
func DefaultCost() Cost {
	return PriorCost().Scaled(calibratedScales())
}

// Scaled returns the cost with each group of coefficients multiplied by its scale.
func (c Cost) Scaled(s Scales) Cost {
	c.MutatorSecondsPerByte *= s.MutatorByte
	c.MutatorSecondsPerObject *= s.MutatorObject
	c.ScavengeFixedSeconds *= s.Scavenge
	c.CopySecondsPerByte *= s.Scavenge
	c.CopySecondsPerObject *= s.Scavenge
	c.RSPointerSlotSeconds *= s.Scavenge
	c.RSInOrderSlotSeconds *= s.Scavenge
	c.RSImmediateSlotSeconds *= s.Scavenge
	c.TenureSecondsPerObject *= s.Scavenge
	c.TenureSecondsPerByte *= s.Scavenge
	c.FullGCFixedSeconds *= s.FullGC
	c.MarkSecondsPerObject *= s.FullGC
	c.MarkSecondsPerPointerSlot *= s.FullGC
	c.CompactScanSecondsPerByte *= s.FullGC
	c.CompactMoveSecondsPerByte *= s.FullGC
	return c
}

// Scales are the factors the calibration fits, each multiplying a group of prior coefficients:
// the mutator's per-byte and per-object costs (the calibration fits one factor for both), every
// scavenge coefficient, every full-GC coefficient. Growth and shrink costs stay at their priors
// (too small to fit).
type Scales struct {
	MutatorByte   float64 `json:"mutatorByte"`
	MutatorObject float64 `json:"mutatorObject"`
	Scavenge      float64 `json:"scavenge"`
	FullGC        float64 `json:"fullGC"`
}

// PriorCost returns the uncalibrated coefficients; each says where its value comes from.
func PriorCost() Cost {
	return Cost{
		// Mutator: parsing CSV text allocates; ~10 ns per byte allocated and ~20 ns per object
		// (method sends, primitive calls) of JIT-compiled Pharo code. Fitted scale applies.
		MutatorSecondsPerByte:   10e-9,
		MutatorSecondsPerObject: 20e-9,
		// Scavenge fixed: scanning 32 stack pages and the interpreter roots, ~50 µs.
		ScavengeFixedSeconds: 50e-6,
		// Copy: each live field written twice, block copy then scan (§6): ~3 GB/s, plus ~10 ns
		// per object for forwarding and the header.
		CopySecondsPerByte:   0.33e-9,
		CopySecondsPerObject: 10e-9,
		// Remembered set, per slot of each entry at every scavenge, no card marking
		// (scavengeReferentsOf:additionalTestingBlock:, docs/spur-model.md §3.2, §3.6),
		// measured on this project's machine by BenchmarkRSScan (heapsim/rsscan_bench_test.go,
		// the least of repeated runs, docs/calibration.md): an immediate slot (a load and a tag
		// test) 0.31 ns; a pointer slot reads its referent's header (isForwarded:) and writes
		// the slot back: 20.4 ns when the referents are scattered, 1.95 ns when each lies
		// 32 bytes after the previous slot's, as objects tenured together do (locality.go
		// prices other strides and which slots are in order).
		RSPointerSlotSeconds:   20.4e-9,
		RSInOrderSlotSeconds:   1.95e-9,
		RSImmediateSlotSeconds: 0.31e-9,
		// Tenure: free-list allocation (~30 ns) and copy plus the slot scan of the new copy (§3.2).
		TenureSecondsPerObject: 30e-9,
		TenureSecondsPerByte:   0.5e-9,
		// Full GC fixed part: root marking, ephemerons, bookkeeping, ~1 ms.
		FullGCFixedSeconds: 1e-3,
		// Mark (markAndShouldScan:, docs/spur-model.md §4.1): ~20 ns per object reached (its
		// header is a cache miss, the mark bit is set, the object pushed on the mark stack),
		// and ~2 ns per pointer slot followed (a load, a tag test and, for a referent already
		// marked, a header read that usually hits the cache). Byte objects are not scanned.
		MarkSecondsPerObject:      20e-9,
		MarkSecondsPerPointerSlot: 2e-9,
		// Planning compactor: three sweeps over old space from the first free object (§4.1, §6)
		// at ~10 GB/s, and ~3 GB/s for the bytes slid down.
		CompactPasses:             3,
		CompactScanSecondsPerByte: 0.1e-9,
		CompactMoveSecondsPerByte: 0.33e-9,
		// Growth: one mmap plus the bridge and free-chunk set-up, ~50 µs; pages are touched
		// lazily, so no per-byte charge. Shrink: one munmap, ~50 µs.
		GrowSecondsPerSegment:   50e-6,
		GrowSecondsPerByte:      0,
		ShrinkSecondsPerSegment: 50e-6,
	}
}
