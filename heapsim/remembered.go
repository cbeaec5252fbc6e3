package heapsim

import (
	"cmp"
	"math"
	"slices"

	"github.com/gctune/gctune/profile"
)

// rememberedSet is the old→young remembered set (docs/spur-model.md §3.6) of the profile's
// containers: the old objects the profile says point at young ones (simplification 4 in
// doc.go); the holders of stated young→young references are kept beside it (youngRefs,
// youngrefs.go) and share its capacity. Membership follows the VM:
//
//   - the write barrier (SpurMemoryManager>>storePointer:ofObject:withValue:) remembers an old
//     container at its first young store: a store from a container's window of unlisted
//     stores, or a store of a listed referent (Profile.StoredIn), since the last scavenge;
//   - a scavenge scans every member, copies its young referents first
//     (scavengeRememberedSetStartingAt:), and keeps a member iff it still refers to a
//     new-space object afterwards;
//   - a container tenured while it holds young referents joins the set
//     (copyToOldSpace:bytes:format:).
//
// Invariant between scavenges: remembered[c] iff container c is old, alive and referenced a
// young object at the end of the last scavenge (youngRefs[c] > 0).
type rememberedSet struct {
	containers  []profile.Container
	containerOf map[int32]int32 // container record → container index
	// old[c] is how many objects of container c's record are in old space (0 or its weight).
	old []uint32
	// remembered[c] and youngRefs[c]: see the invariant above.
	remembered []bool
	youngRefs  []uint32
	// scanned[c] is scratch: c is scanned by the scavenge under way.
	scanned []bool
	// oldAtStart[c] is scratch: c was old when the scavenge under way started.
	oldAtStart []bool
	// lastScavengeClock is the clock of the last scavenge: stores after it fired the barrier.
	lastScavengeClock uint64
	// seq[c] orders the members as the VM's set does: by when they joined (entries that stay
	// keep their place, scavengeRememberedSetStartingAt:). nextSeq is the next number.
	seq     []uint64
	nextSeq uint64
	// items is scratch: the referents a scavenge copies first, with their holders.
	items []rsItem
	// edenRest is scratch: the eden survivors that are not the set's referents, copied last.
	// An eden record is whole but for the first and the current one, so a record and its
	// holder say all (edenItem: a third of an rsItem's bytes; on dataframe-3.1gb nearly every
	// eden record survives, and this queue's memory traffic was a tenth of a simulation).
	edenRest []edenItem
	// pastRef[k] is scratch: what referent answered for past chunk k in pastReferents, for the
	// walk that copies the rest (refUnknown: not stored, refFirst: queued in items, else the
	// holder, −1 for none).
	pastRef []int32
	// holderNow[c] is scratch: who holds, at the scavenge under way, a reference stored into c
	// (c or a successor; −1 when they are all dead).
	holderNow []int32
	// stamp[c] is the scavenge (counted from 1) whose scratch values c holds; touched lists
	// the containers stamped by the scavenge under way. A scavenge looks at the set's
	// members, the containers in their store window and those its survivors name, never at
	// every container.
	stamp   []uint32
	scav    uint32
	touched []int32
	// lastStore is the store referent looked up last in the scavenge under way (−1: none
	// yet), lastHolder who holds what is stored into its container (holderNow, fixed for the
	// scavenge) and lastLife its storeInfo.life.
	lastStore, lastHolder int32
	lastLife              bool
	// death[c] is container c's death on the clock (MaxUint64 when it lives to the end): a
	// copy kept here so that the liveness tests read a small array, not the profile's column.
	death []uint64
	// members lists the containers remembered after the last scavenge.
	members []int32
	// windows lists the containers with a window of unlisted stores by its start;
	// nextWindow is the first not yet open, open the ones opened and not yet over.
	windows    []int32
	nextWindow int
	open       []int32
	capacity   float64 // entries the set can hold before it doubles (§3.6)
	// loc is where the containers' referents lie, for the scan's price (locality.go).
	loc rsLocality
}

func (rs *rememberedSet) init(pp *Prepared) {
	p := pp.p
	rs.capacity = InitialRememberedSetEntries
	n := len(p.Containers)
	if n == 0 {
		return
	}
	rs.containers = p.Containers
	rs.containerOf = make(map[int32]int32, n)
	rs.old = make([]uint32, n)
	rs.remembered = make([]bool, n)
	rs.youngRefs = make([]uint32, n)
	rs.scanned = make([]bool, n)
	rs.oldAtStart = make([]bool, n)
	rs.seq = make([]uint64, n)
	rs.holderNow = make([]int32, n)
	rs.stamp = make([]uint32, n)
	rs.death = make([]uint64, n)
	rs.initLocality(pp)
	for i, c := range p.Containers {
		rs.death[i] = p.Death[c.Record]
		if p.Flags[c.Record]&profile.FlagAliveAtEnd != 0 {
			rs.death[i] = math.MaxUint64
		}
		rs.containerOf[c.Record] = int32(i)
		if c.StoresUntilBytes > c.StoresFromBytes {
			rs.windows = append(rs.windows, int32(i))
		}
	}
	slices.SortStableFunc(rs.windows, func(a, b int32) int {
		return cmp.Compare(p.Containers[a].StoresFromBytes, p.Containers[b].StoresFromBytes)
	})
}

// touch prepares container c's scratch values for the scavenge under way (once per
// scavenge): whether it was old at the start, whether it is scanned (a member, or in its
// window of unlisted stores), no young referents counted yet, and who holds what is stored
// into it.
func (s *sim) touch(c int32) {
	rs := &s.rs
	if rs.stamp[c] == rs.scav {
		return
	}
	rs.stamp[c] = rs.scav
	rs.touched = append(rs.touched, c)
	old := rs.old[c] > 0 && s.containerAlive(c)
	rs.oldAtStart[c] = old
	rs.youngRefs[c] = 0
	ct := &rs.containers[c]
	window := ct.StoresFromBytes < ct.StoresUntilBytes && ct.StoresFromBytes <= s.now && ct.StoresUntilBytes > rs.lastScavengeClock
	rs.scanned[c] = old && (rs.remembered[c] || window)
	if rs.scanned[c] && !rs.remembered[c] {
		rs.seq[c] = rs.nextSeq // added by the barrier since the last scavenge
		rs.nextSeq++
	}
	h := s.holder(c)
	rs.holderNow[c] = h
	if h >= 0 && h != c {
		s.touch(h)
	}
}

// alive reports whether container c's object is alive at the current clock.
func (s *sim) containerAlive(c int32) bool { return s.rs.death[c] > s.now }

// holder returns the container that holds a reference stored into c: c while it lives, then
// its successors (a growing collection's next arrays); −1 when the reference died with them.
func (s *sim) holder(c int32) int32 {
	for c >= 0 && !s.containerAlive(c) {
		c = s.rs.containers[c].Successor - 1
	}
	return c
}

// beginScavenge decides which containers the scavenge starting now scans before the
// referents are visited: those remembered after the last scavenge and those the write barrier
// added since through a window of unlisted stores. Listed referents add theirs as they are
// visited (referent).
func (s *sim) beginScavenge() {
	rs := &s.rs
	rs.scav++
	rs.touched = rs.touched[:0]
	rs.lastStore = -1
	for _, c := range rs.members {
		s.touch(c)
	}
	for rs.nextWindow < len(rs.windows) && rs.containers[rs.windows[rs.nextWindow]].StoresFromBytes <= s.now {
		rs.open = append(rs.open, rs.windows[rs.nextWindow])
		rs.nextWindow++
	}
	open := rs.open[:0]
	for _, c := range rs.open {
		if rs.containers[c].StoresUntilBytes <= rs.lastScavengeClock || !s.containerAlive(c) {
			continue // its window is over
		}
		open = append(open, c)
		s.touch(c)
	}
	rs.open = open
}

// rsItem is a run of young objects a remembered container refers to: count objects of record
// rec, at pastStart bytes into the past space (−1 in eden).
type rsItem struct {
	rec    int32
	count  uint32
	holder int32
	// yh is the holder index (youngrefs.go) of a stated young→young referent, in the
	// holders' queues only (it fills what would be padding: the item stays 24 bytes).
	yh        int32
	pastStart int64
}

// edenItem is an eden survivor queued to be copied after the past survivors: its record and
// the container holding it (−1: none).
type edenItem struct {
	rec, holder int32
}

// sortedItems returns the referents in the order the scavenger reaches them
// (scavengeRememberedSetStartingAt:): by their holder's place in the set, oldest member first,
// stably, so each member's referents stay in slot order, taken to be store order (past space
// before eden, each in address order).
func (rs *rememberedSet) sortedItems() []rsItem {
	order := func(a, b rsItem) int { return cmp.Compare(rs.seq[a.holder], rs.seq[b.holder]) }
	if !slices.IsSortedFunc(rs.items, order) {
		slices.SortStableFunc(rs.items, order)
	}
	return rs.items
}

// referent reports, for a young record r of store k (StoredIn − 1) visited by the scavenge
// (inEden: allocated since the last scavenge; dead: dead at the clock), the container that
// holds it now (−1 if none) and whether the scavenge copies it as a remembered-set referent
// (its holder is old). It also fires the write barrier for a store made since the last
// scavenge.
func (s *sim) referent(r int, k uint16, inEden, dead bool) (holder int32, rsFirst bool) {
	rs := &s.rs
	if int32(k) != rs.lastStore { // a store's referents usually come together
		st := s.pp.stores[k]
		if rs.stamp[st.container] != rs.scav { // touch's test, inlined
			s.touch(st.container)
		}
		rs.lastStore, rs.lastHolder, rs.lastLife = int32(k), rs.holderNow[st.container], st.life
	}
	c := rs.lastHolder
	if c < 0 {
		return -1, false
	}
	var since, active bool
	if rs.lastLife {
		// The commonest store, from birth to death: made since the last scavenge iff the
		// record was allocated since (its birth need not be read), active while it lives.
		since, active = inEden, !dead
	} else {
		from, until := storeWindow(s.p, &s.p.Stores[k], r)
		since = from > rs.lastScavengeClock && from <= s.now
		active = !dead && from <= s.now && until > s.now
	}
	if since && rs.oldAtStart[c] && !rs.scanned[c] {
		// The store happened since the last scavenge into an old container: the barrier
		// remembered it, even if the referent died since.
		rs.scanned[c] = true
		rs.seq[c] = rs.nextSeq
		rs.nextSeq++
	}
	if !active {
		return -1, false
	}
	return c, rs.oldAtStart[c]
}

// storeWindow is profile.StoreWindow's [from, until) of record r for its store st, one that
// does not last from birth to death (storeInfo.life), without looking the store up again.
func storeWindow(p *profile.Profile, st *profile.Store, r int) (from, until uint64) {
	birth, death := p.Birth[r], p.Death[r]
	if st.AtBytes != 0 {
		return max(birth, st.AtBytes), max(death, st.AtBytes)
	}
	life := float64(death - birth)
	from = birth + uint64(float64(st.FromFraction)*life)
	until = birth + uint64(float64(st.FromFraction+st.ForFraction)*life)
	if st.FromFraction+st.ForFraction >= 1 {
		until = death
	}
	return from, until
}

// endScavenge applies the membership rule after a scavenge and returns what the scan cost:
// entries (objects), pointer and immediate slots (the scavenge then grows the set for them
// and the holders', growRememberedSet).
func (s *sim) endScavenge() (entries float64, pointerSlots, immediateSlots uint64) {
	rs := &s.rs
	rs.members = rs.members[:0]
	rs.loc.inOrderSlots, rs.loc.inOrderSeconds = 0, 0
	for _, ci := range rs.touched {
		c := int(ci)
		if rs.scanned[c] {
			ct := &rs.containers[c]
			n := uint64(rs.old[c])
			slots := uint64(profile.SlotsOf(uint32(s.size(int(ct.Record)))))
			imm := uint64(float64(slots)*float64(ct.ImmediateFraction) + 0.5)
			entries += float64(n)
			pointerSlots += n * (slots - imm)
			immediateSlots += n * imm
			s.priceScan(ci, n*(slots-imm), uint64(rs.youngRefs[c]))
		}
		// Kept (or joined, when tenured just now) iff it still refers to a young object. A
		// container not touched had no young referent: it stays out.
		was := rs.remembered[c]
		rs.remembered[c] = rs.youngRefs[c] > 0 && rs.old[c] > 0 && s.containerAlive(ci)
		if rs.remembered[c] {
			rs.members = append(rs.members, ci)
			if !was && !rs.scanned[c] {
				rs.seq[c] = rs.nextSeq // joined at its tenuring
				rs.nextSeq++
			}
		}
	}
	rs.lastScavengeClock = s.now
	return entries, pointerSlots, immediateSlots
}

// RememberedSetRedZoneMargin is how far below its capacity the remembered set enters its red
// zone: VMRememberedSet>>setRememberedSetRedZone sets the zone at limit − 4 (its fudge, a
// lower bound, does not matter at heapsim's capacities).
const RememberedSetRedZoneMargin = 4

// growRememberedSet doubles the set's capacity while the entries a scavenge found exceed it
// (VMRememberedSet>>growRememberedSet: numSlots × 2), and each doubling schedules a scavenge
// (VMRememberedSet>>rememberWithoutMarkingAsRemembered:, doFullScan false; PVM ≥ 10.0.9): a
// scheduled scavenge, counted in Scavenges (VM parameter 9).
//
// Simplification (docs/spur-model.md §3.6, docs/simulator.md simplification 4): heapsim learns
// of the barrier's insertions at the scavenge that follows them, so the extra scavenge is
// priced, not replayed: its fixed part and a second scan of the set (the roots it must visit
// again); its survivors are those of the scavenge heapsim runs, and the eden timeline is not
// shifted by it.
func (s *sim) growRememberedSet(entries float64, pointerSlots, immediateSlots uint64) {
	rs := &s.rs
	for entries > rs.capacity {
		rs.capacity *= 2
		rsSeconds := s.rsScanSeconds(pointerSlots, immediateSlots)
		secs := s.cost.ScavengeFixedSeconds + rsSeconds
		s.st.Scavenges++
		s.st.RSGrowthScavenges++
		s.st.ScavengeSeconds += secs
		s.st.RSScanSeconds += rsSeconds
		s.st.RSSlotsScanned += pointerSlots + immediateSlots
		s.st.RSPointerSlotsScanned += pointerSlots
	}
}

// inRedZone reports whether a scheduled scavenge starting now finds the remembered set in its
// red zone (VMRememberedSet>>isInRedZone: size ≥ limit − 4), which makes
// SpurGenerationScavenger>>strategizeToLimitRememberedSet switch the criterion from
// TenureByAge to TenureToShrinkRT.
//
// Simplification: the size tested is the entries kept by the last scavenge; those the write
// barrier added since are known to heapsim only as the scavenge visits their referents.
func (s *sim) inRedZone() bool {
	return s.rememberedCount() >= s.rs.capacity-RememberedSetRedZoneMargin
}

// rememberedCount is how many objects stay remembered after the last scavenge: containers
// and holders of stated young referents (youngrefs.go).
func (s *sim) rememberedCount() float64 {
	n := s.rs.rememberedCount()
	if s.yr != nil {
		n += s.yr.rememberedCount()
	}
	return n
}

// noteOld records n objects of record r entering old space, for the containers.
func (rs *rememberedSet) noteOld(r int, n uint32) {
	if c, ok := rs.containerOf[int32(r)]; ok {
		rs.old[c] += n
	}
}

// noteYoung records k objects held by container c that stay young after the scavenge.
func (rs *rememberedSet) noteYoung(c int32, k uint32) {
	if c >= 0 {
		rs.youngRefs[c] += k
	}
}

// rememberedCount is how many objects stay remembered after the last scavenge.
func (rs *rememberedSet) rememberedCount() float64 {
	var n float64
	for _, c := range rs.members {
		n += float64(rs.old[c])
	}
	return n
}

// Values of pastRef besides holders.
const (
	refHeld    int32 = -4 // queued by its young→young holder (youngrefs.go)
	refFirst   int32 = -3
	refUnknown int32 = -2
)

// pastReferents finds, in the past space, the young referents of the remembered set and
// queues them in items, and queues the stated referents of live holders (youngrefs.go);
// pastRef keeps what referent answered for each chunk, for the walk that copies the rest. It
// also fires the write barrier for stores made since the last scavenge.
func (sc *scavengeRun) pastReferents() {
	s := sc.s
	rs := &s.rs
	rs.pastRef = rs.pastRef[:0]
	var addr uint64
	for _, c := range s.past {
		size := s.size(int(c.rec))
		start := addr
		addr += uint64(c.count) * size
		holder := refUnknown
		dead := s.dead(int(c.rec))
		if sc.refs {
			if k := s.p.StoredIn[c.rec]; k != 0 {
				var first bool
				holder, first = s.referent(int(c.rec), k-1, false, dead)
				if first {
					rs.items = append(rs.items, rsItem{rec: c.rec, count: c.count, holder: holder, pastStart: int64(start)})
					holder = refFirst
				}
			}
		}
		if sc.yr && holder < 0 && holder != refFirst && s.p.HeldBy[c.rec] != 0 && !dead {
			// Not an active container referent: held by a stated holder? (youngrefs.go)
			if s.classifyHeld(c.rec, c.count, int64(start), s.p.HeldBy[c.rec]-1) {
				holder = refHeld
			}
		}
		if sc.yr && holder != refHeld && !dead {
			phase := uint32(phasePast)
			if holder == refFirst {
				phase = phaseFirst
			}
			s.yr.place(c.rec, phase)
		}
		rs.pastRef = append(rs.pastRef, holder)
	}
}
