package heapsim

import (
	"errors"
	"math/bits"

	"github.com/gctune/gctune/profile"
)

// Prepared is a profile with what heapsim derives from it once, whatever the parameters: the
// index of the records that hold others (youngrefs.go) and each store's kind. A caller that
// runs many simulations of one profile (a search, a replica set) prepares it once and runs
// each simulation with Prepared.Run; Simulate and Run prepare it for their one run.
//
// A Prepared is read-only after Prepare: safe to run from many goroutines at once. It holds
// about 1.5 bits per record (the holder index, only when the profile states young→young
// references) and refers to the profile's columns without copying them.
type Prepared struct {
	p *profile.Profile
	// holders indexes the records that hold others; nil when the profile states no
	// young→young reference.
	holders *holderTable
	// stores[k] is what a scavenge reads of store k for each referent (referent): its
	// container and whether it lasts from its referent's birth to its death.
	stores []storeInfo
	// chain[c] is the last container of container c's successor chain, storeChain[k] that
	// of store k's container (locality.go); both nil when the profile lists no container,
	// storeChain also when it lists no referent.
	chain, storeChain []int32
}

// storeInfo is a store (profile.Store) as the scavenge reads it for each referent, in 8
// bytes: its container, and life, set when the store lasts from its referent's birth to its
// death (the commonest store: its window needs no arithmetic).
type storeInfo struct {
	container int32
	life      bool
}

// holderTable is the index of the records that hold others (Profile.HeldBy): bit r of
// isHolder is set when record r holds others, and a holder's index is its rank among them,
// the bits set before it: rankBase[w] counts those in the words below w, so holderIndex is a
// table read and a popcount, with no map.
type holderTable struct {
	isHolder []uint64
	rankBase []int32
	rec      []int32 // holder index → record
}

// Prepare derives from p what every simulation of it needs. p must not change afterwards.
func Prepare(p *profile.Profile) (*Prepared, error) {
	if p == nil {
		return nil, errors.New("heapsim: nil profile")
	}
	pp := &Prepared{p: p, holders: newHolderTable(p)}
	pp.stores = make([]storeInfo, len(p.Stores))
	for k, st := range p.Stores {
		pp.stores[k] = storeInfo{
			container: st.Container,
			life:      st.FromFraction == 0 && st.ForFraction >= 1 && st.AtBytes == 0,
		}
	}
	pp.chain, pp.storeChain = containerChains(p)
	return pp, nil
}

// Profile returns the profile p was prepared from.
func (pp *Prepared) Profile() *profile.Profile { return pp.p }

// Run simulates the prepared profile as Run does.
func (pp *Prepared) Run(params Params, cost Cost, opts Options) (Stats, error) {
	if pp == nil || pp.p == nil {
		return Stats{}, errors.New("heapsim: nil profile")
	}
	if err := params.Validate(); err != nil {
		return Stats{}, err
	}
	if err := cost.Validate(); err != nil {
		return Stats{}, err
	}
	if err := validateGarbage(opts.Garbage); err != nil {
		return Stats{}, err
	}
	if err := validateSizes(opts); err != nil {
		return Stats{}, err
	}
	s := newSim(pp, params, cost, opts)
	err := s.run()
	s.finish()
	return s.st, err
}

// newHolderTable indexes p's holders, nil when p states no young→young reference.
func newHolderTable(p *profile.Profile) *holderTable {
	if p.HeldBy == nil {
		return nil
	}
	t := &holderTable{isHolder: make([]uint64, (len(p.HeldBy)+63)/64)}
	for _, h := range p.HeldBy {
		if h != 0 {
			t.isHolder[(h-1)>>6] |= 1 << ((h - 1) & 63)
		}
	}
	t.rankBase = make([]int32, len(t.isHolder))
	n := 0
	for w, word := range t.isHolder {
		t.rankBase[w] = int32(n)
		n += bits.OnesCount64(word)
	}
	if n == 0 {
		return nil
	}
	t.rec = make([]int32, 0, n)
	for w, word := range t.isHolder {
		for ; word != 0; word &= word - 1 {
			t.rec = append(t.rec, int32(w<<6+bits.TrailingZeros64(word)))
		}
	}
	return t
}

// index returns record r's holder index, r being a holder.
func (t *holderTable) index(r int32) int32 {
	w := r >> 6
	return t.rankBase[w] + int32(bits.OnesCount64(t.isHolder[w]&(1<<(r&63)-1)))
}
