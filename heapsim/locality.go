package heapsim

import "github.com/gctune/gctune/profile"

// Where a remembered container's referents lie, and what its scan costs for it (issue 30,
// docs/spur-model.md §3.6, docs/calibration.md "The remembered set's slot price, measured").
//
// SpurGenerationScavenger>>scavengeReferentsOf: reads the header of every non-immediate
// referent (isForwarded:) before it compares its address with new space. What that read costs
// depends on where the referents lie. Objects tenured together are adjacent in old space:
// copyToOldSpace:bytes:format: takes each from the free space in copy order, the copy order
// of one scavenge follows the holders' slot order (scavengeRememberedSetStartingAt:, then
// breadth-first, scavengeFutureSurvivorSpaceStartingAt:), and the compactor slides objects
// down without reordering them (SpurPlanningCompactor). So a container whose referents were
// stored in allocation order (the Array2D's cells, the rows collection's rows) reads its
// referents' headers as a stream, at a stride of the referents' size, and only where one
// tenuring batch ends and the next begins does a slot jump like a scattered one.
//
// heapsim records, for each chain of containers (a container and the successors that take
// its references), how many batches its referents went to old space in (a scavenge's
// tenures, or one allocation straight into old space) and their mean size. A scan then
// prices the slots of a container:
//
//   - the slots naming young referents (those that stay young after the scavenge) and one
//     slot per batch: RSPointerSlotSeconds, the scattered price;
//   - the other slots naming its referents: RSInOrderSlotSeconds × the stride factor of the
//     referents' mean size (rsInOrderStrideFactor), at most the scattered price;
//   - the slots beyond its referents (nil, whose header stays in cache): RSInOrderSlotSeconds;
//   - immediate slots: RSImmediateSlotSeconds.
//
// Simplifications: a referent that dies keeps its slot priced as if it were there; referents
// tenured in one batch are taken to be contiguous and in slot order, whatever else the batch
// tenured between them (the DataFrame's copy order tenures rows and cells in separate runs,
// docs/spur-model.md §3.1); the holders of stated young→young references (youngrefs.go),
// rows whose cells are young, are priced at the scattered price.
type rsLocality struct {
	// chain[c] is the last container of c's successor chain: the key of the tallies below
	// (Prepared.chain, shared by every run of the profile).
	chain []int32
	// storeChain[k] is the key of store k's container's chain (Prepared.storeChain); nil when
	// the profile lists no referent or no container, so that addOld tests one slice.
	storeChain []int32
	// tally[k] counts chain k's referents that went to old space: one struct, so that a
	// tenured referent's bookkeeping touches one cache line.
	tally []chainTally
	// inOrderSlots and inOrderSeconds are the last endScavenge's slots priced in order (or
	// as nil) and their price; the other pointer slots take the scattered price.
	inOrderSlots   uint64
	inOrderSeconds float64
}

// chainTally is what went to old space of one chain's referents.
type chainTally struct {
	// lastBatch is 1 + the key of the batch that last sent a referent of the chain to old
	// space (2 × clock + 1 for a scavenge's tenures, 2 × clock for an allocation there).
	lastBatch uint64
	// objects and bytes count the referents, batches the batches they went in.
	objects, bytes float64
	batches        uint32
}

// containerChains returns, for each of p's containers, the last container of its successor
// chain, and for each store the chain of its container (nil when p lists no referent).
func containerChains(p *profile.Profile) (chain, storeChain []int32) {
	n := len(p.Containers)
	if n == 0 {
		return nil, nil
	}
	chain = make([]int32, n)
	for i := range p.Containers {
		c := int32(i)
		for steps := 0; p.Containers[c].Successor > 0 && steps < n; steps++ {
			c = p.Containers[c].Successor - 1
		}
		chain[i] = c
	}
	if p.StoredIn != nil {
		storeChain = make([]int32, len(p.Stores))
		for k, st := range p.Stores {
			storeChain[k] = chain[st.Container]
		}
	}
	return chain, storeChain
}

// initLocality sizes the tallies for the profile's containers.
func (rs *rememberedSet) initLocality(pp *Prepared) {
	l := &rs.loc
	l.chain, l.storeChain = pp.chain, pp.storeChain
	l.tally = make([]chainTally, len(pp.chain))
}

// noteReferentOld records n objects of record r, a referent of store k (Profile.StoredIn − 1),
// entering old space: tenured by the scavenge under way (tenured), or allocated there. It
// allocates nothing; addOld calls it when storeChain is not nil and r names a store.
func (s *sim) noteReferentOld(k uint16, r int, n uint32, tenured bool) {
	t := &s.rs.loc.tally[s.rs.loc.storeChain[k]]
	batch := 2*s.now + 1
	if tenured {
		batch++
	}
	if t.lastBatch != batch {
		t.lastBatch = batch
		t.batches++
	}
	t.objects += float64(n)
	t.bytes += float64(n) * float64(s.p.SizeBytes[r])
}

// priceScan adds to the last endScavenge's tallies the pointer slots of container c's n
// objects (ptr slots in all), of which young name referents that stay young.
func (s *sim) priceScan(c int32, ptr, young uint64) {
	l := &s.rs.loc
	if len(l.chain) == 0 {
		return
	}
	t := &l.tally[l.chain[c]]
	young = min(young, ptr)
	named := min(ptr, young+uint64(t.objects))
	jumps := min(named-young, uint64(t.batches))
	inOrder := named - young - jumps
	nilSlots := ptr - named
	price := s.cost.RSInOrderSlotSeconds
	if inOrder > 0 {
		price = min(s.cost.RSInOrderSlotSeconds*rsInOrderStrideFactor(t.bytes/t.objects), s.cost.RSPointerSlotSeconds)
	}
	l.inOrderSlots += inOrder + nilSlots
	l.inOrderSeconds += float64(inOrder)*price + float64(nilSlots)*s.cost.RSInOrderSlotSeconds
}

// rsScanSeconds is the price of scanning the remembered set's pointer and immediate slots at
// the scavenge under way: the slots the last endScavenge priced by locality at their price,
// the other pointer slots at the scattered price.
func (s *sim) rsScanSeconds(pointerSlots, immediateSlots uint64) float64 {
	l := &s.rs.loc
	inOrder := min(l.inOrderSlots, pointerSlots)
	return float64(pointerSlots-inOrder)*s.cost.RSPointerSlotSeconds + l.inOrderSeconds +
		float64(immediateSlots)*s.cost.RSImmediateSlotSeconds
}

// rsInOrderStride and rsInOrderNanos are BenchmarkRSScan's in-order layouts
// (heapsim/rsscan_bench_test.go): the price of a slot whose referent follows the previous
// slot's at this stride (bytes), the least of repeated runs on this machine (2 shared cores,
// docs/calibration.md). Past 64 bytes every header is on its own cache line, and past 96 the
// prefetcher keeps up less and less.
var (
	rsInOrderStride = [...]float64{32, 64, 96, 128, 256}
	rsInOrderNanos  = [...]float64{1.95, 3.67, 8.28, 16.6, 16.6}
)

// rsInOrderStrideFactor is how many times a 32-byte stride's price an in-order slot costs at
// the given stride: interpolated between the measured strides, 1 below 32 bytes (two or more
// headers a cache line), the 256-byte value above.
func rsInOrderStrideFactor(stride float64) float64 {
	xs, ys := rsInOrderStride[:], rsInOrderNanos[:]
	if stride <= xs[0] {
		return 1
	}
	for i := 1; i < len(xs); i++ {
		if stride <= xs[i] {
			f := (stride - xs[i-1]) / (xs[i] - xs[i-1])
			return (ys[i-1] + f*(ys[i]-ys[i-1])) / ys[0]
		}
	}
	return ys[len(ys)-1] / ys[0]
}
