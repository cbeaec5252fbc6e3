package heapsim

import (
	"cmp"
	"slices"

	"github.com/gctune/gctune/profile"
)

// youngRefs is the rule for the young→young references a profile states (Profile.HeldBy,
// docs/spur-model.md §3.1 and §3.6, rule 6):
//
//   - Breadth-first copying. SpurGenerationScavenger>>scavengeLoop copies the roots' young
//     referents first (scavengeRememberedSetStartingAt:, then the interpreter's roots), then
//     scans the future survivor space in address order (scavengeFutureSurvivorSpaceStartingAt:),
//     copying each scanned object's young referents to its end (scavengeReferentsOf: →
//     copyAndForward:): Cheney's breadth-first order. A stated referent is therefore copied
//     after every survivor reached without it, in the copy order of its holder, and since
//     copyAndForward: tenures by overflow per object in copy order, referents overflow before
//     their holders.
//   - Tenured holders. SpurGenerationScavenger>>copyToOldSpace:bytes:format: scans a tenured
//     pointer object's slots and, at its first young referent, remembers it
//     (VMRememberedSet>>remember:); scavengeLoop then scans it with the set
//     (scavengeRememberedSetStartingAt:), and each later scavenge keeps it in the set iff
//     scavengeReferentsOf: still finds a young referent. A holder allocated straight into
//     old space gets there through the write barrier at its first young store
//     (SpurMemoryManager>>storePointer:ofObject:withValue:), the same membership.
//
// Simplifications (docs/simulator.md, simplification 8). None changes which objects survive
// or how many bytes do; each changes only the order among held referents, or treats a run of
// objects (a record) as one: overflow and age tenuring cut the copy order at one point, so
// the bytes tenured stay the same and at most the referents around the cut trade places:
//
//   - A record's objects are held by one holder record's objects as a group (a record is a run
//     of objects): its referents are copied after the whole holder record, and the holder's
//     objects that are old (tenured or direct) count as one remembered group.
//   - A record named by both a container's store (StoredIn) and a holder follows the store
//     while it is active: heapsim gives each referent one referrer.
//   - The referents of a holder tenured during the scavenge are copied in the same queue as
//     those of holders copied young, by the holder's place in the copy order; in the VM they
//     wait for scavengeLoop's next pass over the remembered set, after the current scan of the
//     future space. Both are after every root-reached survivor, so only the order among held
//     referents differs.
//   - The referents of holders old at the start come right after the containers' referents,
//     in walk order; the VM interleaves them by their place in the set.
//   - A holder tenured by the scavenge is scanned from the next scavenge on (as containers
//     are, endScavenge), the quick scan of copyToOldSpace: being part of the tenuring cost;
//     a holder's slots are all taken to be pointers.
//
// When the profile states nothing (HeldBy nil: every FiLiP export, the bundled specs but the
// DataFrame ones), the simulator has no youngRefs (sim.yr is nil) and no path below runs: a
// scavenge tests one pointer.
type youngRefs struct {
	// t indexes the holders (Prepared, shared by every run of the profile): per-holder state
	// below is indexed by a holder's rank among them.
	t *holderTable
	// lastRec and lastH: the holder record classifyHeld looked up last in this scavenge
	// (−1: none yet) and its index (−1: dead or not yet allocated; the clock does not move
	// during a scavenge, so the answer holds until the next).
	lastRec, lastH int32
	// h[i] is holder i's state: one struct, so that a holder's bookkeeping touches one
	// cache line.
	h []holderState
	// members: the holders kept in the remembered set after the last scavenge.
	members []int32
	// scav counts the scavenges; touched lists the holders stamped by the one under way.
	scav    uint32
	touched []int32
	// nextSeq is the next place in the copy order (holderState.seq).
	nextSeq uint32
	// first holds the referents of holders that were old at the start (copied with the
	// remembered set's referents), held those of young holders (copied breadth-first).
	first, held, ready []rsItem
}

// holderState is one holder's state. old (objects of the holder's record in old space) and
// remembered (kept in the remembered set after the last scavenge) last across scavenges;
// the rest is scratch for the scavenge under way, valid where stamp == youngRefs.scav:
// oldAtStart, scanned (a member at the start, or an old holder the write barrier added
// since), youngKept (referents that stayed young), seq (the copy order at which the holder's
// record was reached, 0: not yet).
type holderState struct {
	stamp, old, youngKept, seq      uint32
	remembered, oldAtStart, scanned bool
}

// newYoungRefs returns the rule's state over the holder index t, nil when t is (the profile
// states no young→young reference).
func newYoungRefs(t *holderTable) *youngRefs {
	if t == nil {
		return nil
	}
	n := len(t.rec)
	yr := &youngRefs{t: t}
	yr.h = make([]holderState, n)
	return yr
}

// holderIndex returns record r's holder index, r being a holder.
func (yr *youngRefs) holderIndex(r int32) int32 { return yr.t.index(r) }

// holds reports whether record r holds others.
func (yr *youngRefs) holds(r int32) bool { return yr.t.isHolder[r>>6]&(1<<(r&63)) != 0 }

// touch prepares holder h's scratch values for the scavenge under way.
func (yr *youngRefs) touch(h int32) {
	st := &yr.h[h]
	if st.stamp == yr.scav {
		return
	}
	st.stamp = yr.scav
	yr.touched = append(yr.touched, h)
	st.oldAtStart = st.old > 0
	st.scanned = st.remembered
	st.youngKept = 0
	st.seq = 0
}

// begin starts a scavenge: the members are scanned whatever their referents.
func (yr *youngRefs) begin() {
	yr.scav++
	yr.touched = yr.touched[:0]
	yr.first, yr.held = yr.first[:0], yr.held[:0]
	yr.lastRec = -1
	yr.nextSeq = 1
	for _, h := range yr.members {
		yr.touch(h)
	}
}

// noteOld records n objects of record r entering old space (tenured or allocated there). A
// holder is touched by a scavenge when the walks place it or classify one of its referents.
func (yr *youngRefs) noteOld(r int, n uint32) {
	if yr.holds(int32(r)) {
		yr.h[yr.holderIndex(int32(r))].old += n
	}
}

// Copy phases of a scavenge, in order (scavenge.go): the remembered set's referents, the past
// survivors, the eden survivors, the held referents. A holder's place in the copy order is
// its phase, then when the walk queued it within the phase.
const (
	phaseFirst = iota
	phasePast
	phaseEden
	phaseHeld
	phaseShift = 28 // a scavenge queues fewer than 2^28 runs per phase
)

// place notes where in the copy order the scavenge under way copies or tenures record r,
// when r holds others: its referents are copied in that order (copyHeld). The walks place
// each survivor as they queue it, so the copy loops, shared with profiles that state no
// reference, carry no hook. Simplification: within phaseFirst the containers' referents
// are later sorted by their container's place in the set; a holder among them is placed in
// walk order.
func (yr *youngRefs) place(r int32, phase uint32) {
	if yr.t.isHolder[r>>6]&(1<<(r&63)) != 0 { // holds, inlined: most survivors hold nothing
		yr.placeHolder(r, phase)
	}
}

// placeHolder is place for a record r that holds others.
func (yr *youngRefs) placeHolder(r int32, phase uint32) {
	h := yr.holderIndex(r)
	yr.touch(h)
	if st := &yr.h[h]; st.seq == 0 {
		st.seq = phase<<phaseShift | yr.nextSeq
		yr.nextSeq++
	}
}

// classifyHeld decides how the scavenge copies the n live young objects of record r (at
// pastStart in the past space, −1 in eden) held by record holder (HeldBy − 1): with the
// remembered set's referents when the holder is old and alive, breadth-first after the
// holder when it is young and alive (both queued, true), or like any other survivor when the
// holder is dead or not yet allocated (false).
func (s *sim) classifyHeld(r int32, n uint32, pastStart int64, holder int32) bool {
	yr := s.yr
	if holder != yr.lastRec { // a holder's referents are usually consecutive
		p := s.p
		h := int32(-1) // dead or not yet allocated: its referents are copied like any other
		if int(holder) <= s.cur && (p.Death[holder] > s.now || p.Flags[holder]&profile.FlagAliveAtEnd != 0) {
			h = yr.holderIndex(holder)
			yr.touch(h)
		}
		yr.lastRec, yr.lastH = holder, h
	}
	h := yr.lastH
	if h < 0 {
		return false
	}
	it := rsItem{rec: r, count: n, holder: -1, yh: h, pastStart: pastStart}
	if st := &yr.h[h]; st.oldAtStart {
		// Old: a member, or added by the write barrier at the store (a holder allocated
		// old); either way the scavenge scans it.
		st.scanned = true
		yr.first = append(yr.first, it)
		yr.place(r, phaseFirst)
	} else {
		yr.held = append(yr.held, it)
	}
	return true
}

// copyFirst copies the referents of holders that were old at the start, right after the
// containers' referents; under TenureToShrinkRT they are tenured (shrinkrt.go).
func (sc *scavengeRun) copyFirst() error {
	s := sc.s
	items := s.yr.first
	if sc.shrinkRT {
		return sc.tenureReferents(items)
	}
	for _, it := range items {
		k, err := sc.ageThenCopy(it.rec, it.count, s.size(int(it.rec)), it.pastStart, -1)
		s.yr.h[it.yh].youngKept += k
		if err != nil {
			return err
		}
	}
	return nil
}

// copyHeld copies the referents of young holders breadth-first: by their holder's place in the
// copy order, stably (so a holder's referents keep their walk order), level by level, since a
// referent may hold others in turn. A referent whose holder was never reached (a cycle of
// holders, none reached otherwise) is copied last, in walk order.
func (sc *scavengeRun) copyHeld() error {
	s := sc.s
	yr := s.yr
	pending := yr.held
	for len(pending) > 0 {
		ready, later := pending, []rsItem(nil)
		if !yr.inOrder(pending) {
			// Some holder not placed yet (a referent's referents), or out of order: split
			// off what waits for the next level, sort the rest (stably).
			ready = yr.ready[:0]
			for _, it := range pending {
				if yr.h[it.yh].seq != 0 {
					ready = append(ready, it)
				} else {
					later = append(later, it) // only for a second level: rare
				}
			}
			if len(ready) == 0 {
				ready, later = append(ready, later...), nil
			}
			slices.SortStableFunc(ready, func(a, b rsItem) int { return cmp.Compare(yr.h[a.yh].seq, yr.h[b.yh].seq) })
			yr.ready = ready
		}
		for _, it := range ready {
			yr.place(it.rec, phaseHeld) // a referent that holds others in turn
			// ageThenCopy with no container holder; an eden referent, never tenured by
			// age, goes straight to copyOrTenure: one call fewer for the commonest
			// survivor of a profile that states holders.
			var k uint32
			var err error
			if it.pastStart >= 0 {
				k, err = sc.ageThenCopy(it.rec, it.count, s.size(int(it.rec)), it.pastStart, -1)
			} else if it.count > 0 {
				k, err = sc.copyOrTenure(it.rec, it.count, s.size(int(it.rec)))
			}
			yr.h[it.yh].youngKept += k
			if err != nil {
				return err
			}
		}
		pending = later
	}
	return nil
}

// inOrder reports whether every item's holder is placed and the items are in their holders'
// copy order: the usual case, since the walks meet holders before their referents.
func (yr *youngRefs) inOrder(items []rsItem) bool {
	var prev uint32
	for _, it := range items {
		q := yr.h[it.yh].seq
		if q == 0 || q < prev {
			return false
		}
		prev = q
	}
	return true
}

// endYoungRefs applies the membership rule to the holders (kept or joined iff old, alive and still
// holding a young object) and returns what scanning the members cost: entries (objects) and
// pointer slots.
func (s *sim) endYoungRefs() (entries float64, pointerSlots uint64) {
	yr := s.yr
	yr.members = yr.members[:0]
	for _, h := range yr.touched {
		r := yr.t.rec[h]
		st := &yr.h[h]
		if st.scanned {
			n := uint64(st.old)
			entries += float64(n)
			pointerSlots += n * uint64(profile.SlotsOf(uint32(s.size(int(r)))))
		}
		alive := s.p.Death[r] > s.now || s.p.Flags[r]&profile.FlagAliveAtEnd != 0
		st.remembered = st.youngKept > 0 && st.old > 0 && alive
		if st.remembered {
			yr.members = append(yr.members, h)
		}
	}
	return entries, pointerSlots
}

// rememberedCount is how many holder objects stay remembered after the last scavenge.
func (yr *youngRefs) rememberedCount() float64 {
	var n float64
	for _, h := range yr.members {
		n += float64(yr.h[h].old)
	}
	return n
}
