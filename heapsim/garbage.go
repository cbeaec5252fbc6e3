package heapsim

import (
	"fmt"
	"math"
	"sort"

	"github.com/gctune/gctune/profile"
)

// validateGarbage checks Options.Garbage: in AtBytes order, each fraction finite and in [0, 64].
func validateGarbage(g []Garbage) error {
	for k, b := range g {
		if math.IsNaN(b.EdenFraction) || b.EdenFraction < 0 || b.EdenFraction > 64 {
			return fmt.Errorf("%w: garbage %d: eden fraction %v is not in [0, 64]", ErrInvalidParams, k, b.EdenFraction)
		}
		if k > 0 && b.AtBytes < g[k-1].AtBytes {
			return fmt.Errorf("%w: garbage %d: at %d bytes, before the burst ahead of it (%d)", ErrInvalidParams, k, b.AtBytes, g[k-1].AtBytes)
		}
	}
	return nil
}

// planGarbage finds, for each burst, the first record born at or after it: the burst is
// allocated just before that record. Bursts after the last record are dropped (the run is
// over).
func (s *sim) planGarbage(g []Garbage) {
	births := s.p.Birth
	s.garbage, s.garbageRec = g, make([]int, len(g))
	for k, b := range g {
		s.garbageRec[k] = sort.Search(len(births), func(i int) bool { return births[i] >= b.AtBytes })
	}
	s.nextGarbage = 0
	s.garbageAt = s.garbageIndex()
}

// garbageIndex is the record index of the next burst, or −1 when none is left.
func (s *sim) garbageIndex() int {
	if s.nextGarbage < len(s.garbage) && s.garbageRec[s.nextGarbage] < len(s.p.Birth) {
		return s.garbageRec[s.nextGarbage]
	}
	return -1
}

// allocateGarbage allocates the next burst just before record i: young objects that are dead
// by the next scavenge. They fill eden to the threshold as often as their bytes take, each
// time scheduling a scavenge (rule 4), which finds them dead: only the records already in eden
// are visited. Simplification (docs/simulator.md): the burst is one block, not objects, so the
// object that would cross the threshold is not placed in old space.
func (s *sim) allocateGarbage(i int) error {
	b := s.garbage[s.nextGarbage]
	s.nextGarbage++
	s.garbageAt = s.garbageIndex()
	bytes := b.Bytes + uint64(b.EdenFraction*float64(s.thresholdB))
	if bytes == 0 {
		return nil
	}
	s.st.AllocatedBytes += bytes
	s.st.GarbageBytes += bytes
	if n := s.p.Len(); n > 0 && s.p.Meta.EndBytes > 0 {
		// Objects at the profile's mean object size (bytes allocated over records' objects).
		s.st.AllocatedObjects += float64(bytes) * s.meanObjectsPerByte()
	}
	for bytes > 0 {
		room := s.thresholdB - s.edenUsed
		if bytes <= room {
			s.edenUsed += bytes
			return nil
		}
		bytes -= room
		s.edenUsed = s.thresholdB
		// The records in eden end with record i−1, whole: record i is not allocated yet.
		s.now = s.p.Birth[i]
		s.cur = i
		s.curEdenN = 0
		if err := s.scheduledScavenge(); err != nil {
			return err
		}
	}
	return nil
}

// meanObjectsPerByte is the profile's objects per byte allocated (GarbageRate), computed once
// per run unless Options.GarbageObjectsPerByte gave it.
func (s *sim) meanObjectsPerByte() float64 {
	if s.objectsPerByte == 0 {
		s.objectsPerByte = s.pp.GarbageRate(Options{SizeScale: s.scale, SizeSeed: s.sizeSeed})
	}
	return s.objectsPerByte
}

// GarbageRate is profile's objects per byte allocated (weighted records): how many objects a
// garbage burst of one byte stands for (Options.GarbageObjectsPerByte). 0 for an empty
// profile.
func GarbageRate(p *profile.Profile) float64 {
	var objects, bytes float64
	for r, w := range p.Weight {
		objects += float64(w)
		bytes += float64(w) * float64(p.SizeBytes[r])
	}
	if bytes == 0 {
		return 0
	}
	return objects / bytes
}
