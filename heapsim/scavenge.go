package heapsim

import (
	"math"

	"github.com/gctune/gctune/profile"
)

// scavengeRun is one scavenge's work in progress: what it copied and tenured so far.
type scavengeRun struct {
	s       *sim
	ageMode bool // tenure by age the past objects below the threshold (§3.3)
	// shrinkRT: the TenureToShrinkRT criterion (§3.6): the set's young referents are tenured,
	// nothing is tenured by age.
	shrinkRT                bool
	refs                    bool // the profile lists referents: copy the set's referents first
	yr                      bool // the profile states young→young references (youngrefs.go)
	queue                   bool // refs or yr: survivors are queued, then copied in order
	copiedB, tenuredB, ageB uint64
	copiedN, tenuredN       float64
	futureUsed              uint64
}

// copyOrTenure copies n objects of record r to future space while they fit and tenures the
// rest: overflow is decided per object (§3.2). It returns how many stayed young.
func (sc *scavengeRun) copyOrTenure(r int32, n uint32, size uint64) (uint32, error) {
	s := sc.s
	// k = min(free / size, n), with no division when the future space is full, as it is for
	// most survivors of a scavenge that overflows, or when one object is asked.
	var k uint32
	if free := s.survivorB - sc.futureUsed; free >= size {
		k = 1
		if n > 1 {
			k = uint32(min(free/size, uint64(n)))
		}
	}
	if k > 0 {
		if last := len(s.future) - 1; last >= 0 && s.future[last].rec == r {
			s.future[last].count += k
		} else {
			s.future = append(s.future, chunk{rec: r, count: k})
		}
		sc.futureUsed += uint64(k) * size
		sc.copiedB += uint64(k) * size
		sc.copiedN += float64(k)
	}
	if k < n {
		if err := s.tenure(r, n-k, size); err != nil {
			return k, err
		}
		sc.tenuredB += uint64(n-k) * size
		sc.tenuredN += float64(n - k)
	}
	return k, nil
}

// ageThenCopy tenures by age the n objects of record r that lie below the threshold, when
// they are in the past space at pastStart (−1: in eden), and copies or tenures the rest,
// counting those that stay young for their holder. It returns how many stayed young.
func (sc *scavengeRun) ageThenCopy(r int32, n uint32, size uint64, pastStart int64, holder int32) (uint32, error) {
	s := sc.s
	if sc.ageMode && pastStart >= 0 && pastStart < s.thresholdOf {
		// §3.3: objects whose address lies below the threshold are tenured.
		k := uint32(min((uint64(s.thresholdOf-pastStart)+size-1)/size, uint64(n)))
		if err := s.tenure(r, k, size); err != nil {
			return 0, err
		}
		sc.tenuredB += uint64(k) * size
		sc.ageB += uint64(k) * size
		sc.tenuredN += float64(k)
		n -= k
	}
	if n == 0 {
		return 0, nil
	}
	k, err := sc.copyOrTenure(r, n, size)
	s.rs.noteYoung(holder, k)
	return k, err
}

// copyAll copies (or tenures) queued survivors in order. referents says that items are the
// remembered set's referents: under TenureToShrinkRT they are all tenured.
func (sc *scavengeRun) copyAll(items []rsItem, referents bool) error {
	if referents && sc.shrinkRT {
		return sc.tenureReferents(items)
	}
	for _, it := range items {
		if _, err := sc.ageThenCopy(it.rec, it.count, sc.s.size(int(it.rec)), it.pastStart, it.holder); err != nil {
			return err
		}
	}
	return nil
}

// walkPast copies the past survivors in address order (= the last scavenge's copy order:
// §3.1 item 4), skipping the set's referents (copied first) and reclaiming the dead.
func (sc *scavengeRun) walkPast() error {
	s := sc.s
	deaths, flags := s.p.Death, s.p.Flags
	var addr uint64
	for k, c := range s.past {
		size := s.size(int(c.rec))
		start := addr
		addr += uint64(c.count) * size
		holder := int32(-1)
		if sc.queue {
			switch h := s.rs.pastRef[k]; h {
			case refFirst, refHeld:
				continue // copied first, or after its holder
			case refUnknown:
			default:
				holder = h
			}
		}
		if deaths[c.rec] <= s.now && flags[c.rec]&profile.FlagAliveAtEnd == 0 {
			s.st.ReclaimedBytes += uint64(c.count) * size
			continue
		}
		if _, err := sc.ageThenCopy(c.rec, c.count, size, int64(start), holder); err != nil {
			return err
		}
	}
	return nil
}

// edenRec handles the n objects of eden record r, dead telling whether it is dead at the
// clock (the walk has tested it). Eden objects lie above both survivor spaces, so they are
// never tenured by age, only by overflow (§3.3). Without listed referents the survivors are
// copied at once; with them they are only queued: the set's referents in items, the rest in
// edenRest (copy order, in scavenge).
func (sc *scavengeRun) edenRec(r int, n uint32, dead bool) error {
	s := sc.s
	size := s.size(r)
	if n == 0 || isDirectOld(size, s.p.Flags[r]) {
		return nil
	}
	holder, rsFirst := int32(-1), false
	if sc.refs {
		if k := s.p.StoredIn[r]; k != 0 {
			// The first record was born at the last scavenge's clock (it was being
			// allocated then); every other one since.
			holder, rsFirst = s.referent(r, k-1, r != s.edenStart, dead)
		}
	}
	if dead {
		s.st.ReclaimedBytes += uint64(n) * size
		return nil
	}
	if !sc.queue {
		_, err := sc.copyOrTenure(int32(r), n, size)
		return err
	}
	if sc.yr {
		if holder < 0 {
			if h := s.p.HeldBy[r]; h != 0 && s.classifyHeld(int32(r), n, -1, h-1) {
				return nil // queued by its holder's state (youngrefs.go)
			}
		}
		phase := uint32(phaseEden)
		if rsFirst {
			phase = phaseFirst
		}
		s.yr.place(int32(r), phase)
	}
	if rsFirst {
		s.rs.items = append(s.rs.items, rsItem{rec: int32(r), count: n, holder: holder, pastStart: -1})
	} else {
		s.rs.edenRest = append(s.rs.edenRest, edenItem{rec: int32(r), holder: holder})
	}
	return nil
}

// edenCount is how many objects of eden record r the scavenge visits: the current record is
// cut by the threshold, the first may have started in the previous eden, the others are whole
// (walkEden).
func (s *sim) edenCount(r int32) uint32 {
	switch int(r) {
	case s.cur:
		return s.curEdenN
	case s.edenStart:
		return s.edenStartN
	}
	return s.p.Weight[r]
}

// copyEdenRest copies (or tenures) the queued eden survivors in order (copyAll's loop for
// edenItems; eden objects are never tenured by age, §3.3).
func (sc *scavengeRun) copyEdenRest() error {
	s := sc.s
	for _, it := range s.rs.edenRest {
		k, err := sc.copyOrTenure(it.rec, s.edenCount(it.rec), s.size(int(it.rec)))
		s.rs.noteYoung(it.holder, k)
		if err != nil {
			return err
		}
	}
	return nil
}

// walkEden visits the records allocated since the last scavenge, in allocation order. The
// first record may have started in the previous eden and the current one may be cut by the
// threshold: their counts are edenStartN and curEdenN, every record in between is whole.
func (sc *scavengeRun) walkEden() error {
	s := sc.s
	if s.edenStart < s.cur {
		if err := sc.edenRec(s.edenStart, s.edenStartN, s.dead(s.edenStart)); err != nil {
			return err
		}
		start, end := s.edenStart+1, s.cur
		// The columns cut at end, so that the loops' reads need no bounds check.
		weights, deaths, flags, sizes := s.p.Weight[:end], s.p.Death[:end], s.p.Flags[:end], s.p.SizeBytes[:end]
		now, refs, scaled := s.now, sc.refs, s.scaled
		var stored []uint16
		if refs {
			stored = s.p.StoredIn[:end]
		}
		// The dead records' bytes are summed here and added once (an integer sum: the same
		// total in any order). live counts the survivors: when the last walk found few, the
		// dead come in long runs, which a leaf loop skips faster; when they alternate with
		// survivors, the call costs more than it saves. Both paths compute the same.
		var reclaimed uint64
		live := 0
		if !refs && !scaled && s.sparseEden {
			for r := start; r < end; r++ {
				var dead uint64
				r, dead = skipDeadEden(sizes, weights, flags, deaths, r, end, now)
				reclaimed += dead
				if r == end {
					break
				}
				live++
				if err := sc.edenRec(r, weights[r], false); err != nil {
					s.st.ReclaimedBytes += reclaimed
					return err
				}
			}
		} else {
			for r := start; r < len(deaths); r++ {
				f := flags[r]
				dead := deaths[r] <= now && f&profile.FlagAliveAtEnd == 0
				if dead && (stored == nil || stored[r] == 0) {
					size := uint64(sizes[r])
					if scaled {
						size = s.scaledSize(r)
					}
					if !isDirectOld(size, f) {
						reclaimed += uint64(weights[r]) * size
					}
					continue
				}
				live++
				if err := sc.edenRec(r, weights[r], dead); err != nil {
					s.st.ReclaimedBytes += reclaimed
					return err
				}
			}
		}
		s.st.ReclaimedBytes += reclaimed
		s.sparseEden = live*sparseEdenRatio < end-start
	}
	return sc.edenRec(s.cur, s.curEdenN, s.dead(s.cur))
}

// sparseEdenRatio: a walk that finds fewer than one survivor in this many eden records
// skips the dead with the leaf loop at the next scavenge (walkEden).
const sparseEdenRatio = 8

// scavenge implements docs/spur-model.md §3 (rules 6 and 7): the remembered-set scan and its
// referents first, then past survivors (tenured by age below the threshold, §3.3) and eden
// survivors, per-object overflow tenuring (§3.2), the membership rule, then the tenuring
// threshold for the next scavenge and the space swap.
func (s *sim) scavenge(kind scavengeKind) error {
	now := s.now
	edenBefore, pastBefore := s.edenUsed, s.pastBytes
	hasRS := len(s.rs.containers) > 0
	if hasRS {
		s.beginScavenge()
	}
	sc := &scavengeRun{s: s, ageMode: kind == scavengeScheduled && s.armed, refs: hasRS && s.p.StoredIn != nil, yr: s.yr != nil}
	sc.queue = sc.refs || sc.yr
	if sc.yr {
		s.yr.begin()
	}
	if kind == scavengeScheduled && (hasRS || sc.yr) && s.inRedZone() {
		// strategizeToLimitRememberedSet: only a TenureByAge scavenge (a scheduled one)
		// switches; the scavenge inside a full GC keeps MarkOnTenure.
		sc.ageMode, sc.shrinkRT = false, true
		s.st.ShrinkRTScavenges++
	}
	s.future = s.future[:0]

	// Copy order (§3.1): the remembered set's referents first, so they take the lowest
	// addresses of the future space, which age tenuring takes first; then the rest, past then
	// eden; stated referents of young holders last, breadth-first (youngrefs.go). Without
	// listed referents or holders everything is copied in walk order at once.
	if sc.queue {
		s.rs.items, s.rs.edenRest = s.rs.items[:0], s.rs.edenRest[:0]
		sc.pastReferents()
		if err := sc.walkEden(); err != nil {
			return err
		}
		if sc.refs {
			if err := sc.copyAll(s.rs.sortedItems(), true); err != nil {
				return err
			}
		}
		if sc.yr {
			if err := sc.copyFirst(); err != nil {
				return err
			}
		}
	}
	if err := sc.walkPast(); err != nil {
		return err
	}
	if sc.queue {
		if err := sc.copyEdenRest(); err != nil {
			return err
		}
		if sc.yr {
			if err := sc.copyHeld(); err != nil {
				return err
			}
		}
	} else if err := sc.walkEden(); err != nil {
		return err
	}
	copiedB, tenuredB, ageB, copiedN, tenuredN, futureUsed := sc.copiedB, sc.tenuredB, sc.ageB, sc.copiedN, sc.tenuredN, sc.futureUsed
	var rsEntries float64
	var rsPointerSlots, rsImmediateSlots uint64
	if hasRS {
		rsEntries, rsPointerSlots, rsImmediateSlots = s.endScavenge()
	}
	if sc.yr {
		e, ptr := s.endYoungRefs()
		rsEntries += e
		rsPointerSlots += ptr
	}
	if hasRS || sc.yr {
		s.growRememberedSet(rsEntries, rsPointerSlots, rsImmediateSlots)
		s.st.MaxRSEntries = max(s.st.MaxRSEntries, rsEntries)
	}
	rsSlots := rsPointerSlots + rsImmediateSlots

	// Rule 7, §3.3: arm the threshold for the next scavenge if the future space is > 90 % full.
	s.armed = float64(futureUsed) > FutureSpaceFullFraction*float64(s.survivorB)
	s.thresholdOf = int64(math.Round(float64(s.survivorB) * (1 - s.proportion)))
	if s.params.Bug588 {
		// §3.3, bug588: the threshold was computed from the space that was past before the
		// swap, i.e. S below or above the new past space.
		if s.pastIsLower {
			s.thresholdOf -= int64(s.survivorB)
		} else {
			s.thresholdOf += int64(s.survivorB)
		}
	}
	// Swap the survivor spaces (exchangeSurvivorSpaces) and empty eden (doScavenge:).
	s.past, s.future = s.future, s.past
	s.pastBytes = futureUsed
	s.pastIsLower = !s.pastIsLower
	s.edenUsed = 0
	s.edenStart = s.cur
	s.edenStartN = 0
	s.curEdenN = 0

	s.st.CopiedBytes += copiedB
	s.st.CopiedObjects += copiedN
	s.st.TenuredBytes += tenuredB
	s.st.TenuredObjects += tenuredN
	s.st.TenuredByAgeBytes += ageB
	rsSeconds := s.rsScanSeconds(rsPointerSlots, rsImmediateSlots)
	copySeconds := float64(copiedB)*s.cost.CopySecondsPerByte + copiedN*s.cost.CopySecondsPerObject
	tenureSeconds := float64(tenuredB)*s.cost.TenureSecondsPerByte + tenuredN*s.cost.TenureSecondsPerObject
	secs := s.cost.ScavengeFixedSeconds + copySeconds + rsSeconds + tenureSeconds
	s.lastScavengeSeconds = secs
	s.lastScavengeLive = copiedN + tenuredN
	s.lastScavengeLiveBytes = copiedB + tenuredB
	s.lastScavengeTenuredBytes = tenuredB
	s.st.RSSlotsScanned += rsSlots
	s.st.RSPointerSlotsScanned += rsPointerSlots
	if kind == scavengeScheduled {
		if rsEntries > 0 {
			s.st.ScavengesWithRS++
		}
		s.st.ScavengeSeconds += secs
		s.st.RSScanSeconds += rsSeconds
		s.st.CopySeconds += copySeconds
		s.st.TenureSeconds += tenureSeconds
		if s.onEvt != nil {
			th := int64(-1)
			if s.armed {
				th = max(s.thresholdOf, 0)
			}
			s.onEvt(&Event{
				Kind: EventScavenge, ClockBytes: now, EdenUsedBytes: edenBefore,
				SurvivorBytesBefore: pastBefore, SurvivorBytesAfter: futureUsed,
				RSEntries: rsEntries, RSSlots: rsSlots, RSRemainingEntries: s.rememberedCount(),
				TenuredBytes: tenuredB, TenuredByAgeBytes: ageB, ThresholdBytes: th,
				OldUsedBytes: s.oldUsed, FootprintBytes: s.footprint(), Seconds: secs, RSSeconds: rsSeconds,
			})
		}
	}
	return nil
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
	st.HoleBytesAtEnd = s.holeBytes
	st.LiveBytesAtEnd = s.params.ImageBytes + s.aliveAtEndBytes
}
