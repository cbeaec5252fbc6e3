package filip

import (
	"math"

	"github.com/gctune/gctune/profile"
)

// storeAssumer applies HypothesisStored while Rebuild adds the rebuilt records in birth order.
// A FiLiP export records no pointers, so nothing says which old objects hold young ones; this
// is the pessimistic guess that matters for the remembered set (docs/spur-model.md §3.6,
// docs/sampling.md): every long-lived large object that may hold pointers is a container, and
// every long-lived small object is stored into the newest such container at its birth and
// stays referenced from it until the end, as a DataFrame load stores each converted value into
// the column array being filled. The containers have no window of unlisted stores: they enter
// the remembered set through the stores alone, as the write barrier adds them.
//
// Simplification: one container at a time receives every store, and a referent is stored from
// its birth. A program that stores into several old collections at once, or long after the
// referent's birth, keeps more (or other) containers in the remembered set; this guess is one
// point of the range the search weighs beside the estimate, not the truth.
type storeAssumer struct {
	b   *profile.Builder
	rep *RebuildReport
	// on is false when the hypothesis is not HypothesisStored, or when the export's sampled
	// large objects are all of byte classes (evidence that the program's large objects hold
	// no pointers).
	on bool
	// current is the StoredIn value of the newest container's Store; 0 before the first.
	current uint16
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

// container makes record (added, born at birth) the container that receives the stores from
// now on. Past math.MaxUint16 containers (the limit of the StoredIn column) the last one keeps
// receiving them.
func (s *storeAssumer) container(record int, birth uint64) {
	if !s.on || s.b.NumStores() >= math.MaxUint16 {
		return
	}
	ci := int32(s.b.NumContainers())
	s.b.AddContainer(profile.Container{Record: int32(record), StoresFromBytes: birth, StoresUntilBytes: birth})
	s.current = s.b.AddStore(profile.Store{Container: ci, ForFraction: 1})
	s.rep.Containers++
}

// store stores record (a long-lived small record of the given weight) into the newest
// container, if there is one yet.
func (s *storeAssumer) store(record int, weight uint32) {
	if s.current == 0 {
		return
	}
	s.b.SetStoredIn(record, s.current)
	s.rep.StoredRecords++
	s.rep.StoredObjects += float64(weight)
}
