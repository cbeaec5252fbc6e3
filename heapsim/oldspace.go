package heapsim

import (
	"fmt"

	"github.com/gctune/gctune/lifetimes"
)

// fitOld places n objects of record r (size bytes each) in old space without growing it:
// first fit over the segments' free chunks (§1.5 free lists, simplified: see doc.go). It
// reports false, placing nothing, when they do not all fit.
func (s *sim) fitOld(r int, size uint64, n uint32, tenured bool) bool {
	need := uint64(n) * size
	if s.oldCapacity-s.oldUsed < need {
		return false
	}
	// Find room for all n before placing any, so a failed fit changes nothing.
	left := uint64(n)
	for j := s.hint; j < len(s.segs) && left > 0; j++ {
		left -= min(left, s.segs[j].freeBytes()/size)
	}
	if left > 0 {
		return false
	}
	left = uint64(n)
	for j := s.hint; j < len(s.segs) && left > 0; j++ {
		k := min(left, s.segs[j].freeBytes()/size)
		s.segs[j].usedBytes += k * size
		left -= k
	}
	for s.hint < len(s.segs)-1 && s.segs[s.hint].freeBytes() < crumbBytes {
		s.hint++
	}
	s.oldUsed += need
	s.st.PeakOldUsedBytes = max(s.st.PeakOldUsedBytes, s.oldUsed)
	s.addOld(r, n, need, tenured)
	return true
}

// addOld records n objects of record r that just entered old space: in the death calendar if
// they die before the end, in the immortal total otherwise; containers become remembered-set
// candidates.
func (s *sim) addOld(r int, n uint32, bytes uint64, tenured bool) {
	s.epochLive[s.epoch] += float64(bytes)
	flags := s.p.Flags[r]
	if flags&lifetimes.FlagAliveAtEnd != 0 {
		s.immortalObjects += float64(n)
	} else {
		d := s.p.Death[r]
		e := oldEntry{rec: int32(r), count: n, epochFlags: s.epoch}
		if tenured {
			e.epochFlags |= tenuredFlag
		}
		b := int(d / s.bucketWidth)
		s.calendar[b] = append(s.calendar[b], e)
		s.mortalObjects += float64(n)
	}
	if flags&lifetimes.FlagContainer != 0 {
		if c, ok := s.containerOf[int32(r)]; ok {
			s.containerOld[c] += n
		}
	}
}

// tenure promotes n objects of record r (§3.2 copyToOldSpace): free-list allocation, and when
// that fails one growth by the headroom (growOldSpaceByAtLeast: 0) and a retry; a second
// failure is the VM's fatal error (rule 11).
func (s *sim) tenure(r int32, n uint32, size uint64) error {
	if s.p.Flags[r]&lifetimes.FlagAliveAtEnd == 0 && s.p.Death[r] < s.now+s.soonBytes {
		s.st.TenuredShortLivedBytes += uint64(n) * size
		s.st.TenuredShortLivedObjects += float64(n)
	}
	// Fast path: the lowest segment with room takes them all.
	if need := uint64(n) * size; s.segs[s.hint].freeBytes() >= need {
		s.segs[s.hint].usedBytes += need
		s.oldUsed += need
		s.st.PeakOldUsedBytes = max(s.st.PeakOldUsedBytes, s.oldUsed)
		s.addOld(int(r), n, need, true)
		return nil
	}
	for n > 0 {
		// Place as many as fit now, then grow for the rest.
		fit := uint32(0)
		for j := s.hint; j < len(s.segs) && fit < n; j++ {
			fit += uint32(min(uint64(n-fit), s.segs[j].freeBytes()/size))
		}
		if fit > 0 {
			s.fitOld(int(r), size, fit, true)
			n -= fit
			continue
		}
		if !s.grow(0) {
			return fmt.Errorf("%w: tenuring %d bytes at clock %d: old space cannot grow (max old space %d bytes)", ErrOutOfMemory, uint64(n)*size, s.now, s.params.MaxOldSpaceBytes)
		}
		if s.segs[len(s.segs)-1].freeBytes() < size {
			return fmt.Errorf("%w: tenuring a %d-byte object at clock %d: the growth left no room", ErrOutOfMemory, size, s.now)
		}
	}
	return nil
}

// allocateLarge places one object of record r straight in old space (rule 3). When no free
// chunk fits it, it follows the image protocol of §2.3 (Behavior>>handleFailingBasicNew:):
// full GC; if the largest free chunk is still too small, grow by at least the object and retry;
// else retry, and grow and retry on failure; OutOfMemory last.
func (s *sim) allocateLarge(r int, size uint64) error {
	ok := s.fitOld(r, size, 1, false)
	if !ok {
		if err := s.fullGC(CauseLargeAlloc, size); err != nil {
			return err
		}
		if s.largestFree() < size {
			s.grow(size)
			ok = s.fitOld(r, size, 1, false)
		} else if ok = s.fitOld(r, size, 1, false); !ok {
			s.grow(size)
			ok = s.fitOld(r, size, 1, false)
		}
	}
	if ok {
		s.large = append(s.large, largeObj{bytes: size, death: s.p.Death[r], immortal: s.p.Flags[r]&lifetimes.FlagAliveAtEnd != 0})
	}
	if !ok {
		return fmt.Errorf("%w: allocating a %d-byte object at clock %d (max old space %d bytes)", ErrOutOfMemory, size, s.now, s.params.MaxOldSpaceBytes)
	}
	s.st.DirectOldObjects++
	s.st.DirectOldBytes += size
	return nil
}

func (s *sim) largestFree() uint64 {
	var m uint64
	for j := range s.segs {
		m = max(m, s.segs[j].freeBytes())
	}
	return m
}

// grow adds one segment for an allocation of minBytes (0 for the after-scavenge top-up and
// tenuring), §4.4 (rule 11): pageRound(max(pow2(minBytes + 32), headroom)), clipped to the
// maximum old-space size. It reports false when no segment can be added.
func (s *sim) grow(minBytes uint64) bool {
	request := minBytes + 32
	size := max(nextPowerOfTwo(request), s.params.GrowthHeadroomBytes)
	if m := s.params.MaxOldSpaceBytes; m > 0 {
		if s.segmentBytes >= m {
			return false
		}
		size = min(size, m-s.segmentBytes)
	}
	size = roundUp(size, s.params.PageBytes)
	if m := s.params.MaxOldSpaceBytes; m > 0 && s.segmentBytes+size > m {
		size -= s.params.PageBytes
	}
	if size < request || size <= SegmentBridgeBytes {
		return false
	}
	s.segs = append(s.segs, segment{sizeBytes: size})
	s.segmentBytes += size
	s.oldCapacity += size - SegmentBridgeBytes
	s.st.Grows++
	s.st.PeakFootprintBytes = max(s.st.PeakFootprintBytes, s.footprint())
	secs := s.cost.GrowSecondsPerSegment + float64(size)*s.cost.GrowSecondsPerByte
	s.st.GrowSeconds += secs
	if s.onEvt != nil {
		s.onEvt(&Event{Kind: EventGrow, ClockBytes: s.now, OldUsedBytes: s.oldUsed,
			FootprintBytes: s.footprint(), SegmentBytes: size, Seconds: secs})
	}
	return true
}

// fullGC implements §4.1 (rule 10): mark, drop dead objects, the inner scavenge with
// overflow-only tenuring (MarkOnTenure), sliding compaction, shrink (§4.5), then
// usedAtLastFullGC := used.
func (s *sim) fullGC(cause FullGCCause, requestBytes uint64) error {
	usedBefore := s.oldUsed
	garbageBefore := s.st.TenuredGarbageBytes
	// Mark: every old object whose death has come is unmarked; its bytes are reclaimed. The
	// first hole in address order is the oldest epoch with a death (see doc.go, compaction).
	minDead := s.reclaimDead()
	reclaimed := usedBefore - s.oldUsed
	// The scavenge inside the full GC: not counted as a scavenge (§3.7), no age tenuring.
	if err := s.scavenge(scavengeInner); err != nil {
		return err
	}
	innerSecs := s.lastScavengeSeconds
	liveOld := s.oldUsed
	liveObjects := s.immortalObjects + s.mortalObjects + s.lastScavengeLive
	liveBytes := liveOld + s.lastScavengeLiveBytes
	markSecs := s.cost.MarkSecondsPerObject*liveObjects + s.cost.MarkSecondsPerByte*float64(liveBytes)

	// Sliding compaction (§4.3): old space is in allocation order, so everything above the
	// oldest hole moves down and the passes sweep from that hole to the top.
	var scanned, moved float64
	if minDead >= 0 {
		var below float64
		for e := 0; e < minDead; e++ {
			below += s.epochLive[e]
		}
		below += s.epochLive[minDead] / 2
		moved = max(float64(liveOld)-below, 0)
		scanned = max(float64(usedBefore)-below, 0)
	}
	compactSecs := s.cost.CompactPasses*scanned*s.cost.CompactScanSecondsPerByte + moved*s.cost.CompactMoveSecondsPerByte
	s.relayout()
	s.st.MarkedBytes += liveBytes
	s.st.MovedBytes += uint64(moved)

	secs := s.cost.FullGCFixedSeconds + markSecs + compactSecs + innerSecs
	s.st.FullGCs++
	switch cause {
	case CauseRatio:
		s.st.FullGCsRatio++
	case CauseLargeAlloc:
		s.st.FullGCsLargeAlloc++
	case CauseExplicit:
		s.st.FullGCsExplicit++
	}
	s.st.FullGCSeconds += secs
	s.st.MarkSeconds += markSecs
	s.st.CompactSeconds += compactSecs
	if s.onEvt != nil {
		s.onEvt(&Event{Kind: EventFullGC, Cause: cause, ClockBytes: s.now,
			SurvivorBytesAfter: s.pastBytes, OldUsedBytes: s.oldUsed, OldLiveBytes: liveOld,
			FootprintBytes: s.footprint(), OldUsedBeforeBytes: usedBefore, OldReclaimedBytes: reclaimed, RequestBytes: requestBytes,
			TenuredGarbageBytes: s.st.TenuredGarbageBytes - garbageBefore, TenuredBytes: s.lastScavengeTenuredBytes,
			Seconds: secs, MarkSeconds: markSecs, CompactSeconds: compactSecs})
	}
	s.shrink()
	s.usedAtLastFullGC = s.oldUsed
	s.epoch++
	s.epochLive = append(s.epochLive, 0)
	return nil
}

// reclaimDead frees every old object dead by now and returns the oldest epoch that lost an
// object (-1 if none did). It counts tenured garbage: objects tenured since the last full GC
// that are already dead.
func (s *sim) reclaimDead() int {
	minDead := -1
	nowBucket := int(s.now / s.bucketWidth)
	take := func(e *oldEntry) {
		ep := int(e.epochFlags & epochMask)
		bytes := uint64(e.count) * uint64(s.p.SizeBytes[e.rec])
		s.epochLive[ep] -= float64(bytes)
		s.mortalObjects -= float64(e.count)
		s.oldUsed -= bytes
		s.st.ReclaimedBytes += bytes
		if e.epochFlags&tenuredFlag != 0 && uint32(ep) == s.epoch {
			s.st.TenuredGarbageBytes += bytes
			s.st.TenuredGarbageObjects += float64(e.count)
		}
		if minDead < 0 || ep < minDead {
			minDead = ep
		}
	}
	for b := s.reclaimedUpTo; b < nowBucket; b++ {
		for i := range s.calendar[b] {
			take(&s.calendar[b][i])
		}
		s.calendar[b] = nil
	}
	s.reclaimedUpTo = max(s.reclaimedUpTo, nowBucket)
	if nowBucket < len(s.calendar) {
		keep := s.calendar[nowBucket][:0]
		for _, e := range s.calendar[nowBucket] {
			if s.p.Death[e.rec] <= s.now {
				take(&e)
			} else {
				keep = append(keep, e)
			}
		}
		s.calendar[nowBucket] = keep
	}
	return minDead
}

// relayout lays the compacted old space out again (§4.3). Small objects are packed from the
// first segment up, as sliding compaction leaves them; then each live large object (one that
// went straight to old space, §2.2) takes the lowest segment with room for it, because no
// object can straddle a segment bridge. That keeps the free chunks honest: a 24 MB object does
// not fit in two 16 MB holes (Paper §4.2). Simplification: the VM interleaves small and large
// objects in address order; packing the small ones first approximates that (see doc.go).
func (s *sim) relayout() {
	keep := s.large[:0]
	var largeLive uint64
	for _, o := range s.large {
		if o.immortal || o.death > s.now {
			keep = append(keep, o)
			largeLive += o.bytes
		}
	}
	s.large = keep
	left := s.oldUsed - min(largeLive, s.oldUsed)
	for j := range s.segs {
		capacity := s.segs[j].sizeBytes - SegmentBridgeBytes
		u := min(capacity, left)
		s.segs[j].usedBytes = u
		left -= u
	}
	from := 0
	for _, o := range s.large {
		placed := false
		for j := from; j < len(s.segs); j++ {
			if s.segs[j].freeBytes() >= o.bytes {
				s.segs[j].usedBytes += o.bytes
				placed = true
				break
			}
		}
		if !placed {
			left += o.bytes // fragmentation left no single chunk: pour it (approximation)
		}
		for from < len(s.segs)-1 && s.segs[from].freeBytes() < MaxNewSpaceObjectBytes {
			from++
		}
	}
	for j := range s.segs {
		if left == 0 {
			break
		}
		u := min(s.segs[j].freeBytes(), left)
		s.segs[j].usedBytes += u
		left -= u
	}
	s.hint = 0
	for s.hint < len(s.segs)-1 && s.segs[s.hint].freeBytes() < crumbBytes {
		s.hint++
	}
}

// shrink implements §4.5 (rule 12): at the end of a full GC, when free old space exceeds both
// the shrink threshold and the headroom, release wholly empty segments (never the first)
// nearest in size to the target until the target is met.
func (s *sim) shrink() {
	free := s.oldCapacity - s.oldUsed
	if free <= s.params.ShrinkThresholdBytes || free <= s.params.GrowthHeadroomBytes {
		return
	}
	target := int64(max(free-s.params.GrowthHeadroomBytes, s.params.GrowthHeadroomBytes))
	var released uint64
	releasedSegs := 0
	for {
		best := -1
		var bestDiff int64
		for j := 1; j < len(s.segs); j++ {
			if s.segs[j].usedBytes != 0 {
				continue
			}
			size := int64(s.segs[j].sizeBytes)
			diff := size - target
			if diff < 0 {
				diff = -diff
			}
			if best < 0 {
				best, bestDiff = j, diff
			} else if float64(target) >= 0.75*float64(size) && diff < bestDiff {
				best, bestDiff = j, diff
			}
		}
		if best < 0 || int64(s.segs[best].sizeBytes) > target {
			break
		}
		size := s.segs[best].sizeBytes
		s.segs = append(s.segs[:best], s.segs[best+1:]...)
		s.segmentBytes -= size
		s.oldCapacity -= size - SegmentBridgeBytes
		target -= int64(size)
		released += size
		releasedSegs++
	}
	if releasedSegs == 0 {
		return
	}
	s.hint = min(s.hint, len(s.segs)-1)
	s.st.Shrinks++
	s.st.ReleasedSegments += releasedSegs
	secs := float64(releasedSegs) * s.cost.ShrinkSecondsPerSegment
	s.st.ShrinkSeconds += secs
	if s.onEvt != nil {
		s.onEvt(&Event{Kind: EventShrink, ClockBytes: s.now, OldUsedBytes: s.oldUsed,
			FootprintBytes: s.footprint(), SegmentBytes: released, Seconds: secs})
	}
}

// rememberedSet returns the remembered set a scavenge scans now (§3.6, rule 5): every
// container that lives in old space, is alive and is receiving stores of young objects. Each
// entry's slots are all scanned.
func (s *sim) rememberedSet() (entries float64, slots uint64) {
	if len(s.containers) == 0 {
		return 0, 0
	}
	for s.containerNext < len(s.containerSeq) {
		c := s.containerSeq[s.containerNext]
		if s.containers[c].StoresFromBytes > s.now {
			break
		}
		s.active = append(s.active, c)
		s.containerNext++
	}
	keep := s.active[:0]
	for _, c := range s.active {
		ct := s.containers[c]
		r := int(ct.Record)
		if s.now >= ct.StoresUntilBytes || s.dead(r) {
			continue
		}
		keep = append(keep, c)
		if n := s.containerOld[c]; n > 0 {
			entries += float64(n)
			slots += uint64(n) * slotsOf(uint64(s.p.SizeBytes[r]))
		}
	}
	s.active = keep
	// An insertion into a full remembered set doubles its capacity and schedules a scavenge
	// (§3.6, PVM ≥ 10.0.9). Simplification: the growth is noticed at the next scavenge, so
	// no extra scavenge is simulated (see doc.go).
	for entries > s.rsCapacity {
		s.rsCapacity *= 2
	}
	s.st.MaxRSEntries = max(s.st.MaxRSEntries, entries)
	return entries, slots
}

// slotsOf is the slot count of an object of sizeBytes (§2.1): one header word below 255
// slots, two from 255 up.
func slotsOf(sizeBytes uint64) uint64 {
	if sizeBytes >= 16+8*255 {
		return (sizeBytes - 16) / 8
	}
	if sizeBytes <= 8 {
		return 0
	}
	return (sizeBytes - 8) / 8
}

// finish totals the times and end-of-run figures.
func (s *sim) finish() {
	st := &s.st
	st.MutatorSeconds = float64(st.AllocatedBytes)*s.cost.MutatorSecondsPerByte + st.AllocatedObjects*s.cost.MutatorSecondsPerObject
	st.GCSeconds = st.ScavengeSeconds + st.FullGCSeconds + st.GrowSeconds + st.ShrinkSeconds
	st.TotalSeconds = st.MutatorSeconds + st.GCSeconds
	if st.TotalSeconds > 0 {
		st.GCShare = st.GCSeconds / st.TotalSeconds
	}
	st.FinalFootprintBytes = s.footprint()
	st.HeapBytesAtEnd = s.edenUsed + s.pastBytes + s.oldUsed
	st.LiveBytesAtEnd = s.params.ImageBytes + s.aliveAtEndBytes
}
