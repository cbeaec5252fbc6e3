package filip

import (
	"math"

	"github.com/gctune/gctune/profile"
)

// storeAssumer applies HypothesisStored while Rebuild adds the rebuilt records in birth order.
// A FiLiP export records no pointers, so nothing says which old objects hold young ones; this
// is the pessimistic guess that matters for the remembered set (docs/spur-model.md §3.6,
// docs/sampling.md). Every long-lived large object that may hold pointers is a container, and
// every long-lived small object is referenced until the end from the one of two containers
// with more slots to scan (the earlier on a tie):
//
//   - the newest container born before it, from its own birth: a column array being filled as
//     converted values arrive, a growing collection's current array;
//   - the largest container born after it, from that container's birth: a table built from
//     the objects made before it, as DataFrame's withRows: copies every cell read into one
//     Array2D. An old container holding such an object while the object is still young (kept
//     in the survivor space) is scanned at every scavenge until the object is tenured.
//
// The containers have no window of unlisted stores: they enter the remembered set through the
// stores alone, as the write barrier adds them. Rebuild keeps an inferred window's bytes one
// object under this hypothesis (inferredCount): one large container is the most slots the
// clock allows.
//
// Simplification: one container holds each referent, from one moment on. A program that
// stores an object into several old collections keeps more containers in the remembered set;
// this guess is one point of the range the search weighs beside the estimate, not the truth.
type storeAssumer struct {
	b   *profile.Builder
	rep *RebuildReport
	// on is false when the hypothesis is not HypothesisStored, or when the export's sampled
	// large objects are all of byte classes (evidence that the program's large objects hold
	// no pointers).
	on bool
	// containers are the containers made so far, in birth order.
	containers []assumedContainer
	// pending are the long-lived small records, in birth order, each with the newest
	// container born before it; finish stores them.
	pending []pendingStore
}

// assumedContainer is a container storeAssumer made: its index in the profile's containers,
// its birth and size, and the StoredIn values of its two stores (0 until first used).
type assumedContainer struct {
	index     int32
	birth     uint64
	sizeBytes uint32
	// fromBirth stores its referents at their own birth; atBirth at the container's.
	fromBirth, atBirth uint16
}

// pendingStore is a long-lived small record waiting for finish.
type pendingStore struct {
	record int
	weight uint32
	// before indexes storeAssumer.containers: the newest container born before the record, −1
	// for none.
	before int
}

// newStoreAssumer returns the assumer for hypothesis h over the sampled profile p, whose
// large records are sampledLarge.
func newStoreAssumer(b *profile.Builder, rep *RebuildReport, h Hypothesis, p *profile.Profile, sampledLarge []int) *storeAssumer {
	on := h == HypothesisStored
	if on && len(sampledLarge) > 0 {
		on = false
		for _, i := range sampledLarge {
			if !p.ClassPointerFree(p.Class[i]) {
				on = true
				break
			}
		}
	}
	return &storeAssumer{b: b, rep: rep, on: on}
}

// container makes record (added, born at birth, of sizeBytes) a container.
func (s *storeAssumer) container(record int, birth uint64, sizeBytes uint32) {
	if !s.on {
		return
	}
	ci := int32(s.b.NumContainers())
	s.b.AddContainer(profile.Container{Record: int32(record), StoresFromBytes: birth, StoresUntilBytes: birth})
	s.containers = append(s.containers, assumedContainer{index: ci, birth: birth, sizeBytes: sizeBytes})
	s.rep.Containers++
}

// store notes record, a long-lived small record of the given weight added after every
// container born before it, for finish.
func (s *storeAssumer) store(record int, weight uint32) {
	if !s.on {
		return
	}
	s.pending = append(s.pending, pendingStore{record: record, weight: weight, before: len(s.containers) - 1})
}

// finish stores every pending record (see storeAssumer), once all containers are known.
// Past math.MaxUint16 stores (the limit of the StoredIn column) a record whose store would be
// new is stored nowhere.
func (s *storeAssumer) finish() {
	// largestFrom[j] is the largest container from j on, the earliest of equals.
	largestFrom := make([]int, len(s.containers))
	for j := len(s.containers) - 1; j >= 0; j-- {
		largestFrom[j] = j
		if j+1 < len(s.containers) && s.containers[largestFrom[j+1]].sizeBytes > s.containers[j].sizeBytes {
			largestFrom[j] = largestFrom[j+1]
		}
	}
	for _, ps := range s.pending {
		var c *assumedContainer
		v, st := (*uint16)(nil), profile.Store{}
		if ps.before >= 0 {
			c = &s.containers[ps.before]
			v, st = &c.fromBirth, profile.Store{Container: c.index, ForFraction: 1}
		}
		if next := ps.before + 1; next < len(s.containers) {
			if n := &s.containers[largestFrom[next]]; c == nil || n.sizeBytes > c.sizeBytes {
				c = n
				v, st = &n.atBirth, profile.Store{Container: n.index, AtBytes: max(n.birth, 1)}
			}
		}
		if c == nil {
			continue
		}
		if *v == 0 {
			if s.b.NumStores() >= math.MaxUint16 {
				continue
			}
			*v = s.b.AddStore(st)
		}
		s.b.SetStoredIn(ps.record, *v)
		s.rep.StoredRecords++
		s.rep.StoredObjects += float64(ps.weight)
	}
	s.pending = nil
}
