package heapsim

import (
	"fmt"
	"math"

	"github.com/gctune/gctune/profile"
)

// fitOld places n objects of record r (size bytes each) in old space without growing it:
// first fit over the segments' free chunks (§1.5 free lists, simplified: see doc.go). It
// reports false, placing nothing, when they do not all fit.
func (s *sim) fitOld(r int, size uint64, n uint32, tenured bool) bool {
	need := uint64(n) * size
	if s.oldCapacity-s.oldUsed < need {
		return false
	}
	if s.takeHoles(need, size) {
		s.addOld(r, n, size, tenured)
		return true
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
	s.addOld(r, n, size, tenured)
	return true
}

// addOld records n objects of record r (size bytes each) that just entered old space: in the death calendar if
// they die before the end, in the immortal total otherwise; containers become remembered-set
// candidates. Marking's pointer-slot total follows.
func (s *sim) addOld(r int, n uint32, size uint64, tenured bool) {
	s.addOldFlags(r, n, size, s.p.Flags[r], tenured)
}

// addOldFlags is addOld for a caller that has read record r's flags.
func (s *sim) addOldFlags(r int, n uint32, size uint64, flags uint8, tenured bool) {
	bytes := uint64(n) * size
	// bytes < 2^63: its conversion through int64 is the same value, in one instruction.
	s.epochLive[s.epoch] += float64(int64(bytes))
	s.pointerSlots += float64(n) * pointerSlots(size, flags)
	if flags&profile.FlagAliveAtEnd != 0 {
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
	if flags&profile.FlagContainer != 0 {
		s.rs.noteOld(r, n)
	}
	if sc := s.rs.loc.storeChain; sc != nil {
		if k := s.p.StoredIn[r]; k != 0 {
			s.noteReferentOld(k-1, r, n, tenured)
		}
	}
	if s.yr != nil {
		s.yr.noteOld(r, n)
	}
}

// pointerSlotsOf is how many pointer slots one object of record r has: all its slots, or
// none for a byte class (docs/spur-model.md §4.1).
func (s *sim) pointerSlotsOf(r int) float64 {
	return pointerSlots(s.size(r), s.p.Flags[r])
}

// pointerSlots is pointerSlotsOf for an object of size bytes with record flags f: callers
// that hold the size need not read it again.
func pointerSlots(size uint64, f uint8) float64 {
	if f&profile.FlagPointerFree != 0 {
		return 0
	}
	return float64(profile.SlotsOf(uint32(size)))
}

// setHoles sets the bytes of holes left between objects. Fewer than profile.MinObjectBytes
// are no hole: holeBytes pools the holes, so taking objects out of it or scaling it by a
// fraction leaves a residue of a few bytes, but every Spur object and every free chunk is at
// least a header and a slot (16 bytes), so no gap that small exists. Kept, such a residue
// would make the heap look not fully compacted, and the next full GC would compact (and move)
// everything (§4.3) for nothing.
func (s *sim) setHoles(b uint64) {
	if b < profile.MinObjectBytes {
		b = 0
	}
	s.holeBytes = b
}

// takeHoles places need bytes of small objects (size each) in the holes a bounded compaction
// left, as Spur's free lists reuse them (docs/spur-model.md §4.3). Large objects never fit a
// hole (simplification: a hole is taken to be smaller than the largest new-space object).
func (s *sim) takeHoles(need, size uint64) bool {
	if s.holeBytes < need || size > profile.MaxNewSpaceObjectBytes {
		return false
	}
	s.setHoles(s.holeBytes - need)
	s.oldUsed += need
	s.st.PeakOldUsedBytes = max(s.st.PeakOldUsedBytes, s.oldUsed)
	return true
}

// tenure promotes n objects of record r (§3.2 copyToOldSpace): free-list allocation, and when
// that fails one growth by the headroom (growOldSpaceByAtLeast: 0) and a retry; a second
// failure is the VM's fatal error (rule 11).
func (s *sim) tenure(r int32, n uint32, size uint64) error {
	if s.tenuredBySite != nil {
		s.tenuredBySite[s.p.Site[r]] += uint64(n) * size
	}
	flags := s.p.Flags[r]
	if flags&profile.FlagAliveAtEnd == 0 && s.p.Death[r] < s.now+s.soonBytes {
		s.st.TenuredShortLivedBytes += uint64(n) * size
		s.st.TenuredShortLivedObjects += float64(n)
	}
	if need := uint64(n) * size; s.takeHoles(need, size) {
		s.addOldFlags(int(r), n, size, flags, true)
		return nil
	}
	// Fast path: the lowest segment with room takes them all.
	if need := uint64(n) * size; s.segs[s.hint].freeBytes() >= need {
		s.segs[s.hint].usedBytes += need
		s.oldUsed += need
		s.st.PeakOldUsedBytes = max(s.st.PeakOldUsedBytes, s.oldUsed)
		s.addOldFlags(int(r), n, size, flags, true)
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
		s.large = append(s.large, largeObj{bytes: size, death: s.p.Death[r], immortal: s.p.Flags[r]&profile.FlagAliveAtEnd != 0})
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
// tenuring), §4.4 (rule 11): pageRound(max(pow2(minBytes + GrowRequestOverheadBytes),
// headroom)), clipped to the maximum old-space size. It reports false when no segment can be
// added.
func (s *sim) grow(minBytes uint64) bool {
	request := minBytes + GrowRequestOverheadBytes
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
	edenBefore := s.edenUsed
	if err := s.scavenge(scavengeInner); err != nil {
		return err
	}
	innerSecs := s.lastScavengeSeconds
	liveOld := s.oldUsed
	liveObjects := s.immortalObjects + s.mortalObjects + s.lastScavengeLive
	liveBytes := liveOld + s.lastScavengeLiveBytes
	// Marking (markAndShouldScan:, docs/spur-model.md §4.1): every live object is marked and
	// every pointer slot of a pointer object followed; byte objects are not scanned. The
	// survivors of the inner scavenge are counted at their average slot density.
	markSlots := s.pointerSlots + s.lastScavengeLive*s.youngPointerSlotsPerObject()
	markSecs := s.cost.MarkSecondsPerObject*liveObjects + s.cost.MarkSecondsPerPointerSlot*markSlots

	// Planning compaction (§4.3): old space is in allocation order, so everything above the
	// oldest hole moves down, and the plan and copy passes sweep from that hole to the top.
	// One pass moves at most as many objects as the saved-first-fields space has slots; what
	// lies above the last object it could move is swept in place, its dead objects left as
	// holes. When anything moves, the pointer-update pass visits every object of the heap and
	// rewrites the slots of its pointer objects (compactSeconds). On a fully compacted heap (no
	// dead object, no hole) nothing is scanned and nothing moves: the compactor does nothing.
	var scanned, moved, below float64
	holesBefore := s.holeBytes
	if minDead >= 0 || holesBefore > 0 {
		// below: the live bytes under the lowest free chunk, where the compactor starts.
		below = math.Inf(1)
		if minDead >= 0 {
			below = 0
			for e := 0; e < minDead; e++ {
				below += s.epochLive[e]
			}
			below += s.epochLive[minDead] / 2
		}
		if holesBefore > 0 {
			// The holes a bounded compaction left lie above what it compacted.
			below = min(below, s.holeFloorBytes)
		}
		moved = max(float64(liveOld)-below, 0)
		scanned = max(float64(usedBefore+holesBefore)-below, 0)
	}
	s.holeBytes = 0
	if moved > 0 {
		oldObjects := s.immortalObjects + s.mortalObjects
		movedObjects := moved / max(float64(liveOld), 1) * oldObjects
		if movable := s.savedFirstFieldsBytes() / SavedFirstFieldBytes; movedObjects > movable && !s.params.CompleteCompaction {
			// Bounded: the first movable/movedObjects of the region is compacted; the dead
			// bytes in the rest stay where they were.
			f := movable / movedObjects
			dead := float64(reclaimed + holesBefore)
			s.setHoles(uint64((1 - f) * dead))
			moved *= f
			// Everything from the start to the last object moved is now contiguous: the
			// lowest hole lies above it.
			s.holeFloorBytes = below + moved
			s.st.BoundedCompactions++
		}
	}
	compactSecs := s.compactSeconds(scanned, moved)
	s.relayout()
	s.st.MarkedBytes += liveBytes
	s.st.MarkedPointerSlots += markSlots
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
		s.onEvt(&Event{Kind: EventFullGC, Cause: cause, ClockBytes: s.now, EdenUsedBytes: edenBefore,
			SurvivorBytesAfter: s.pastBytes, OldUsedBytes: s.oldUsed, OldLiveBytes: liveOld,
			FootprintBytes: s.footprint(), HoleBytes: s.holeBytes, OldUsedBeforeBytes: usedBefore, OldReclaimedBytes: reclaimed, RequestBytes: requestBytes,
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
	sizes, scaled := s.p.SizeBytes, s.scaled
	take := func(e *oldEntry) {
		ep := int(e.epochFlags & epochMask)
		size := uint64(sizes[e.rec])
		if scaled {
			size = s.scaledSize(int(e.rec))
		}
		bytes := uint64(e.count) * size
		s.epochLive[ep] -= float64(bytes)
		s.mortalObjects -= float64(e.count)
		s.pointerSlots -= float64(e.count) * pointerSlots(size, s.p.Flags[e.rec])
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
	// Small objects and the holes a bounded compaction left among them.
	left := s.oldUsed + s.holeBytes - min(largeLive, s.oldUsed)
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
		for from < len(s.segs)-1 && s.segs[from].freeBytes() < profile.MaxNewSpaceObjectBytes {
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

// savedFirstFieldsBytes is the room the planning compactor gets to save first fields
// (SpurPlanningCompactor>>selectSavedFirstFieldsSpace): an estimate of the old space's extent
// / 40, from a high free chunk or a new segment when eden is smaller, else eden.
// Simplification: the chunk or segment is always had, so the room is the larger of the two.
func (s *sim) savedFirstFieldsBytes() float64 {
	return max(float64(s.segmentBytes)/SavedFirstFieldsDivisor, float64(s.layout.EdenBytes))
}

// youngPointerSlotsPerObject is the average number of pointer slots of the objects the
// profile allocates, used for the survivors the inner scavenge hands to marking.
func (s *sim) youngPointerSlotsPerObject() float64 {
	if s.youngSlotsPerObject < 0 {
		var slots, objects float64
		step := max(len(s.p.Birth)/4096, 1)
		for r := 0; r < len(s.p.Birth); r += step {
			w := float64(s.p.Weight[r])
			slots += w * s.pointerSlotsOf(r)
			objects += w
		}
		s.youngSlotsPerObject = slots / max(objects, 1)
	}
	return s.youngSlotsPerObject
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
			} else if float64(target) >= ShrinkNearFraction*float64(size) && diff < bestDiff {
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
