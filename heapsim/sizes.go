package heapsim

import (
	"fmt"
	"math"
)

// ScaledSize is the size of one object of record r, of sizeBytes in the profile, as a
// perturbed replica allocates it (Options.SizeScale): sizeBytes × scale rounded to the
// object's unit (8 bytes for sizes that are multiples of 8, else 1) up or down at random with
// the probability that keeps the expected size exact, never below the smaller of sizeBytes and
// 16 bytes (Spur's smallest object: a header and one slot). The draw is a function of seed and
// r alone (SplitMix64's finaliser of seed + (r+1) × the golden ratio), so the run computes it
// where it reads a size and no replica holds a copy of the sizes.
func ScaledSize(sizeBytes uint32, scale float64, seed uint64, r int) uint32 {
	// x = sizeBytes × scale / unit, the division by a power of two written as the exact
	// multiplication by its inverse (the same value, without a division's latency).
	unit, inverse := uint64(1), 1.0
	if sizeBytes%8 == 0 {
		unit, inverse = 8, 0.125
	}
	x := float64(sizeBytes) * scale * inverse
	n := math.Floor(x)
	if uniform(seed+uint64(r+1)*0x9e3779b97f4a7c15) < x-n {
		n++
	}
	size := uint64(n) * unit
	size = max(size, min(uint64(sizeBytes), 16))
	return uint32(min(size, math.MaxUint32))
}

// uniform maps a counter to [0, 1) with SplitMix64's finaliser: cheap, and independent enough
// between neighbouring records for rounding.
func uniform(z uint64) float64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}

// validateSizes checks Options.SizeScale: 0 (the profile's sizes) or finite and positive.
func validateSizes(opts Options) error {
	if sc := opts.SizeScale; math.IsNaN(sc) || math.IsInf(sc, 0) || sc < 0 {
		return fmt.Errorf("%w: size scale %v is not a positive finite number", ErrInvalidParams, sc)
	}
	return nil
}

// size is the size of one object of record r in this run: the profile's, or ScaledSize's
// under Options.SizeScale. The test of the scale is one predictable branch where the run
// reads a size.
func (s *sim) size(r int) uint64 {
	if s.scaled {
		return s.scaledSize(r)
	}
	return uint64(s.p.SizeBytes[r])
}

// scaledSize is size's path under Options.SizeScale, kept out of line so that size inlines.
//
//go:noinline
func (s *sim) scaledSize(r int) uint64 {
	return uint64(ScaledSize(s.p.SizeBytes[r], s.scale, s.sizeSeed, r))
}

// GarbageRate is the prepared profile's objects per byte allocated with opts' sizes
// (Options.SizeScale): GarbageRate of the profile the run allocates, for
// Options.GarbageObjectsPerByte.
func (pp *Prepared) GarbageRate(opts Options) float64 {
	if opts.SizeScale == 0 || opts.SizeScale == 1 {
		return GarbageRate(pp.p)
	}
	var objects, bytes float64
	for r, w := range pp.p.Weight {
		objects += float64(w)
		bytes += float64(w) * float64(ScaledSize(pp.p.SizeBytes[r], opts.SizeScale, opts.SizeSeed, r))
	}
	if bytes == 0 {
		return 0
	}
	return objects / bytes
}
