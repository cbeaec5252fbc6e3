package heapsim

// ObjectHeaderBytes is the 8-byte base header every Spur object has (docs/spur-model.md §2.1):
// what the pointer-update pass reads of an object it does not rewrite.
const ObjectHeaderBytes = 8

// compactSeconds prices one planning compaction (docs/spur-model.md §4.3, rule 10):
//
//   - the plan and copy passes sweep the region from the lowest free chunk in address order
//     (SpurPlanningCompactor>>compact starts at firstFreeObject) to the top: scanned bytes each;
//   - the pointer-update pass, run only when something moves, visits every object of the heap,
//     below the first free chunk too (updatePointersInInitialImmobileObjects, then
//     updatePointersInMobileObjects), and rewrites the slots of its pointer objects: it reads
//     each object's header and each pointer slot; a byte object's body is skipped
//     (updatePointersIn: walks numPointerSlotsOf:, 0 for a byte object);
//   - the copy moves moved bytes down.
//
// Simplification (named in docs/spur-model.md §4.3 and docs/simulator.md): the update pass is
// priced per byte read, as header bytes plus pointer-slot bytes at the scan coefficient, over
// the live old objects after the inner scavenge (heapsim does not keep the dead ones, whose
// headers the pass also reads as free chunks). Perm space is not marked (markLoopFrom: skips
// a field that isPermanent:) and lies outside old space's segments, so is not compacted:
// heapsim's image is old space, as in the Pharo 11 images the published runs used, which have
// no perm space.
func (s *sim) compactSeconds(scanned, moved float64) float64 {
	passes := s.cost.CompactPasses
	if moved <= 0 {
		// Nothing moves: the plan pass finds every object in place and the sweep frees the
		// dead; no pointer needs updating.
		return passes * scanned * s.cost.CompactScanSecondsPerByte
	}
	objects := s.immortalObjects + s.mortalObjects
	updateBytes := objects*ObjectHeaderBytes + s.pointerSlots*8
	return ((passes-1)*scanned+updateBytes)*s.cost.CompactScanSecondsPerByte + moved*s.cost.CompactMoveSecondsPerByte
}
