package filip

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/gctune/gctune/profile"
)

// finish picks the clock, converts the timestamps to the bytes clock, marks the records alive at
// the end, and builds the Profile with the records in birth order.
func (r *filipReader) finish(run filipRun) (*profile.Profile, error) {
	for _, e := range r.firstSkipped {
		r.report.FirstSkipped = append(r.report.FirstSkipped, e.Error())
	}
	n := len(r.birth)
	if n == 0 {
		if r.report.SkippedRows > 0 {
			return nil, fmt.Errorf("filip: %s: no valid rows (%d bad rows skipped, the first: %s)", r.name, r.report.SkippedRows, r.report.FirstSkipped[0])
		}
		return nil, fmt.Errorf("filip: %s: no rows after the header", r.name)
	}
	if n > math.MaxUint32 {
		return nil, fmt.Errorf("filip: %s: %d rows, more than 2^32", r.name, n)
	}
	st := r.stats(run.weight)

	era := detectEra(eraEvidence{layout: r.layout.name, oldSpelling: r.oldSpelling, profiler: run.profiler,
		sampligRate: run.sampligRate, minTime: st.minBirth, maxTime: st.maxTime})
	clock, reason := era.clock, era.reason
	r.report.Era = era.era
	if r.opts.Clock != ClockAuto {
		clock, reason = r.opts.Clock, fmt.Sprintf("forced to %s by option", r.opts.Clock)
		if era.clock != clock {
			r.warnf("clock forced to %s; the era says %s (%s)", clock, era.clock, era.reason)
		}
	} else {
		for _, w := range era.warnings {
			r.warnf("%s", w)
		}
	}
	r.report.Clock, r.report.ClockReason = clock, reason
	if clock == ClockMicros && run.rate < 1 {
		r.warnf("a sampled profile (rate %g) on the microsecond clock cannot be rebuilt: the clock does not say how many bytes each sampling window allocated, so the records are weighted by %d as they are", run.rate, run.weight)
	}

	// Alive at the end: empty or flagged deaths, or deaths near the latest one.
	nearEnd := math.Inf(1)
	if !r.layout.forced && r.opts.NearEndFraction >= 0 && st.maxDeath >= 0 {
		nearEnd = st.maxDeath - r.opts.NearEndFraction*(st.maxTime-st.minBirth)
	}
	alive := func(i int) bool { return r.death[i] < 0 || r.forced[i] || r.death[i] >= nearEnd }

	var conv filipConversion
	switch clock {
	case ClockMicros:
		if !st.sampledOK {
			return nil, fmt.Errorf("filip: %s: the records stand for more than 2^64 bytes", r.name)
		}
		conv = r.microsClock(run.weight)
	default:
		conv = r.bytesClock(st, run.weight)
		// Small rows stand for 1/rate objects each, large ones (straight into old space) for
		// one: a sampled 10 MiB array is not a thousand of them (docs/sampling.md).
		if st.sampledOK && float64(st.smallSampledBytes) > 1.5*float64(conv.endBytes) && conv.endBytes > 0 {
			r.warnf("the small records stand for %d bytes but the clock counted only %d: is the sampling rate (%v) right?", st.smallSampledBytes, conv.endBytes, run.rate)
		}
	}

	var b profile.Builder
	b.Grow(n)
	// Intern the class table. The indices stay the same unless a class was written both as
	// "(unknown)" and as an empty field.
	remap := false
	global := make([]uint32, len(r.names))
	for i, name := range r.names {
		global[i] = b.Class(name)
		remap = remap || global[i] != uint32(i)
	}
	if remap {
		for i, c := range r.class {
			r.class[i] = global[c]
		}
	}
	var siteGlobal []uint32
	if r.site != nil {
		siteGlobal = make([]uint32, len(r.siteNames))
		for i, name := range r.siteNames {
			siteGlobal[i] = b.Site(name)
		}
	}
	for j := range n {
		i := j
		if conv.order != nil {
			i = int(conv.order[j])
		}
		birth := conv.birth(i)
		death, flags := conv.endBytes, profile.FlagAliveAtEnd
		if !alive(i) {
			death, flags = conv.death(r.death[i]), 0
		}
		k := b.Add(r.class[i], r.size[i], birth, death, run.weight, flags)
		if r.site != nil {
			b.SetSite(k, siteGlobal[r.site[i]])
		}
	}
	r.report.Rows = n
	profiler := run.profiler
	if profiler == "" {
		profiler = "FiLiP"
	}
	total := conv.endBytes
	if clock == ClockMicros {
		total = st.sampledBytes
	}
	runSeconds := 0.0
	if clock == ClockMicros {
		runSeconds = run.totalTime / 1e6
	}
	r.report.Profiler, r.report.SamplingRate, r.report.Weight = run.profiler, run.rate, run.weight
	r.report.TotalExecutionTime = run.totalTime
	if run.gcCounts {
		r.report.GCCounts = &GCCounts{Scavenges: run.scavenges, FullGCs: run.fullGCs}
	}
	p, err := b.Build(profile.Meta{
		Source:              r.name,
		Profiler:            profiler,
		EndBytes:            conv.endBytes,
		TotalAllocatedBytes: total,
		RunSeconds:          runSeconds,
		SamplingRate:        run.rate,
		ReportedScavenges:   run.scavenges,
		ReportedFullGCs:     run.fullGCs,
	})
	if err != nil {
		return nil, fmt.Errorf("filip: %s: %w", r.name, err)
	}
	return p, nil
}

// sortOrder returns the indices of keys in ascending key order, equal keys in index order, or
// nil when keys are already in order. It is a stable LSD radix sort on key − min, 10 bits a
// pass, skipping the passes whose digit is the same for every key: births span far fewer than
// 64 bits, so a few linear passes replace an n log n comparison sort. When key and index fit in
// 64 bits together they are packed into one word (key above index), which halves the memory
// the passes move; the index bits need no pass, they start in order.
func sortOrder(keys []uint64) []uint32 {
	n := len(keys)
	sorted := true
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for i, k := range keys {
		if i > 0 && k < keys[i-1] {
			sorted = false
		}
		lo, hi = min(lo, k), max(hi, k)
	}
	if sorted {
		return nil
	}
	keyBits := bits.Len64(hi - lo)
	idxBits := bits.Len64(uint64(n - 1))
	if keyBits+idxBits <= 64 {
		src := make([]uint64, n)
		for i, k := range keys {
			src[i] = (k-lo)<<idxBits | uint64(i)
		}
		src = radixSort(src, idxBits, idxBits+keyBits)
		order := make([]uint32, n)
		mask := uint64(1)<<idxBits - 1
		for i, v := range src {
			order[i] = uint32(v & mask)
		}
		return order
	}
	// Keys too wide to share a word with the index: sort (key, index) pairs.
	order := make([]uint32, n)
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortStableFunc(order, func(a, b uint32) int { return cmp.Compare(keys[a], keys[b]) })
	return order
}

// radixSort sorts v stably by bits [fromBit, toBit) with an LSD radix sort and returns the
// sorted slice (v or a buffer of the same length).
func radixSort(v []uint64, fromBit, toBit int) []uint64 {
	const digitBits = 10
	const radix = 1 << digitBits
	n := len(v)
	passes := (toBit - fromBit + digitBits - 1) / digitBits
	// One read of the data counts the digits of every pass.
	counts := make([][radix]int, passes)
	for _, x := range v {
		for p := range counts {
			counts[p][(x>>(fromBit+p*digitBits))&(radix-1)]++
		}
	}
	tmp := make([]uint64, n)
	for p := range counts {
		c := &counts[p]
		if slices.Contains(c[:], n) {
			continue // every value has the same digit here
		}
		pos := 0
		for d, k := range c {
			c[d] = pos
			pos += k
		}
		shift := fromBit + p*digitBits
		for _, x := range v {
			d := (x >> shift) & (radix - 1)
			tmp[c[d]] = x
			c[d]++
		}
		v, tmp = tmp, v
	}
	return v
}
