package heapsim

import (
	"math"

	"github.com/gctune/gctune/lifetimes"
)

// scavengePass selects which survivors a walk over the new space copies.
type scavengePass int

const (
	passAll       scavengePass = iota // no referents listed: everything, in one walk
	passReferents                     // the remembered set's young referents only
	passRest                          // everything but them
)

// scavenge implements docs/spur-model.md §3 (rules 6 and 7): the remembered-set scan and its
// referents first, then past survivors (tenured by age below the threshold, §3.3) and eden
// survivors, per-object overflow tenuring (§3.2), the membership rule, then the tenuring
// threshold for the next scavenge and the space swap.
func (s *sim) scavenge(kind scavengeKind) error {
	sizes, weights, deaths, flags := s.p.SizeBytes, s.p.Weight, s.p.Death, s.p.Flags
	stored := s.p.StoredIn
	now := s.now
	var (
		copiedB, tenuredB, ageB uint64
		copiedN, tenuredN       float64
		futureUsed              uint64
	)
	edenBefore, pastBefore := s.edenUsed, s.pastBytes
	hasRS := len(s.rs.containers) > 0
	refs := hasRS && stored != nil
	if hasRS {
		s.beginScavenge()
	}

	s.future = s.future[:0]
	// copyOrTenure copies n objects of record r to future space while they fit and tenures the
	// rest: overflow is decided per object (§3.2). It returns how many stayed young.
	copyOrTenure := func(r int32, n uint32, size uint64) (uint32, error) {
		room := (s.survivorB - futureUsed) / size
		k := uint32(min(room, uint64(n)))
		if k > 0 {
			if last := len(s.future) - 1; last >= 0 && s.future[last].rec == r {
				s.future[last].count += k
			} else {
				s.future = append(s.future, chunk{rec: r, count: k})
			}
			futureUsed += uint64(k) * size
			copiedB += uint64(k) * size
			copiedN += float64(k)
		}
		if k < n {
			if err := s.tenure(r, n-k, size); err != nil {
				return k, err
			}
			tenuredB += uint64(n-k) * size
			tenuredN += float64(n - k)
		}
		return k, nil
	}
	// skip reports whether the pass leaves a survivor for the other pass.
	skip := func(pass scavengePass, rsFirst bool) bool {
		return (pass == passReferents && !rsFirst) || (pass == passRest && rsFirst)
	}

	// ageThenCopy tenures by age the n objects of record r that lie below the threshold, when
	// they are in the past space at pastStart (−1: in eden), and copies or tenures the rest.
	ageMode := kind == scavengeScheduled && s.armed
	ageThenCopy := func(r int32, n uint32, size uint64, pastStart int64, holder int32) error {
		if ageMode && pastStart >= 0 && pastStart < s.thresholdOf {
			// §3.3: objects whose address lies below the threshold are tenured.
			k := uint32(min((uint64(s.thresholdOf-pastStart)+size-1)/size, uint64(n)))
			if err := s.tenure(r, k, size); err != nil {
				return err
			}
			tenuredB += uint64(k) * size
			ageB += uint64(k) * size
			tenuredN += float64(k)
			n -= k
		}
		if n == 0 {
			return nil
		}
		k, err := copyOrTenure(r, n, size)
		s.rs.noteYoung(holder, k)
		return err
	}

	// Past survivors, in address order (= the last scavenge's copy order: §3.1 item 4).
	visitPast := func(pass scavengePass) error {
		var addr uint64
		for _, c := range s.past {
			size := uint64(sizes[c.rec])
			start := addr
			addr += uint64(c.count) * size
			holder, rsFirst := int32(-1), false
			if refs && stored[c.rec] != 0 {
				holder, rsFirst = s.referent(int(c.rec))
			}
			if skip(pass, rsFirst) {
				continue
			}
			if deaths[c.rec] <= now && flags[c.rec]&lifetimes.FlagAliveAtEnd == 0 {
				s.st.ReclaimedBytes += uint64(c.count) * size
				continue
			}
			if pass == passReferents {
				s.rs.items = append(s.rs.items, rsItem{rec: c.rec, count: c.count, holder: holder, pastStart: int64(start)})
				continue
			}
			if err := ageThenCopy(c.rec, c.count, size, int64(start), holder); err != nil {
				return err
			}
		}
		return nil
	}

	// Eden survivors, in allocation order. Eden objects lie above both survivor spaces, so they
	// are never tenured by age, only by overflow (§3.3). The first record may have started in
	// the previous eden and the current one may be cut by the threshold: their counts are
	// edenStartN and curEdenN, every record in between is whole.
	visitEden := func(pass scavengePass) error {
		edenRec := func(r int, n uint32) error {
			if n == 0 || isDirectOld(sizes[r], flags[r]) {
				return nil
			}
			holder, rsFirst := int32(-1), false
			if refs && stored[r] != 0 {
				holder, rsFirst = s.referent(r)
			}
			if skip(pass, rsFirst) {
				return nil
			}
			size := uint64(sizes[r])
			if deaths[r] <= now && flags[r]&lifetimes.FlagAliveAtEnd == 0 {
				s.st.ReclaimedBytes += uint64(n) * size
				return nil
			}
			if pass == passReferents {
				s.rs.items = append(s.rs.items, rsItem{rec: int32(r), count: n, holder: holder, pastStart: -1})
				return nil
			}
			return ageThenCopy(int32(r), n, size, -1, holder)
		}
		if s.edenStart < s.cur {
			if err := edenRec(s.edenStart, s.edenStartN); err != nil {
				return err
			}
			for r := s.edenStart + 1; r < s.cur; r++ {
				if deaths[r] <= now && flags[r]&lifetimes.FlagAliveAtEnd == 0 && (!refs || stored[r] == 0) {
					if pass != passReferents && !isDirectOld(sizes[r], flags[r]) {
						s.st.ReclaimedBytes += uint64(weights[r]) * uint64(sizes[r])
					}
					continue
				}
				if err := edenRec(r, weights[r]); err != nil {
					return err
				}
			}
		}
		return edenRec(s.cur, s.curEdenN)
	}

	// Copy order (§3.1): the remembered set's referents first, so they take the lowest
	// addresses of the future space, which age tenuring takes first; then the rest.
	passes := []scavengePass{passAll}
	if refs {
		passes = []scavengePass{passReferents, passRest}
	}
	for _, pass := range passes {
		if pass == passReferents {
			s.rs.items = s.rs.items[:0]
		}
		if err := visitPast(pass); err != nil {
			return err
		}
		if err := visitEden(pass); err != nil {
			return err
		}
		if pass == passReferents {
			// The set is scanned in its own order, oldest member first
			// (scavengeRememberedSetStartingAt:), each member's referents in slot order,
			// taken to be store order: past before eden.
			for _, it := range s.rs.sortedItems() {
				if err := ageThenCopy(it.rec, it.count, uint64(sizes[it.rec]), it.pastStart, it.holder); err != nil {
					return err
				}
			}
		}
	}
	var rsEntries float64
	var rsPointerSlots, rsImmediateSlots uint64
	if hasRS {
		rsEntries, rsPointerSlots, rsImmediateSlots = s.endScavenge()
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
	rsSeconds := float64(rsPointerSlots)*s.cost.RSPointerSlotSeconds + float64(rsImmediateSlots)*s.cost.RSImmediateSlotSeconds
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
				RSEntries: rsEntries, RSSlots: rsSlots, RSRemainingEntries: s.rs.rememberedCount(),
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
