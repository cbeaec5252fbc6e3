package profile

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ErrInvalidProfile is wrapped by every error Profile.Validate returns.
var ErrInvalidProfile = errors.New("profile: invalid profile")

// Record flags, one byte per record (Profile.Flags).
const (
	// FlagAliveAtEnd marks an object still alive when the run ended (or force-finalized at the
	// end by the profiler). Its Death equals Meta.EndBytes.
	FlagAliveAtEnd uint8 = 1 << iota
	// FlagOldSpace marks an object the application allocates straight into old space even though
	// its size alone would not send it there (pinned objects, explicit old-space allocation).
	// Objects over the VM's 65,535-slot limit go to old space whatever their flag: heapsim decides
	// that from SizeBytes.
	FlagOldSpace
	// FlagContainer marks a record that Profile.Containers names (set by Builder.AddContainer),
	// so consumers can recognise containers without a lookup per record.
	FlagContainer
	// FlagPointerFree marks a record whose class holds no pointers (ClassPointerFree), so the
	// simulator's marker can skip its slots without a lookup per record. Builder.Build and
	// the readers set it (SetPointerFreeFlags).
	FlagPointerFree
	// FlagPretenured marks a record whose allocation site the application changed to
	// allocate in old space (Behavior>>basicNewTenured, docs/sites.md): set, with FlagOldSpace,
	// only on the view heapsim.Pretenured returns, never by a reader.
	FlagPretenured
)

// SetPointerFreeFlags sets FlagPointerFree on every record whose class holds no pointers and
// clears it on the others. Build and the binary reader call it; call it again after changing
// PointerFree or the class table of a built Profile.
func (p *Profile) SetPointerFreeFlags() {
	free := make([]bool, len(p.ClassNames))
	for c := range free {
		free[c] = p.ClassPointerFree(uint32(c))
	}
	for i, c := range p.Class {
		if free[c] {
			p.Flags[i] |= FlagPointerFree
		} else {
			p.Flags[i] &^= FlagPointerFree
		}
	}
}

// Meta describes the run a Profile was taken from (or generated for).
type Meta struct {
	// Source names where the profile came from: a file path or "workload:NAME".
	Source string `json:"source"`
	// Profiler is the tool that wrote the profile ("FiLiP", "Illimani", "gctune-spec", ...).
	Profiler string `json:"profiler,omitempty"`
	// EndBytes is the length of the run on the canonical clock: bytes allocated since start
	// (VM parameter 34) at the end of the run. Every Birth and Death lies in [0, EndBytes].
	EndBytes uint64 `json:"endBytes"`
	// TotalAllocatedBytes is the total the run allocated, as reported by the profiler or as the
	// sum of weight × size over the records. Usually equal to EndBytes.
	TotalAllocatedBytes uint64 `json:"totalAllocatedBytes"`
	// RunSeconds is the run's wall-clock length when the profiler reported it (0 = unknown).
	RunSeconds float64 `json:"runSeconds,omitempty"`
	// SamplingRate is the fraction of allocations the profiler recorded (1 = all). Record
	// weights are 1/SamplingRate for a uniformly sampled profile.
	SamplingRate float64 `json:"samplingRate"`
	// ReportedScavenges and ReportedFullGCs are the counts the profiler saw during the profiled
	// run (0 = not reported). They are information, not simulation input.
	ReportedScavenges int `json:"reportedScavenges,omitempty"`
	ReportedFullGCs   int `json:"reportedFullGCs,omitempty"`
	// ProfilerBytes is what the profiler itself allocated during the profiled run, counted by
	// the export's clock and taken off it by the rebuild of a sampled export (0 = none, or
	// unknown). The profiled run's reported counts include the collections those bytes caused.
	ProfilerBytes uint64 `json:"profilerBytes,omitempty"`
	// FullGCsFloor says that the rebuild of a sampled export placed the large objects the
	// sample missed one per window, the fewest the clock allows (it sampled none to give their
	// size): a run with the same lifetimes and more, smaller objects forces more full GCs, so
	// this profile's count at the defaults is a floor of the run's, not an estimate.
	FullGCsFloor bool `json:"fullGCsFloor,omitempty"`
	// Pessimistic says that the profile is a sampled export read at the pessimistic end of
	// what it allows (the rebuild's stored hypothesis: the pointers it never records guessed
	// at their costliest): a bound of the run, not an estimate of it.
	Pessimistic bool `json:"pessimistic,omitempty"`
}

// ProfilerShare is the profiler's own bytes over the application's (ProfilerBytes over
// EndBytes): how much more the profiled run allocated than the application alone. 0 when
// unknown.
func (m Meta) ProfilerShare() float64 {
	if m.EndBytes == 0 {
		return 0
	}
	return float64(m.ProfilerBytes) / float64(m.EndBytes)
}

// Container is a long-lived object that keeps receiving references to young objects, such as a
// DataFrame's row or column array. While it does (from StoresFromBytes to StoresUntilBytes on
// the allocation clock) and it lives in old space, the write barrier keeps it in the remembered
// set and the scavenger scans all of its slots at every scavenge (docs/spur-model.md §3.6).
type Container struct {
	// Record is the index of the container object's record in the Profile.
	Record int32 `json:"record"`
	// StoresFromBytes and StoresUntilBytes bound, on the allocation clock, the interval in which
	// the application stores young objects into the container.
	StoresFromBytes  uint64 `json:"storesFromBytes"`
	StoresUntilBytes uint64 `json:"storesUntilBytes"`
	// Successor is 1 + the index of the container that takes this one's references when it
	// dies (a growing collection's next, bigger array, which copies its slots); 0 = none.
	Successor int32 `json:"successor,omitempty"`
	// ImmediateFraction is the share of the container's slots that hold immediates
	// (SmallIntegers, Characters, SmallFloat64s) rather than object pointers, in [0, 1]: the
	// scavenger tests an immediate slot's tag only, but reads a pointer slot's referent header
	// and writes the slot back (docs/spur-model.md §3.2).
	ImmediateFraction float32 `json:"immediateFraction,omitempty"`
}

// Store says that the objects of the records naming it (Profile.StoredIn) are referenced from
// a container for part of their life: from Birth + FromFraction × lifetime for ForFraction ×
// lifetime, where lifetime = Death − Birth. That is all the collector needs to know about
// pointers: an old container holding a young object is in the remembered set
// (docs/spur-model.md §3.6).
type Store struct {
	// Container indexes Profile.Containers (the container at the time of the store; its Successor
	// chain holds the reference after it dies).
	Container int32 `json:"container"`
	// FromFraction and ForFraction place the reference within the referent's life, each in
	// [0, 1] with FromFraction + ForFraction ≤ 1.
	FromFraction float32 `json:"from"`
	ForFraction  float32 `json:"for"`
	// AtBytes, when not 0, replaces the fractions: the store happens at this clock (or at the
	// referent's birth if later) and lasts until the referent dies, e.g. cells copied into a
	// table when a phase starts.
	AtBytes uint64 `json:"at,omitempty"`
}

// StoreWindow returns when record i's objects are referenced from their store's container:
// [from, until) on the allocation clock, and the store's index; ok is false when the record is
// stored nowhere.
func (p *Profile) StoreWindow(i int) (store int, from, until uint64, ok bool) {
	if p.StoredIn == nil || p.StoredIn[i] == 0 {
		return 0, 0, 0, false
	}
	store = int(p.StoredIn[i]) - 1
	st := &p.Stores[store]
	if st.FromFraction == 0 && st.ForFraction >= 1 && st.AtBytes == 0 {
		return store, p.Birth[i], p.Death[i], true // the commonest: from birth to death
	}
	birth := p.Birth[i]
	life := float64(p.Death[i] - birth)
	if st.AtBytes != 0 {
		return store, max(birth, st.AtBytes), max(p.Death[i], st.AtBytes), true
	}
	from = birth + uint64(float64(st.FromFraction)*life)
	until = birth + uint64(float64(st.FromFraction+st.ForFraction)*life)
	if st.FromFraction+st.ForFraction >= 1 {
		until = p.Death[i]
	}
	return store, from, until, true
}

// Profile is an application's sampled object-lifetime profile on the allocated-bytes clock.
//
// Layout: struct of arrays. Each record's fields live in parallel slices indexed by record
// number, sorted by Birth. Heapsim streams over Birth, SizeBytes, Weight and Flags in order and
// touches Death only for survivors, so keeping each field contiguous makes that scan
// cache-friendly and lets every column be sized for its content (a record costs 29 bytes, a
// 10 M-record profile 290 MB; 31 with the StoredIn column of a profile that lists referents),
// with no pointers for Go's garbage collector to trace. Class names are interned: Class holds
// an index into ClassNames. Who references whom is a sparse affair kept apart: a 2-byte
// StoredIn column indexing a small Stores table, nil when nothing is listed.
//
// A Profile is read-only once built: heapsim runs many simulations over one shared Profile in
// parallel.
type Profile struct {
	Meta Meta
	// ClassNames is the interned class table; Class[i] indexes it.
	ClassNames []string
	// Class is the class of each record.
	Class []uint32
	// SizeBytes is the size of one object of the record, header included, in bytes.
	SizeBytes []uint32
	// Birth is when the object was allocated, in bytes allocated since start.
	Birth []uint64
	// Death is when the object became unreachable, in bytes allocated since start; Birth ≤ Death
	// ≤ Meta.EndBytes. Objects alive at the end have Death = Meta.EndBytes and FlagAliveAtEnd.
	Death []uint64
	// Weight is how many real objects the record stands for (1/sampling rate, or the
	// generator's resolution). Always ≥ 1.
	Weight []uint32
	// Flags holds the Flag* bits (FlagAliveAtEnd, FlagOldSpace, FlagContainer,
	// FlagPointerFree).
	Flags []uint8
	// Containers lists the objects that keep the remembered set busy.
	Containers []Container
	// Stores lists the ways records are referenced from containers; StoredIn indexes it.
	Stores []Store
	// StoredIn is, per record, 0 when the record's objects are referenced from no container
	// (or nothing is known), else 1 + the index of its Store. Nil when no record is stored:
	// profiles taken by FiLiP or Illimani carry no pointers (docs/workloads.md).
	StoredIn []uint16
	// HeldBy states young→young references: per record, 0 when no object of the profile is
	// known to hold the record's objects, else 1 + the index of the record whose objects hold
	// them (a row Array holding its cells, a column Array its values), from the referent's
	// birth (or the holder's, if later) to the referent's death. It is what heapsim needs for
	// the scavenger's breadth-first copy order and for tenured holders in the remembered set
	// (docs/spur-model.md §3.1, §3.6). Nil when nothing is stated: FiLiP and Illimani exports
	// record no pointers (docs/filip.md), and specs state it only where a mix entry names a
	// holder (heldBy, docs/workloads.md).
	HeldBy []int32
	// PointerFree says, per class (indexed like ClassNames), that the class's instances hold
	// no object pointers (bytes or words: ByteString, Float, …), so marking does not scan
	// them (docs/spur-model.md §4.1). Nil means: decide by name with IsByteClassName.
	PointerFree []bool
	// SiteNames is the interned allocation-site table (sites.go); Site[i] indexes it. Site is
	// nil when the input names no site (docs/sites.md).
	SiteNames []string
	Site      []uint32
}

// ClassPointerFree reports whether class c's instances hold no pointers: from PointerFree
// when set, else from the class name (IsByteClassName).
func (p *Profile) ClassPointerFree(c uint32) bool {
	if p.PointerFree != nil {
		return p.PointerFree[c]
	}
	return IsByteClassName(p.ClassNames[c])
}

// Len is the number of records.
func (p *Profile) Len() int { return len(p.Birth) }

// AliveAtEnd reports whether record i was still alive when the run ended.
func (p *Profile) AliveAtEnd(i int) bool { return p.Flags[i]&FlagAliveAtEnd != 0 }

// Objects is the number of real objects the profile stands for (the sum of weights).
func (p *Profile) Objects() float64 {
	var n float64
	for _, w := range p.Weight {
		n += float64(w)
	}
	return n
}

// WeightedBytes is the number of bytes the records stand for: Σ weight × size.
func (p *Profile) WeightedBytes() float64 {
	var n float64
	for i, w := range p.Weight {
		n += float64(w) * float64(p.SizeBytes[i])
	}
	return n
}

// ClassName returns record i's class name.
func (p *Profile) ClassName(i int) string { return p.ClassNames[p.Class[i]] }

// Builder accumulates records and produces a sorted, validated Profile. The zero value is
// ready to use.
type Builder struct {
	p          Profile
	classIndex map[string]uint32
	siteIndex  map[string]uint32
}

// Grow reserves room for n more records.
func (b *Builder) Grow(n int) {
	b.p.Class = slices.Grow(b.p.Class, n)
	b.p.SizeBytes = slices.Grow(b.p.SizeBytes, n)
	b.p.Birth = slices.Grow(b.p.Birth, n)
	b.p.Death = slices.Grow(b.p.Death, n)
	b.p.Weight = slices.Grow(b.p.Weight, n)
	b.p.Flags = slices.Grow(b.p.Flags, n)
	if b.p.StoredIn != nil {
		b.p.StoredIn = slices.Grow(b.p.StoredIn, n)
	}
	if b.p.HeldBy != nil {
		b.p.HeldBy = slices.Grow(b.p.HeldBy, n)
	}
	if b.p.Site != nil {
		b.p.Site = slices.Grow(b.p.Site, n)
	}
}

// Class interns a class name and returns its index.
func (b *Builder) Class(name string) uint32 {
	if b.classIndex == nil {
		b.classIndex = make(map[string]uint32)
	}
	if i, ok := b.classIndex[name]; ok {
		return i
	}
	i := uint32(len(b.p.ClassNames))
	b.p.ClassNames = append(b.p.ClassNames, name)
	b.classIndex[name] = i
	return i
}

// Add appends one record and returns its index (before sorting: see Build).
func (b *Builder) Add(class uint32, sizeBytes uint32, birth, death uint64, weight uint32, flags uint8) int {
	b.p.Class = append(b.p.Class, class)
	b.p.SizeBytes = append(b.p.SizeBytes, sizeBytes)
	b.p.Birth = append(b.p.Birth, birth)
	b.p.Death = append(b.p.Death, death)
	b.p.Weight = append(b.p.Weight, weight)
	b.p.Flags = append(b.p.Flags, flags)
	if b.p.StoredIn != nil {
		b.p.StoredIn = append(b.p.StoredIn, 0)
	}
	if b.p.HeldBy != nil {
		b.p.HeldBy = append(b.p.HeldBy, 0)
	}
	if b.p.Site != nil {
		b.p.Site = append(b.p.Site, noSite)
	}
	return len(b.p.Birth) - 1
}

// AddStore registers a Store and returns the value StoredIn holds for records that use it.
func (b *Builder) AddStore(st Store) uint16 {
	b.p.Stores = append(b.p.Stores, st)
	return uint16(len(b.p.Stores))
}

// SetStoredIn sets record i's StoredIn value (from AddStore).
func (b *Builder) SetStoredIn(i int, v uint16) {
	if b.p.StoredIn == nil {
		b.p.StoredIn = make([]uint16, len(b.p.Birth), cap(b.p.Birth))
	}
	b.p.StoredIn[i] = v
}

// SetHeldBy states that record holder's objects hold record i's objects (both indices
// returned by Add): a young→young reference (Profile.HeldBy).
func (b *Builder) SetHeldBy(i, holder int) {
	if b.p.HeldBy == nil {
		b.p.HeldBy = make([]int32, len(b.p.Birth), cap(b.p.Birth))
	}
	b.p.HeldBy[i] = int32(holder) + 1
}

// SetSuccessor makes container next (an index into the containers added so far, or about to
// be added) take container c's references when c dies.
func (b *Builder) SetSuccessor(c, next int) { b.p.Containers[c].Successor = int32(next) + 1 }

// SetPointerFree records, per class index, which classes hold no pointers.
func (b *Builder) SetPointerFree(pointerFree []bool) { b.p.PointerFree = pointerFree }

// AddContainer records that record c.Record (an index returned by Add) is a container.
// It also sets FlagContainer on that record.
func (b *Builder) AddContainer(c Container) {
	if c.Record >= 0 && int(c.Record) < len(b.p.Flags) {
		b.p.Flags[c.Record] |= FlagContainer
	}
	b.p.Containers = append(b.p.Containers, c)
}

// Len is the number of records added so far.
func (b *Builder) Len() int { return len(b.p.Birth) }

// Lifetime returns record i's birth and death (i an index returned by Add) and whether it is
// flagged FlagAliveAtEnd.
func (b *Builder) Lifetime(i int) (birth, death uint64, aliveAtEnd bool) {
	return b.p.Birth[i], b.p.Death[i], b.p.Flags[i]&FlagAliveAtEnd != 0
}

// NumContainers is the number of containers added so far; the next AddContainer adds
// container NumContainers().
func (b *Builder) NumContainers() int { return len(b.p.Containers) }

// ContainerRecord returns the record (an index returned by Add) of container c.
func (b *Builder) ContainerRecord(c int) int { return int(b.p.Containers[c].Record) }

// NumStores is the number of stores added so far.
func (b *Builder) NumStores() int { return len(b.p.Stores) }

// Build sorts the records by birth (stably, so equal births keep insertion order), remaps the
// containers, sets meta, validates and returns the Profile. The Builder must not be used after.
func (b *Builder) Build(meta Meta) (*Profile, error) {
	b.resolveSites()
	p := &b.p
	p.Meta = meta
	n := p.Len()
	sorted := true
	for i := 1; i < n; i++ {
		if p.Birth[i] < p.Birth[i-1] {
			sorted = false
			break
		}
	}
	if !sorted {
		perm := make([]int32, n)
		for i := range perm {
			perm[i] = int32(i)
		}
		slices.SortStableFunc(perm, func(a, c int32) int {
			switch {
			case p.Birth[a] < p.Birth[c]:
				return -1
			case p.Birth[a] > p.Birth[c]:
				return 1
			}
			return 0
		})
		p.Class = permute(p.Class, perm)
		p.SizeBytes = permute(p.SizeBytes, perm)
		p.Birth = permute(p.Birth, perm)
		p.Death = permute(p.Death, perm)
		p.Weight = permute(p.Weight, perm)
		p.Flags = permute(p.Flags, perm)
		if p.StoredIn != nil {
			p.StoredIn = permute(p.StoredIn, perm)
		}
		if p.Site != nil {
			p.Site = permute(p.Site, perm)
		}
		inv := make([]int32, n)
		for newIdx, oldIdx := range perm {
			inv[oldIdx] = int32(newIdx)
		}
		if p.HeldBy != nil {
			p.HeldBy = permute(p.HeldBy, perm)
			for i, h := range p.HeldBy {
				if h > 0 && int(h) <= n {
					p.HeldBy[i] = inv[h-1] + 1
				}
			}
		}
		for i := range p.Containers {
			if r := p.Containers[i].Record; r >= 0 && int(r) < n {
				p.Containers[i].Record = inv[r]
			}
		}
	}
	if p.Meta.TotalAllocatedBytes == 0 {
		p.Meta.TotalAllocatedBytes = uint64(p.WeightedBytes())
	}
	if p.Meta.SamplingRate == 0 {
		p.Meta.SamplingRate = 1
	}
	out := *p
	b.p = Profile{}
	b.classIndex, b.siteIndex = nil, nil
	if err := out.Validate(); err != nil {
		return nil, err
	}
	out.SetPointerFreeFlags()
	return &out, nil
}

func permute[T any](s []T, perm []int32) []T {
	out := make([]T, len(s))
	for i, j := range perm {
		out[i] = s[j]
	}
	return out
}

// Validate checks the invariants every consumer relies on: parallel slices of equal length,
// records sorted by birth, birth ≤ death ≤ end, positive sizes and weights, valid class and
// container indices, a finite positive sampling rate.
func (p *Profile) Validate() error {
	n := p.Len()
	// In a fixed order, so that the column reported first does not depend on map order.
	for _, c := range []struct {
		name string
		l    int
	}{{"class", len(p.Class)}, {"size", len(p.SizeBytes)}, {"death", len(p.Death)},
		{"weight", len(p.Weight)}, {"flags", len(p.Flags)}} {
		if c.l != n {
			return fmt.Errorf("%w: %s column has %d entries, birth has %d", ErrInvalidProfile, c.name, c.l, n)
		}
	}
	if math.IsNaN(p.Meta.SamplingRate) || math.IsInf(p.Meta.SamplingRate, 0) || p.Meta.SamplingRate <= 0 || p.Meta.SamplingRate > 1 {
		return fmt.Errorf("%w: sampling rate %v is not in (0, 1]", ErrInvalidProfile, p.Meta.SamplingRate)
	}
	end := p.Meta.EndBytes
	for i := 0; i < n; i++ {
		switch {
		case i > 0 && p.Birth[i] < p.Birth[i-1]:
			return fmt.Errorf("%w: record %d is born at %d, before record %d (%d): records must be sorted by birth", ErrInvalidProfile, i, p.Birth[i], i-1, p.Birth[i-1])
		case p.Death[i] < p.Birth[i]:
			return fmt.Errorf("%w: record %d dies at %d, before its birth at %d", ErrInvalidProfile, i, p.Death[i], p.Birth[i])
		case p.Death[i] > end:
			return fmt.Errorf("%w: record %d dies at %d, after the end of the run (%d)", ErrInvalidProfile, i, p.Death[i], end)
		case p.SizeBytes[i] == 0:
			return fmt.Errorf("%w: record %d has size 0", ErrInvalidProfile, i)
		case p.Weight[i] == 0:
			return fmt.Errorf("%w: record %d has weight 0", ErrInvalidProfile, i)
		case int(p.Class[i]) >= len(p.ClassNames):
			return fmt.Errorf("%w: record %d has class index %d, table has %d", ErrInvalidProfile, i, p.Class[i], len(p.ClassNames))
		}
	}
	for i, c := range p.Containers {
		if c.Record < 0 || int(c.Record) >= n {
			return fmt.Errorf("%w: container %d names record %d of %d", ErrInvalidProfile, i, c.Record, n)
		}
		if c.StoresUntilBytes < c.StoresFromBytes {
			return fmt.Errorf("%w: container %d stops receiving stores (%d) before it starts (%d)", ErrInvalidProfile, i, c.StoresUntilBytes, c.StoresFromBytes)
		}
		if c.Successor < 0 || int(c.Successor) > len(p.Containers) || int(c.Successor) == i+1 {
			return fmt.Errorf("%w: container %d has successor %d of %d", ErrInvalidProfile, i, int(c.Successor)-1, len(p.Containers))
		}
		if !(c.ImmediateFraction >= 0 && c.ImmediateFraction <= 1) {
			return fmt.Errorf("%w: container %d has immediate fraction %v, not in [0, 1]", ErrInvalidProfile, i, c.ImmediateFraction)
		}
	}
	if err := p.validateStores(); err != nil {
		return err
	}
	if err := p.validateHeldBy(); err != nil {
		return err
	}
	if err := p.validateSites(); err != nil {
		return err
	}
	if p.PointerFree != nil && len(p.PointerFree) != len(p.ClassNames) {
		return fmt.Errorf("%w: pointer-free table has %d entries, class table has %d", ErrInvalidProfile, len(p.PointerFree), len(p.ClassNames))
	}
	return nil
}

// validateStores checks the Stores table and the StoredIn column.
func (p *Profile) validateStores() error {
	if len(p.Stores) > math.MaxUint16 {
		return fmt.Errorf("%w: %d stores, at most %d", ErrInvalidProfile, len(p.Stores), math.MaxUint16)
	}
	for i, st := range p.Stores {
		if st.Container < 0 || int(st.Container) >= len(p.Containers) {
			return fmt.Errorf("%w: store %d names container %d of %d", ErrInvalidProfile, i, st.Container, len(p.Containers))
		}
		if !(st.FromFraction >= 0 && st.ForFraction >= 0 && st.FromFraction+st.ForFraction <= 1+1e-6) {
			return fmt.Errorf("%w: store %d covers [%v, %v+%v] of its referents' lives, not within [0, 1]", ErrInvalidProfile, i, st.FromFraction, st.FromFraction, st.ForFraction)
		}
	}
	if p.StoredIn == nil {
		return nil
	}
	if len(p.StoredIn) != p.Len() {
		return fmt.Errorf("%w: stored-in column has %d entries, birth has %d", ErrInvalidProfile, len(p.StoredIn), p.Len())
	}
	for i, v := range p.StoredIn {
		if int(v) > len(p.Stores) {
			return fmt.Errorf("%w: record %d names store %d of %d", ErrInvalidProfile, i, int(v)-1, len(p.Stores))
		}
	}
	return nil
}

// validateHeldBy checks the HeldBy column: one entry per record, each naming another record.
func (p *Profile) validateHeldBy() error {
	if p.HeldBy == nil {
		return nil
	}
	if len(p.HeldBy) != p.Len() {
		return fmt.Errorf("%w: held-by column has %d entries, birth has %d", ErrInvalidProfile, len(p.HeldBy), p.Len())
	}
	for i, h := range p.HeldBy {
		if h < 0 || int(h) > p.Len() || int(h) == i+1 {
			return fmt.Errorf("%w: record %d is held by record %d of %d", ErrInvalidProfile, i, int(h)-1, p.Len())
		}
	}
	return nil
}
