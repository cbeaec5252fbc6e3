package filip

import (
	"fmt"
	"math"
	"slices"

	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/profile"
)

// Hypothesis is what Rebuild assumes about the lifetimes of the large objects a sampled export
// did not record (the file has their births and sizes, through the clock, but not their deaths).
type Hypothesis int

const (
	// HypothesisAuto copies the lifetime of the nearest sampled large object (by birth on the
	// clock) when the export recorded any, and assumes HypothesisShort otherwise.
	HypothesisAuto Hypothesis = iota
	// HypothesisShort: an unsampled large object dies at the end of the window it was
	// allocated in (before the next sampled birth), so it never survives to a second large
	// allocation.
	HypothesisShort
	// HypothesisLong: an unsampled large object lives to the end of the run.
	HypothesisLong
	// HypothesisOff turns the rebuild off: every sampled record weighs 1/sampling rate, as
	// before (the "multiply" reading, kept for comparison).
	HypothesisOff
	// HypothesisStored is HypothesisLong plus the pointers the export never records: every
	// long-lived large object that may hold pointers is taken for a container, like a
	// DataFrame's column arrays or its table, that holds long-lived small objects: each from
	// the newest container before it or the largest after it, whichever is larger
	// (storeAssumer). An old container holding young
	// objects is in the remembered set and the scavenger scans all of its slots
	// (docs/spur-model.md §3.6), so this is the hypothesis under which the new-space size
	// matters most.
	HypothesisStored
)

// hypothesisNames are the names of the hypotheses, by value.
func hypothesisNames() []string { return []string{"auto", "short", "long", "off", "stored"} }

// String returns the name ParseHypothesis accepts.
func (h Hypothesis) String() string { return enumName("Hypothesis", hypothesisNames(), h) }

// ParseHypothesis parses "auto", "short", "long", "off" or "stored" (case-insensitive); "" is
// auto, "false" and "no" are off.
func ParseHypothesis(s string) (Hypothesis, error) {
	return parseEnum("rebuild mode", hypothesisNames(), map[string]Hypothesis{"": HypothesisAuto, "false": HypothesisOff, "no": HypothesisOff}, s)
}

// RebuildOptions tune Rebuild. The zero value is the default.
type RebuildOptions struct {
	// Hypothesis on the unsampled large objects' lifetimes (HypothesisAuto by default).
	Hypothesis Hypothesis
	// ProfilerBytesPerSample is what the profiler allocates per recorded allocation, counted
	// by parameter 34 but not part of the application: it is taken off the clock, window by
	// window. 0 means DefaultSampleOverheadBytes; negative means none.
	ProfilerBytesPerSample int64
	// LargeObjectBytes, when not 0, is the size the unsampled large objects are taken to have,
	// in place of the nearest sampled large object's (or of one object per window when the
	// export sampled none): a window's excess is cut into round(excess / LargeObjectBytes)
	// objects, at least one. The clock
	// gives only their sum; the export's own full-GC count says how many there were, and
	// study.OpenWorkloads chooses the size that reproduces it (docs/sampling.md, "The export's
	// evidence"). 0: one object per window, the fewest the clock allows. Under
	// HypothesisStored the window with the most inferred bytes stays one object
	// (wholeLargestWindow): the largest container the clock allows, the pessimistic end stored
	// stands for, while the other windows follow the counts.
	LargeObjectBytes uint64
}

// RebuildReport tells what Rebuild found and assumed.
type RebuildReport struct {
	// Every is N of the export's 1/N sampling rate; Windows the number of windows of N
	// counted allocations between consecutive sampled births.
	Every   uint64 `json:"every"`
	Windows int    `json:"windows"`
	// SampledLarge is the number of sampled large objects (over 65,535 slots, or old-space
	// flagged), each now counted once; SampledLargeBytes their bytes.
	SampledLarge      int    `json:"sampledLarge"`
	SampledLargeBytes uint64 `json:"sampledLargeBytes"`
	// InferredLarge is the number of large objects placed where the clock shows them;
	// InferredLargeBytes their bytes; InferredWindows the windows holding them.
	InferredLarge      int    `json:"inferredLarge"`
	InferredLargeBytes uint64 `json:"inferredLargeBytes"`
	InferredWindows    int    `json:"inferredWindows"`
	// ClockBytes is the clock's span after the profiler's own bytes were taken off;
	// ProfilerBytes what was taken off.
	ClockBytes    uint64 `json:"clockBytes"`
	ProfilerBytes uint64 `json:"profilerBytes"`
	// SmallBytes is Σ weight × size of the small sampled records; ExplainedShare is
	// (SmallBytes + SampledLargeBytes + InferredLargeBytes) / ClockBytes.
	SmallBytes     uint64  `json:"smallBytes"`
	ExplainedShare float64 `json:"explainedShare"`
	// Sizes is how a window's excess was cut into objects: "neighbour" (k objects when it is
	// k times the nearest sampled large object's size, else one) or "one object per window"
	// (no large object was sampled, or HypothesisStored: one container, the most slots).
	Sizes string `json:"sizes"`
	// Hypothesis is the lifetime estimate the inferred large objects got, as applied
	// ("neighbour", "short", "long" or "stored").
	Hypothesis string `json:"hypothesis"`
	// Containers and StoredRecords are what HypothesisStored assumed (0 otherwise): the large
	// objects taken for containers, and the long-lived small records stored into them
	// (StoredObjects objects, weights counted).
	Containers    int     `json:"containers,omitempty"`
	StoredRecords int     `json:"storedRecords,omitempty"`
	StoredObjects float64 `json:"storedObjects,omitempty"`
}

// String is the one-line summary the commands print.
func (r RebuildReport) String() string {
	return fmt.Sprintf("rebuilt from 1/%d sampling: %d windows; %d large objects inferred from the clock (%s) in %d windows, %d sampled large counted once; unsampled large sizes: %s; lifetimes: %s; %.1f %% of the clock explained",
		r.Every, r.Windows, r.InferredLarge, units.FormatBytes(r.InferredLargeBytes), r.InferredWindows, r.SampledLarge, r.Sizes, r.Hypothesis, 100*r.ExplainedShare) + r.storedText()
}

// storedText is what String adds for HypothesisStored.
func (r RebuildReport) storedText() string {
	if r.Containers == 0 {
		return ""
	}
	return fmt.Sprintf("; assumed stored into %d large containers: %s long-lived small objects", r.Containers, units.FormatCount(uint64(math.Round(r.StoredObjects))))
}

// Rebuild constants.
const (
	// largeMinBytes is the smallest object the VM allocates straight into old space
	// (MaxNewSpaceSlots + 1 slots with the two-word header).
	largeMinBytes = 16 + 8*(profile.MaxNewSpaceSlots+1)
	// rebuildBlock is the number of windows whose median and spread give the baseline of the
	// windows in the block: local, so a change of allocation mix between phases moves it.
	rebuildBlock = 64
	// rebuildSpreads is how many robust standard deviations (1.4826 × MAD) above the baseline
	// a window's excess must be, besides being a large object's size at least.
	rebuildSpreads = 8
)

// Rebuild rebuilds a sampled profile on the bytes clock (p.Meta.SamplingRate < 1, births in
// order, as Read returns it) into the profile of the whole run, instead of weighing every
// record by N = 1/rate:
//
//   - The clock. Parameter 34 is exact whenever it is read (SpurMemoryManager>>
//     currentAllocatedBytes: the bytes scavenges folded into statAllocatedBytes, plus eden's
//     fill since the last scavenge, plus old space's growth since the last GC), so the
//     difference between two consecutive sampled births is the bytes of the window's N counted
//     allocations, the sampled one included, plus what was allocated without being counted:
//     the profiler's own objects (ProfilerBytesPerSample, taken off the clock) and the
//     application's allocations that bypass the instrumented methods (left on it).
//   - Small objects keep the weight N.
//   - A sampled large object (AllocatesInOldSpace) weighs 1: it is one object, not N.
//   - Unsampled large objects. A window's excess, its bytes less the sampled object's less
//     the median of its block's windows that cannot hold a large object, that is at least a
//     large object's size and 8 robust standard deviations above the block's spread holds a
//     large object: its size is the excess, or k objects when the excess is k times the
//     nearest sampled large object's size (inferredCount), born from the middle of the window.
//   - Their lifetimes are not in the file: opts.Hypothesis (see Hypothesis) decides.
//   - Nor are pointers: under HypothesisStored the long-lived large objects of pointer classes
//     (the inferred ones included) become containers that hold the long-lived small objects:
//     each from the newest container before it or the largest after it (storeAssumer); an
//     inferred window then stays one container.
//
// A profile that is not sampled (rate 1), has fewer than two records, or with
// HypothesisOff, is returned as it is, with a nil report. Rebuild never modifies p.
func Rebuild(p *profile.Profile, opts RebuildOptions) (*profile.Profile, *RebuildReport, error) {
	n := p.Len()
	if opts.Hypothesis == HypothesisOff || p.Meta.SamplingRate >= 1 || n < 2 {
		return p, nil, nil
	}
	every := uint64(math.Round(1 / p.Meta.SamplingRate))
	if every < 2 {
		return p, nil, nil
	}
	overhead := uint64(DefaultSampleOverheadBytes)
	switch {
	case opts.ProfilerBytesPerSample < 0:
		overhead = 0
	case opts.ProfilerBytesPerSample > 0:
		overhead = uint64(opts.ProfilerBytesPerSample)
	}
	rep := &RebuildReport{Every: every, Windows: n - 1}

	// The clock without the profiler's bytes: each sampled birth moves back by overhead per
	// sample up to it, kept monotone (an export whose windows are shorter than the overhead
	// gives them 0).
	births := make([]uint64, n)
	var prev uint64
	for i := range n {
		b := p.Birth[i]
		off := overhead * uint64(i+1)
		nb := uint64(0)
		if b > off {
			nb = b - off
		}
		nb = max(nb, prev)
		births[i] = nb
		prev = nb
	}
	// remap moves a death or the end, t ≥ p.Birth[from], onto the clock without the profiler:
	// back by overhead per sample born at or before t, found by a search that gallops from
	// from (most objects die a few windows after their birth).
	remap := func(t uint64, from int) uint64 {
		k := samplesUpTo(p.Birth, t, from)
		off := overhead * uint64(k)
		if t <= off {
			return births[max(k-1, 0)]
		}
		return max(t-off, births[max(k-1, 0)])
	}
	end := remap(p.Meta.EndBytes, n-1)
	end = max(end, births[n-1])
	rep.ClockBytes = end
	rep.ProfilerBytes = p.Meta.EndBytes - end

	// Window excess: R_k = window bytes − the sampled object's size.
	rest := make([]float64, n)
	for k := 1; k < n; k++ {
		d := float64(births[k] - births[k-1])
		rest[k] = d - float64(p.SizeBytes[k])
	}
	large := func(i int) bool { return profile.AllocatesInOldSpace(p.SizeBytes[i], p.Flags[i]) }
	var sampledLarge []int
	for i := range n {
		if large(i) {
			sampledLarge = append(sampledLarge, i)
		}
	}
	rep.SampledLarge = len(sampledLarge)
	// sizeBy are the sampled large objects whose sizes cut a window's excess into objects
	// (inferredCount); none under HypothesisStored, the pessimistic end: one large container
	// per window is the most slots to scan the clock allows (storeAssumer).
	sizeBy := sampledLarge
	switch {
	case opts.LargeObjectBytes > 0:
		sizeBy = nil
		rep.Sizes = fmt.Sprintf("objects of about %d bytes (the size whose default run reproduces the export's full GCs)", opts.LargeObjectBytes)
		if opts.Hypothesis == HypothesisStored {
			rep.Sizes += "; the window with the most, one container"
		}
	case opts.Hypothesis == HypothesisStored:
		sizeBy = nil
		rep.Sizes = "one object per window (stored: one large container is the most slots to scan)"
	case len(sampledLarge) == 0:
		rep.Sizes = "one object per window (no large object was sampled)"
	default:
		rep.Sizes = "neighbour (a whole multiple of the nearest sampled large object is that many objects)"
	}
	for _, i := range sampledLarge {
		rep.SampledLargeBytes += uint64(p.SizeBytes[i])
	}

	type inferred struct {
		window int
		birth  uint64
		size   uint32
	}
	var found []inferred
	// The baseline and spread come from the windows that cannot hold a large object (an excess
	// under largeMinBytes): a burst of large allocations fills most windows of a block (on
	// dataframe-3.1gb at 1/100, 42 of 64 windows hold one of the type detection's column
	// arrays), and a median over all of them would take a column array for the baseline and
	// see no excess. A block with too few such windows takes the whole profile's.
	var globalBase, globalSpread float64
	globalDone := false
	block := make([]float64, 0, rebuildBlock)
	for lo := 1; lo < n; lo += rebuildBlock {
		hi := min(lo+rebuildBlock, n)
		var base, spread float64
		if smallWindows(rest[lo:hi]) >= max(1, (hi-lo)/4) {
			base, spread = baseline(rest[lo:hi], block)
		} else {
			if !globalDone { // a sort of every window: only when a block needs it
				globalBase, globalSpread = baseline(rest[1:], nil)
				globalDone = true
			}
			base, spread = globalBase, globalSpread
		}
		for k := lo; k < hi; k++ {
			excess := rest[k] - base
			if excess < largeMinBytes || excess < rebuildSpreads*spread {
				continue
			}
			// The small bytes of the window surround the large ones: place them from the
			// middle of the window's small part, one after the other.
			at := births[k-1] + uint64(math.Max(base, 0)/2)
			m := inferredCount(excess, rebuildSpreads*spread, at, sizeBy, p.SizeBytes, births)
			if opts.LargeObjectBytes > 0 {
				m = math.Max(1, math.Min(math.Round(excess/float64(opts.LargeObjectBytes)), math.Floor(excess/(largeMinBytes+8))))
			}
			size := uint64(excess/m) &^ 7
			for range int(m) {
				at += size
				found = append(found, inferred{window: k, birth: min(at, births[k]), size: uint32(size)})
			}
			rep.InferredWindows++
			rep.InferredLargeBytes += size * uint64(m)
		}
	}
	if opts.Hypothesis == HypothesisStored && opts.LargeObjectBytes > 0 {
		found = wholeLargestWindow(found, func(f inferred) (int, uint32) { return f.window, f.size },
			func(f inferred, size uint32) inferred { f.size = size; return f })
	}
	rep.InferredLarge = len(found)

	hyp := opts.Hypothesis
	rep.Hypothesis = hyp.String()
	if hyp == HypothesisAuto {
		if len(sampledLarge) > 0 {
			rep.Hypothesis = "neighbour (lifetime of the nearest sampled large object)"
		} else {
			hyp = HypothesisShort
			rep.Hypothesis = "short (no large object was sampled: each dies within its window)"
		}
	}

	var b profile.Builder
	b.Grow(n + len(found))
	for _, name := range p.ClassNames {
		b.Class(name)
	}
	inferredClass := b.Class("(large, inferred from the clock)")
	for _, name := range p.SiteNames {
		b.Site(name)
	}
	stored := newStoreAssumer(&b, rep, hyp, p, sampledLarge)
	lifeHyp := hyp
	if hyp == HypothesisStored {
		lifeHyp = HypothesisLong
	}
	// The inferred objects of window k are born in (births[k-1], births[k]]: added before
	// record k, they keep the records in birth order and Build does not sort.
	next := 0
	newIndex := make([]int32, n)
	for i := range n {
		for ; next < len(found) && found[next].window == i; next++ {
			f := found[next]
			death, flags := inferredDeath(f.birth, births[f.window], end, lifeHyp, p, sampledLarge, births, remap)
			idx := b.Add(inferredClass, f.size, f.birth, death, 1, flags)
			if p.Site != nil {
				b.SetSite(idx, b.Site(profile.UnknownSite))
			}
			if flags&profile.FlagAliveAtEnd != 0 {
				stored.container(idx, f.birth, f.size)
			}
		}
		death := p.Death[i]
		if p.AliveAtEnd(i) {
			death = end
		} else {
			death = max(min(remap(death, i), end), births[i])
		}
		w := p.Weight[i]
		if large(i) {
			w = 1
		} else {
			rep.SmallBytes += uint64(w) * uint64(p.SizeBytes[i])
		}
		idx := b.Add(p.Class[i], p.SizeBytes[i], births[i], death, w, p.Flags[i])
		newIndex[i] = int32(idx)
		if p.Site != nil {
			b.SetSite(idx, p.Site[i])
		}
		switch {
		case !p.AliveAtEnd(i):
		case !large(i):
			stored.store(idx, w)
		case !p.ClassPointerFree(p.Class[i]):
			stored.container(idx, births[i], p.SizeBytes[i])
		}
	}
	stored.finish()
	for _, c := range p.Containers {
		r := int(c.Record)
		from := max(min(remap(max(c.StoresFromBytes, p.Birth[r]), r), end), births[r])
		until := max(min(remap(max(c.StoresUntilBytes, p.Birth[r]), r), end), from)
		b.AddContainer(profile.Container{Record: newIndex[r], StoresFromBytes: from, StoresUntilBytes: until})
	}
	meta := p.Meta
	meta.EndBytes = end
	meta.TotalAllocatedBytes = end
	meta.ProfilerBytes = rep.ProfilerBytes
	// One object per window is the fewest the clock allows: the full GCs their allocations
	// force in this reading are about the fewest the run can have had.
	meta.FullGCsFloor = rep.InferredLarge > 0 && rep.InferredLarge == rep.InferredWindows && len(sampledLarge) == 0 && opts.LargeObjectBytes == 0
	// Stored guesses the pointers the export never records, at their pessimistic end: a bound
	// of what they may cost, not an estimate.
	meta.Pessimistic = hyp == HypothesisStored
	out, err := b.Build(meta)
	if err != nil {
		return nil, nil, fmt.Errorf("filip: rebuild: %w", err)
	}
	if end > 0 {
		rep.ExplainedShare = float64(rep.SmallBytes+rep.SampledLargeBytes+rep.InferredLargeBytes) / float64(end)
	}
	return out, rep, nil
}

// inferredDeath is the death of an inferred large object born at birth in a window ending at
// windowEnd, under hypothesis h (HypothesisAuto means the lifetime of the nearest sampled large
// object, measured on the rebuilt clock: births and remap).
func inferredDeath(birth, windowEnd, end uint64, h Hypothesis, p *profile.Profile, sampledLarge []int, births []uint64, remap func(t uint64, from int) uint64) (uint64, uint8) {
	switch h {
	case HypothesisShort:
		return max(windowEnd, birth), 0
	case HypothesisLong:
		return end, profile.FlagAliveAtEnd
	}
	j := nearestByBirth(sampledLarge, birth, births)
	if p.AliveAtEnd(j) {
		return end, profile.FlagAliveAtEnd
	}
	life := max(remap(p.Death[j], j), births[j]) - births[j] // on the clock without the profiler
	return min(birth+life, end), 0
}

// inferredCount is the number of large objects a window's excess bytes (placed from at on the
// rebuilt clock, known to noiseBytes) are taken to hold. The clock gives only their sum. The
// sampled large objects are a uniform sample of the run's large allocations, so the nearest
// one by birth is the estimate of their size (the same neighbour the lifetimes take): when the
// excess is a whole multiple k ≥ 2 of it, to within noiseBytes plus 2 % of one object, the
// window holds k of them. A DataFrame's per-column arrays, made one after another with nothing
// young between them, fall into one window at 1/100: a hundred 10 MiB arrays, not one 1 GiB
// array, each of which the free old space may not hold (a full GC each, docs/spur-model.md
// §2.3). An excess that is no such multiple is one object: objects of unrelated sizes do not
// add up to a multiple but by chance (about 4 % of windows). With no large object sampled
// there is no size to go by: one object per window, the fewest the clock allows. Either way no
// object exceeds what a record holds.
func inferredCount(excess, noiseBytes float64, at uint64, sampledLarge []int, sizes []uint32, births []uint64) float64 {
	m := 1.0
	if len(sampledLarge) > 0 {
		s := float64(sizes[nearestByBirth(sampledLarge, at, births)])
		if k := math.Round(excess / s); k >= 2 && math.Abs(excess-k*s) <= noiseBytes+s/50 {
			// Never below a large object's size: the noise allowed may take an object of
			// the smallest large size under it.
			m = max(1, min(k, math.Floor(excess/(largeMinBytes+8))))
		}
	}
	return math.Max(m, math.Ceil(excess/float64(math.MaxUint32-7)))
}

// samplesUpTo returns the number of births (sorted) at or before t, searching from index from
// (births[from] ≤ t) by galloping, then bisecting.
func samplesUpTo(births []uint64, t uint64, from int) int {
	lo, step := from, 1
	hi := from + step
	for hi < len(births) && births[hi] <= t {
		lo = hi
		step *= 2
		hi = lo + step
	}
	hi = min(hi, len(births))
	// births[lo] ≤ t (or lo = from); the answer is in (lo, hi].
	k, _ := slices.BinarySearch(births[lo:hi], t+1)
	return lo + k
}

// nearestByBirth returns the record among idx (sorted) whose rebuilt birth is nearest t.
func nearestByBirth(idx []int, t uint64, births []uint64) int {
	k, _ := slices.BinarySearchFunc(idx, t, func(i int, t uint64) int {
		switch {
		case births[i] < t:
			return -1
		case births[i] > t:
			return 1
		}
		return 0
	})
	switch {
	case k == 0:
		return idx[0]
	case k == len(idx):
		return idx[len(idx)-1]
	}
	a, c := idx[k-1], idx[k]
	if t-births[a] <= births[c]-t {
		return a
	}
	return c
}

// baseline returns the median and robust spread (1.4826 × MAD) of the window excesses in rest
// that are under largeMinBytes, the windows that cannot hold a large object; scratch is reused
// when it has room. Both are 0 when no window qualifies.
func baseline(rest []float64, scratch []float64) (base, spread float64) {
	small := scratch[:0]
	for _, r := range rest {
		if r < largeMinBytes {
			small = append(small, r)
		}
	}
	base = median(small)
	for j := range small {
		small[j] = math.Abs(small[j] - base)
	}
	return base, 1.4826 * median(small)
}

// smallWindows counts the window excesses in rest under largeMinBytes.
func smallWindows(rest []float64) int {
	n := 0
	for _, r := range rest {
		if r < largeMinBytes {
			n++
		}
	}
	return n
}

// median returns the median of v (reordering v); 0 for an empty slice.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	m := len(v) / 2
	if len(v)%2 == 1 {
		return v[m]
	}
	return (v[m-1] + v[m]) / 2
}

// wholeLargestWindow merges the inferred objects of the window holding the most inferred bytes
// back into one object, the first of them (born where the window's first was), as large as
// their sum (at most math.MaxUint32 − 7 bytes): under HypothesisStored with a size from the
// counts, the pessimistic end is one container as large as the clock allows for one object (a
// table built at once, DataFrame's 1 GiB Array2D among its 10 MiB column arrays), the other
// windows cut as the counts say. found is in window order; window and resize read and set an
// element's window and size.
func wholeLargestWindow[T any](found []T, window func(T) (int, uint32), resize func(T, uint32) T) []T {
	if len(found) < 2 {
		return found
	}
	best, bestBytes := -1, uint64(0)
	sum := map[int]uint64{}
	for _, f := range found {
		w, size := window(f)
		sum[w] += uint64(size)
		if sum[w] > bestBytes || (sum[w] == bestBytes && w < best) {
			best, bestBytes = w, sum[w]
		}
	}
	out := make([]T, 0, len(found))
	merged := false
	for _, f := range found {
		w, _ := window(f)
		if w != best {
			out = append(out, f)
			continue
		}
		if !merged {
			out = append(out, resize(f, uint32(min(bestBytes, math.MaxUint32-7))&^7))
			merged = true
		}
	}
	return out
}
