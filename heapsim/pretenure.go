package heapsim

import (
	"fmt"
	"slices"

	"github.com/gctune/gctune/profile"
)

// Pretenuring by allocation site: what the application gets when it allocates the objects of
// chosen sites with Behavior>>basicNewTenured (basicNewTenured:, newTenured), as FiLiP itself
// does for its ephemerons. Read in the VM (pharo-project/pharo-vm, smalltalksrc/VMMaker):
//
//   - The primitives are 596 (InterpreterPrimitives>>primitiveNewOldSpace) and 597
//     (primitiveNewWithArgOldSpace). Both call SpurMemoryManager>>instantiateClass:
//     indexableSize:isPinned:isOldSpace: with isOldSpace true, which skips eden
//     (allocateSlots:format:classIndex:isPinned:isOldSpace: tests `isPinned or: [isOldSpace]`)
//     and calls allocateSlotsInOldSpace:bytes:format:classIndex:, that is
//     allocateOldSpaceChunkOfBytes:, the free lists. The object never enters eden: it moves
//     no scavenge and is never copied.
//   - The primitive neither collects nor grows ("This *will not* cause a GC"): when no free
//     chunk fits, allocateOldSpaceChunkOfBytes: answers nil and the primitive fails with
//     PrimErrNoMemory. The image then recovers as it does for basicNew's failure
//     (Behavior>>handleFailingBasicNew: a full GC, growth by at least the request, a retry):
//     heapsim applies the protocol allocateLarge applies (§2.3). That the image's handler for
//     basicNewTenured is basicNew's is an assumption: the image's code is not in the VM's
//     repository.
//   - Growth and the full-GC ratio. The bytes land in old space, so the after-scavenge policy
//     (SpurMemoryManager>>sufficientSpaceAfterGC:, heapGrowthToSizeGCRatio, rule 9) counts them: old space used
//     grows by every pretenured byte until a full GC finds them dead. Pretenuring objects that
//     die young therefore costs full GCs that the scavenger would have spared: the trade-off
//     the scenario tests show (TestPretenureShortLivedCostsFullGCs).
//   - Remembered set. An old object that receives a young one is remembered by the write
//     barrier (SpurMemoryManager>>storePointer:ofObject:withValue: → possibleOldObjectStoreInto:):
//     a pretenured container or holder (Profile.Containers, Profile.HeldBy) joins the set at
//     its first young store and is scanned at every scavenge while it holds young objects,
//     as a tenured one is (remembered.go, youngrefs.go: addOld notes it old).
//
// Objects over the 65,535-slot limit go to old space whatever their site: pretenuring them
// changes nothing.

// Pretenured returns a view of p in which the records of the given sites (indices into
// p.SiteNames) are allocated straight into old space, as basicNewTenured does: their flags
// gain FlagOldSpace and FlagPretenured. The view shares every column of p but Flags (one
// byte a record); p is not changed. It fails when p names no sites or an index is out of
// range.
func Pretenured(p *profile.Profile, sites []uint32) (*profile.Profile, error) {
	if p.Site == nil {
		return nil, fmt.Errorf("heapsim: pretenure: the profile %s names no allocation sites", p.Meta.Source)
	}
	mark := make([]bool, len(p.SiteNames))
	for _, s := range sites {
		if int(s) >= len(mark) {
			return nil, fmt.Errorf("heapsim: pretenure: site index %d, the profile has %d sites", s, len(mark))
		}
		mark[s] = true
	}
	q := *p
	q.Flags = slices.Clone(p.Flags)
	for i, s := range p.Site {
		if mark[s] {
			q.Flags[i] |= profile.FlagOldSpace | profile.FlagPretenured
		}
	}
	return &q, nil
}

// allocatePretenured places the w objects of record r (size bytes each, within new space's
// object limit) straight in old space: the free lists first, and when they cannot take them
// the image's protocol (a full GC, then growth by at least the request, §2.3), as
// allocateLarge does for one large object. They are counted as direct old-space allocations
// and enter the death calendar as untenured objects.
func (s *sim) allocatePretenured(r int, size uint64, w uint32) error {
	need := uint64(w) * size
	ok := s.fitOld(r, size, w, false)
	if !ok {
		if err := s.fullGC(CauseLargeAlloc, need); err != nil {
			return err
		}
		if ok = s.fitOld(r, size, w, false); !ok {
			s.grow(need)
			ok = s.fitOld(r, size, w, false)
		}
	}
	if !ok {
		return fmt.Errorf("%w: pretenuring %d bytes at clock %d (max old space %d bytes)", ErrOutOfMemory, need, s.now, s.params.MaxOldSpaceBytes)
	}
	s.st.DirectOldObjects += float64(w)
	s.st.DirectOldBytes += need
	return nil
}
