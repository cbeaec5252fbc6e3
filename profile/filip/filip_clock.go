package filip

import (
	"math"
	"math/bits"
	"slices"

	"github.com/gctune/gctune/profile"
)

// filipStats summarises the raw timestamps.
type filipStats struct {
	minBirth, maxTime float64 // over births and non-empty deaths
	maxDeath          float64 // latest non-empty death; -1 if none
	sampledBytes      uint64  // Σ size × weight
	sampledOK         bool    // false if the sum overflowed
	// smallSampledBytes is Σ size × weight over the rows a 1/weight sample stands for
	// weight of: the small ones. A row allocated straight into old space is one object
	// (Rebuild counts it once) and is not in this sum.
	smallSampledBytes uint64
}

func (r *filipReader) stats(weight uint32) filipStats {
	s := filipStats{minBirth: math.Inf(1), maxTime: 0, maxDeath: -1, sampledOK: true}
	var sum, carry uint64
	for i, b := range r.birth {
		s.minBirth = min(s.minBirth, b)
		s.maxTime = max(s.maxTime, b)
		if d := r.death[i]; d >= 0 {
			s.maxTime = max(s.maxTime, d)
			s.maxDeath = max(s.maxDeath, d)
		}
		hi, lo := bits.Mul64(uint64(r.size[i]), uint64(weight))
		sum, carry = bits.Add64(sum, lo, 0)
		if hi != 0 || carry != 0 {
			s.sampledOK = false
		}
		if !profile.AllocatesInOldSpace(r.size[i], 0) {
			s.smallSampledBytes += lo // ≤ sum: exact whenever sampledOK
		}
	}
	s.sampledBytes = sum
	return s
}

// filipConversion maps raw timestamps to the bytes clock. Records are added in order: order[j]
// is the file index of the j-th record by birth (nil: the file is already in birth order).
type filipConversion struct {
	order    []uint32
	endBytes uint64
	birth    func(i int) uint64 // birth of record i (file order); called in birth order
	death    func(raw float64) uint64
}

// bytesClock uses the timestamps as bytes, rounded to integers and shifted by an origin so the
// run starts at 0: origin = (earliest birth) − (weight × size of the earliest-born record),
// at least 0. Illimani reads parameter 34 after the allocation, so the earliest sampled object
// sits at its own weighted size, exactly where microsClock puts it; a clock already counted from
// the start of the run is left alone (its earliest birth is about that small), an absolute
// reading (bytes since the VM started) loses its offset. EndBytes is the latest timestamp: the
// clock counted every byte, the records' Σ size × weight is only a sampled estimate of it.
func (r *filipReader) bytesClock(st filipStats, weight uint32) filipConversion {
	n := len(r.birth)
	keys := make([]uint64, n)
	for i, b := range r.birth {
		keys[i] = uint64(math.Round(b))
	}
	order := sortOrder(keys)
	first := 0
	if order != nil {
		first = int(order[0])
	}
	minBirth := keys[first]
	origin := uint64(0)
	if w := uint64(r.size[first]) * uint64(weight); minBirth > w {
		origin = minBirth - w
	}
	end := uint64(math.Round(st.maxTime)) - origin
	return filipConversion{
		order:    order,
		endBytes: end,
		birth:    func(i int) uint64 { return keys[i] - origin },
		death:    func(raw float64) uint64 { return uint64(math.Round(raw)) - origin },
	}
}

// microsClock converts microseconds to bytes through the sampled allocation curve: with the
// births sorted by time, the bytes clock at time t is the cumulative Σ size × weight of the
// records born at or before t. Births map to the cumulative of their instant (records born in
// the same microsecond share it); deaths interpolate linearly between the two birth instants
// around them, and deaths after the last birth map to the end, EndBytes = Σ size × weight.
func (r *filipReader) microsClock(weight uint32) filipConversion {
	n := len(r.birth)
	keys := make([]uint64, n)
	for i, b := range r.birth {
		keys[i] = math.Float64bits(b) // non-negative floats sort as their bit patterns
	}
	order := sortOrder(keys)
	// Distinct birth instants and the cumulative weighted bytes at each (the caller checked
	// that the total fits in a uint64).
	var instants []float64
	var cum []uint64
	var total uint64
	for j := range n {
		i := j
		if order != nil {
			i = int(order[j])
		}
		t := r.birth[i]
		total += uint64(r.size[i]) * uint64(weight)
		if k := len(instants); k > 0 && instants[k-1] == t {
			cum[k-1] = total
		} else {
			instants = append(instants, t)
			cum = append(cum, total)
		}
	}
	group := 0
	return filipConversion{
		order:    order,
		endBytes: total,
		birth: func(i int) uint64 {
			// Called in birth order, so the instant only moves forward.
			for instants[group] != r.birth[i] {
				group++
			}
			return cum[group]
		},
		death: func(t float64) uint64 {
			if t > instants[len(instants)-1] {
				return total
			}
			k, found := slices.BinarySearch(instants, t)
			if found || k == 0 { // k == 0 cannot happen: no death precedes the first birth
				return cum[k]
			}
			lo, span := cum[k-1], cum[k]-cum[k-1]
			f := (t - instants[k-1]) / (instants[k] - instants[k-1])
			d := math.Round(f * float64(span))
			if d >= float64(span) { // also keeps the conversion below 2^64
				return cum[k]
			}
			return lo + min(uint64(d), span)
		},
	}
}
