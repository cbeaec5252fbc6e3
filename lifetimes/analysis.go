package lifetimes

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/profile"
)

// Analysis defaults.
const (
	// DefaultHistogramBins is the number of lifetime histogram bins.
	DefaultHistogramBins = 20
	// DefaultLogHistogramMin is the upper edge of a log-scale histogram's first bin, as a
	// fraction of the run: 1e-6, a few kilobytes of a multi-gigabyte run. With 20 bins the
	// remaining 19 cover six decades, a factor of about 2.07 per bin.
	DefaultLogHistogramMin = 1e-6
	// DefaultTopObjects is how many of the largest records a Summary lists.
	DefaultTopObjects = 10
)

// AnalysisOptions are the settings of Summarize.
type AnalysisOptions struct {
	// LongLivedThreshold is the lifetime, as a fraction of the run (Meta.EndBytes), from which
	// an object is long-lived: lifetime = Death − Birth on the bytes clock, long-lived iff
	// lifetime ≥ LongLivedThreshold × EndBytes. In (0, 1]; zero means
	// profile.DefaultLongLivedThreshold.
	LongLivedThreshold float64
	// TopObjects is how many of the largest records Summary.Largest lists. Zero means
	// DefaultTopObjects; a negative value lists none.
	TopObjects int
}

func (o AnalysisOptions) withDefaults() AnalysisOptions {
	if o.LongLivedThreshold == 0 {
		o.LongLivedThreshold = profile.DefaultLongLivedThreshold
	}
	if o.TopObjects == 0 {
		o.TopObjects = DefaultTopObjects
	}
	return o
}

// Validate checks the options, naming the field and the bad value.
func (o AnalysisOptions) Validate() error {
	if o.LongLivedThreshold == 0 { // DefaultLongLivedThreshold
		return nil
	}
	return ValidateLongLivedThreshold(o.LongLivedThreshold)
}

// ValidateLongLivedThreshold checks a long-lived threshold that was given: in (0, 1]. (In
// AnalysisOptions a zero means the default; a threshold a user gives is never zero.)
func ValidateLongLivedThreshold(t float64) error {
	if math.IsNaN(t) || t <= 0 || t > 1 {
		return fmt.Errorf("lifetimes: LongLivedThreshold %v is not in (0, 1]", t)
	}
	return nil
}

// Summary is the lifetime analysis of a Profile. Counts and bytes are weighted (a record
// stands for Weight objects); shares are fractions in [0, 1]; lifetimes are fractions of the
// run (Meta.EndBytes). Every number is finite, so the Summary always encodes as JSON.
type Summary struct {
	// Source and Profiler are copied from the profile's Meta.
	Source   string `json:"source"`
	Profiler string `json:"profiler,omitempty"`
	// Records is the number of records; Objects (Σ weight) and Bytes (Σ weight × size) are the
	// real objects and bytes they stand for.
	Records int    `json:"records"`
	Objects uint64 `json:"objects"`
	Bytes   uint64 `json:"bytes"`
	// EndBytes is the run's length on the bytes clock (Meta.EndBytes).
	EndBytes uint64 `json:"endBytes"`
	// SamplingRate is copied from the profile's Meta.
	SamplingRate float64 `json:"samplingRate"`

	// LongLivedThreshold is the threshold used, as a fraction of the run.
	LongLivedThreshold float64 `json:"longLivedThreshold"`
	// LongLivedObjects and LongLivedBytes count the long-lived objects and their bytes;
	// LongLivedObjectShare and LongLivedByteShare are their shares of Objects and Bytes.
	LongLivedObjects     uint64  `json:"longLivedObjects"`
	LongLivedBytes       uint64  `json:"longLivedBytes"`
	LongLivedObjectShare float64 `json:"longLivedObjectShare"`
	LongLivedByteShare   float64 `json:"longLivedByteShare"`
	// AverageLifetime is the mean lifetime of an object (weighted by count), as a fraction of
	// the run.
	AverageLifetime float64 `json:"averageLifetime"`
	// AliveAtEndObjects and AliveAtEndBytes count the objects still alive when the run ended.
	AliveAtEndObjects uint64 `json:"aliveAtEndObjects"`
	AliveAtEndBytes   uint64 `json:"aliveAtEndBytes"`

	// PeakLiveBytes is the largest number of bytes alive at once; PeakLiveAtBytes is the first
	// time (bytes clock) it was reached. An object is alive on [Birth, Death), or from Birth on
	// if it is alive at the end. FinalLiveBytes is what is alive when the run ends.
	PeakLiveBytes   uint64 `json:"peakLiveBytes"`
	PeakLiveAtBytes uint64 `json:"peakLiveAtBytes"`
	FinalLiveBytes  uint64 `json:"finalLiveBytes"`

	// Largest lists the largest records by object size, largest first (ties: earliest first).
	Largest []LargeObject `json:"largest"`
	// DirectToOld counts the allocations that go straight to old space (AllocatesInOldSpace).
	DirectToOld OldSpaceAllocations `json:"directToOld"`
	// Containers summarises Profile.Containers.
	Containers ContainerStats `json:"containers"`
	// Classes is the per-class table (FiLiP's Table 4), most allocated class first.
	Classes []ClassSummary `json:"classes"`
}

// LargeObject describes one record in Summary.Largest.
type LargeObject struct {
	Record    int    `json:"record"`
	Class     string `json:"class"`
	SizeBytes uint32 `json:"sizeBytes"`
	Slots     uint32 `json:"slots"`
	// Weight is how many objects of this size the record stands for.
	Weight uint32 `json:"weight"`
	// BirthBytes is the birth time on the bytes clock; Lifetime is a fraction of the run.
	BirthBytes uint64  `json:"birthBytes"`
	Lifetime   float64 `json:"lifetime"`
	AliveAtEnd bool    `json:"aliveAtEnd"`
	// OldSpace reports whether the object is allocated directly in old space.
	OldSpace bool `json:"oldSpace"`
}

// OldSpaceAllocations counts the allocations that bypass eden: objects over MaxNewSpaceSlots
// slots and records flagged FlagOldSpace. ByteShare is the share of all allocated bytes.
type OldSpaceAllocations struct {
	Records   int     `json:"records"`
	Objects   uint64  `json:"objects"`
	Bytes     uint64  `json:"bytes"`
	ByteShare float64 `json:"byteShare"`
}

// ContainerStats summarises the containers (Profile.Containers): how many there are and how
// many slots the scavenger scans when all of them are in the remembered set. Each container
// entry counts once, whatever its record's weight.
type ContainerStats struct {
	Count      int    `json:"count"`
	TotalSlots uint64 `json:"totalSlots"`
	TotalBytes uint64 `json:"totalBytes"`
}

// ClassSummary is one row of the per-class table, as in FiLiP's Table 4.
type ClassSummary struct {
	Class   string `json:"class"`
	Records int    `json:"records"`
	Objects uint64 `json:"objects"`
	Bytes   uint64 `json:"bytes"`
	// AllocationShare and ByteShare are the class's shares of all objects and bytes.
	AllocationShare float64 `json:"allocationShare"`
	ByteShare       float64 `json:"byteShare"`
	// AverageLifetime is the mean lifetime of the class's objects as a fraction of the run.
	AverageLifetime float64 `json:"averageLifetime"`
	// LongLivedShare is the share of the class's objects that are long-lived.
	LongLivedShare float64 `json:"longLivedShare"`
}

// Summarize analyses p: totals, the long-lived fraction by count and by bytes, the per-class
// table, peak and final live bytes, the largest objects, direct-to-old allocations and
// containers. It validates p, runs in O(n) time plus a sort of the deaths near the live-bytes
// peak, and does not modify p. A run of length zero (EndBytes = 0) has no long-lived objects.
func Summarize(p *profile.Profile, opts AnalysisOptions) (*Summary, error) {
	if p == nil {
		return nil, errors.New("lifetimes: summarize: nil profile")
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	if err := p.Validate(); err != nil {
		return nil, err
	}
	n := p.Len()
	end := p.Meta.EndBytes
	s := &Summary{
		Source:             p.Meta.Source,
		Profiler:           p.Meta.Profiler,
		Records:            n,
		EndBytes:           end,
		SamplingRate:       p.Meta.SamplingRate,
		LongLivedThreshold: opts.LongLivedThreshold,
	}
	cut := uint64(math.MaxUint64) // nothing is long-lived in a run of length zero
	if end > 0 {
		cut = cutPoint(opts.LongLivedThreshold, end)
	}

	type classAcc struct {
		records           int
		objects, bytes    uint64
		longLived         uint64
		weightedLifetimes float64
	}
	classes := make([]classAcc, len(p.ClassNames))
	var lifetimeSum float64
	top := newTopRecords(min(max(opts.TopObjects, 0), n))
	for i := range n {
		w, size := uint64(p.Weight[i]), p.SizeBytes[i]
		b := w * uint64(size)
		life := p.Death[i] - p.Birth[i]
		acc := &classes[p.Class[i]]
		acc.records++
		acc.objects += w
		acc.bytes += b
		wl := float64(w) * float64(life)
		acc.weightedLifetimes += wl
		lifetimeSum += wl
		if life >= cut {
			acc.longLived += w
			s.LongLivedObjects += w
			s.LongLivedBytes += b
		}
		if p.Flags[i]&profile.FlagAliveAtEnd != 0 {
			s.AliveAtEndObjects += w
			s.AliveAtEndBytes += b
		}
		if profile.AllocatesInOldSpace(size, p.Flags[i]) {
			s.DirectToOld.Records++
			s.DirectToOld.Objects += w
			s.DirectToOld.Bytes += b
		}
		top.offer(i, size)
	}
	for _, acc := range classes {
		s.Objects += acc.objects
		s.Bytes += acc.bytes
	}
	s.LongLivedObjectShare = share(s.LongLivedObjects, s.Objects)
	s.LongLivedByteShare = share(s.LongLivedBytes, s.Bytes)
	s.AverageLifetime = ratio(lifetimeSum, float64(s.Objects)*float64(end))
	s.DirectToOld.ByteShare = share(s.DirectToOld.Bytes, s.Bytes)

	s.Classes = make([]ClassSummary, 0, len(classes))
	for c, acc := range classes {
		if acc.records == 0 {
			continue
		}
		s.Classes = append(s.Classes, ClassSummary{
			Class:           p.ClassNames[c],
			Records:         acc.records,
			Objects:         acc.objects,
			Bytes:           acc.bytes,
			AllocationShare: share(acc.objects, s.Objects),
			ByteShare:       share(acc.bytes, s.Bytes),
			AverageLifetime: ratio(acc.weightedLifetimes, float64(acc.objects)*float64(end)),
			LongLivedShare:  share(acc.longLived, acc.objects),
		})
	}
	slices.SortStableFunc(s.Classes, func(a, b ClassSummary) int {
		// Most objects first, then most bytes, then by name.
		return cmp.Or(cmp.Compare(b.Objects, a.Objects), cmp.Compare(b.Bytes, a.Bytes), cmp.Compare(a.Class, b.Class))
	})

	s.Largest = make([]LargeObject, 0, len(top.heap))
	for _, i := range top.sorted() {
		s.Largest = append(s.Largest, LargeObject{
			Record:     i,
			Class:      p.ClassName(i),
			SizeBytes:  p.SizeBytes[i],
			Slots:      profile.SlotsOf(p.SizeBytes[i]),
			Weight:     p.Weight[i],
			BirthBytes: p.Birth[i],
			Lifetime:   ratio(float64(p.Death[i]-p.Birth[i]), float64(end)),
			AliveAtEnd: p.AliveAtEnd(i),
			OldSpace:   profile.AllocatesInOldSpace(p.SizeBytes[i], p.Flags[i]),
		})
	}

	s.Containers.Count = len(p.Containers)
	for _, c := range p.Containers {
		s.Containers.TotalSlots += uint64(profile.SlotsOf(p.SizeBytes[c.Record]))
		s.Containers.TotalBytes += uint64(p.SizeBytes[c.Record])
	}

	s.PeakLiveBytes, s.PeakLiveAtBytes, s.FinalLiveBytes = liveBytes(p)
	return s, nil
}

// share is part/whole, or 0 when whole is 0.
func share(part, whole uint64) float64 {
	if whole == 0 {
		return 0
	}
	return float64(part) / float64(whole)
}

// ratio is a/b, or 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// cutPoint returns the smallest lifetime l (bytes) with float64(l)/float64(end) ≥ frac, for
// end > 0 and frac in [0, 1]. Comparing the correctly rounded ratio with frac, rather than l
// with frac × end, makes a lifetime of exactly 5 % of the run long-lived at a threshold of 0.05
// whatever rounding frac × end suffers.
func cutPoint(frac float64, end uint64) uint64 {
	fend := float64(end)
	c := math.Ceil(frac * fend)
	l := end
	if c < fend {
		l = uint64(max(c, 0))
	}
	for l > 0 && float64(l-1)/fend >= frac {
		l--
	}
	for l <= end && float64(l)/fend < frac {
		l++
	}
	return l
}

// topRecords keeps the k largest records by size (ties: lowest index) in a min-heap ordered
// by (size, −index), so that the root is the one to evict: offering n records costs
// O(n log k), not O(n k) (--top 1,000,000 took 74 s when it kept a sorted slice).
type topRecords struct {
	k    int
	heap []topRecord
}

// topRecord is one kept record: its index and object size.
type topRecord struct {
	idx  int
	size uint32
}

// worse reports whether a ranks below b: smaller, or as large and later.
func (a topRecord) worse(b topRecord) bool {
	return a.size < b.size || (a.size == b.size && a.idx > b.idx)
}

func newTopRecords(k int) *topRecords {
	return &topRecords{k: k, heap: make([]topRecord, 0, min(k, 1<<16))}
}

func (t *topRecords) offer(i int, size uint32) {
	if t.k == 0 {
		return
	}
	r := topRecord{idx: i, size: size}
	h := t.heap
	if len(h) < t.k {
		h = append(h, r)
		for j := len(h) - 1; j > 0; { // sift up
			parent := (j - 1) / 2
			if !h[j].worse(h[parent]) {
				break
			}
			h[j], h[parent] = h[parent], h[j]
			j = parent
		}
		t.heap = h
		return
	}
	// Records come in increasing index order, so an equal size never displaces an earlier
	// record.
	if size <= h[0].size {
		return
	}
	h[0] = r
	for j := 0; ; { // sift down
		least, l, rt := j, 2*j+1, 2*j+2
		if l < len(h) && h[l].worse(h[least]) {
			least = l
		}
		if rt < len(h) && h[rt].worse(h[least]) {
			least = rt
		}
		if least == j {
			break
		}
		h[j], h[least] = h[least], h[j]
		j = least
	}
}

// sorted returns the kept records largest first, ties earliest first.
func (t *topRecords) sorted() []int {
	rs := slices.Clone(t.heap)
	slices.SortFunc(rs, func(a, b topRecord) int {
		switch {
		case b.worse(a):
			return 1
		case a.worse(b):
			return -1
		}
		return 0
	})
	slices.Reverse(rs)
	out := make([]int, len(rs))
	for j, r := range rs {
		out[j] = r.idx
	}
	return out
}

// liveBytes sweeps births and deaths and returns the peak of the weighted bytes alive, the
// first time it is reached, and the bytes alive at the end. An object is alive on
// [Birth, Death), or on [Birth, ∞) when flagged alive at the end; the live value at time t
// counts every event at a time ≤ t.
//
// Rather than sorting all n deaths, it buckets time into about n/8 buckets: one pass sums the
// bytes born and dying in each bucket, which gives the exact live bytes at every bucket
// boundary (a lower bound L on the peak) and an upper bound (live at the bucket's start plus
// the bytes born in it) within each bucket. Only buckets whose upper bound reaches L can hold
// the peak; a second pass collects their deaths, sorts them and sweeps those buckets exactly.
// For a profile whose live bytes grow or plateau with noise that is a handful of buckets, so
// the cost is two linear passes; in the worst case (an exactly flat live curve) every bucket
// is refined, which costs a sort of all deaths.
func liveBytes(p *profile.Profile) (peak, peakAt, final uint64) {
	n := p.Len()
	if n == 0 {
		return 0, 0, 0
	}
	end := p.Meta.EndBytes
	target := uint64(min(max(n/8, 1), 1<<22))
	shift := uint(0)
	for end>>shift >= target {
		shift++
	}
	nb := int(end>>shift) + 1
	born := make([]uint64, nb)
	died := make([]uint64, nb)
	for i := range n {
		w := uint64(p.Weight[i]) * uint64(p.SizeBytes[i])
		born[p.Birth[i]>>shift] += w
		if p.Flags[i]&profile.FlagAliveAtEnd == 0 {
			died[p.Death[i]>>shift] += w
		} else {
			final += w
		}
	}

	// start[k] is the exact live bytes just before bucket k; the lower bound is the largest
	// of those and the final value.
	start := make([]uint64, nb)
	var live, lower uint64
	for k := range nb {
		start[k] = live
		lower = max(lower, live)
		live += born[k]
		live -= died[k]
	}
	lower = max(lower, live)

	// Candidate buckets: those whose upper bound reaches the lower bound.
	cand := make([]int32, nb)
	var cands []int
	for k := range nb {
		cand[k] = -1
		if start[k]+born[k] >= lower && born[k] > 0 {
			cand[k] = int32(len(cands))
			cands = append(cands, k)
		}
	}
	if len(cands) == 0 { // no births at all can raise the live bytes above the boundaries
		return lower, 0, final
	}

	// Gather the deaths of the candidate buckets, grouped by bucket (counting sort).
	offs := make([]int, len(cands)+1)
	for i := range n {
		if p.Flags[i]&profile.FlagAliveAtEnd == 0 {
			if c := cand[p.Death[i]>>shift]; c >= 0 {
				offs[c+1]++
			}
		}
	}
	for c := range cands {
		offs[c+1] += offs[c]
	}
	type event struct{ t, w uint64 }
	deaths := make([]event, offs[len(cands)])
	fill := slices.Clone(offs[:len(cands)])
	for i := range n {
		if p.Flags[i]&profile.FlagAliveAtEnd == 0 {
			if c := cand[p.Death[i]>>shift]; c >= 0 {
				deaths[fill[c]] = event{p.Death[i], uint64(p.Weight[i]) * uint64(p.SizeBytes[i])}
				fill[c]++
			}
		}
	}

	peak, peakAt = 0, 0
	found := false
	for c, k := range cands {
		ds := deaths[offs[c]:offs[c+1]]
		slices.SortFunc(ds, func(a, b event) int { return cmp.Compare(a.t, b.t) })
		lo := uint64(k) << shift
		bi := sort.Search(n, func(i int) bool { return p.Birth[i] >= lo })
		bEnd := n
		if k+1 < nb {
			hi := uint64(k+1) << shift
			bEnd = bi + sort.Search(n-bi, func(i int) bool { return p.Birth[bi+i] >= hi })
		}
		live := start[k]
		di := 0
		for bi < bEnd || di < len(ds) {
			t := uint64(math.MaxUint64)
			if bi < bEnd {
				t = p.Birth[bi]
			}
			if di < len(ds) && ds[di].t < t {
				t = ds[di].t
			}
			for ; bi < bEnd && p.Birth[bi] == t; bi++ {
				live += uint64(p.Weight[bi]) * uint64(p.SizeBytes[bi])
			}
			for ; di < len(ds) && ds[di].t == t; di++ {
				live -= ds[di].w
			}
			if !found || live > peak {
				peak, peakAt, found = live, t, true
			}
		}
	}
	if lower > peak { // cannot happen: the bucket reaching the lower bound is a candidate
		peak = lower
	}
	return peak, peakAt, final
}

// HistogramScale chooses how a lifetime histogram's bins are spaced.
type HistogramScale string

// Histogram scales.
const (
	// LinearScale spaces the bins evenly over [0, 1] of the run, as the papers' density charts
	// do. Since most objects die within a tiny fraction of the run, nearly all of their mass
	// lands in the first bin.
	LinearScale HistogramScale = "linear"
	// LogScale puts lifetimes shorter than LogMin in the first bin and spaces the other bins
	// evenly in log(lifetime) from LogMin to the whole run, which resolves the short-lived
	// mode.
	LogScale HistogramScale = "log"
)

// HistogramOptions are the settings of LifetimeHistogram.
type HistogramOptions struct {
	// Bins is the number of bins: ≥ 1 (≥ 2 for LogScale), at most 1000. Zero means
	// DefaultHistogramBins.
	Bins int
	// Scale is LinearScale or LogScale; empty means LinearScale.
	Scale HistogramScale
	// LogMin is, for LogScale, the upper edge of the first bin as a fraction of the run, in
	// (0, 1). Zero means DefaultLogHistogramMin.
	LogMin float64
}

// Validate checks the options, naming the field and the bad value.
func (o HistogramOptions) Validate() error {
	switch o.Scale {
	case "", LinearScale, LogScale:
	default:
		return fmt.Errorf("lifetimes: histogram Scale %q is not %q or %q", o.Scale, LinearScale, LogScale)
	}
	if o.Bins != 0 { // DefaultHistogramBins
		if err := ValidateHistogramBins(o.Bins, o.Scale); err != nil {
			return err
		}
	}
	if math.IsNaN(o.LogMin) || o.LogMin < 0 || o.LogMin >= 1 {
		return fmt.Errorf("lifetimes: histogram LogMin %v is not in (0, 1)", o.LogMin)
	}
	return nil
}

// MaxHistogramBins is the most bins a lifetime histogram has.
const MaxHistogramBins = 1000

// ValidateHistogramBins checks a number of bins that was given for a histogram on scale: in
// [1, MaxHistogramBins], [2, MaxHistogramBins] on the log scale, whose first bin holds only the
// shortest lifetimes. (In HistogramOptions a zero means the default.)
func ValidateHistogramBins(bins int, scale HistogramScale) error {
	if bins < 1 || bins > MaxHistogramBins || (scale == LogScale && bins == 1) {
		return fmt.Errorf("lifetimes: histogram Bins %d is not in [1, %d] ([2, %[2]d] for the log scale)", bins, MaxHistogramBins)
	}
	return nil
}

// Histogram is a lifetime histogram relative to the run's length: bin i holds the objects
// whose lifetime / EndBytes lies in [Edges[i], Edges[i+1]) (the last bin includes 1), by count
// and by bytes. Shares are fractions of all objects (bytes); a density, as the papers plot it,
// is a share divided by its bin's width.
type Histogram struct {
	Scale HistogramScale `json:"scale"`
	// Edges has Bins+1 entries, fractions of the run from 0 to 1.
	Edges       []float64 `json:"edges"`
	Objects     []uint64  `json:"objects"`
	Bytes       []uint64  `json:"bytes"`
	ObjectShare []float64 `json:"objectShare"`
	ByteShare   []float64 `json:"byteShare"`
}

// Bins is the number of bins.
func (h *Histogram) Bins() int { return len(h.Objects) }

// LifetimeHistogram bins the records' lifetimes (Death − Birth, alive-at-end objects up to the
// end), as fractions of Meta.EndBytes, by weighted count and by weighted bytes. It validates
// p first. Bin
// membership is exact: each edge becomes the smallest lifetime in bytes whose ratio to the run
// reaches it. In a run of length zero every object falls in the first bin.
func LifetimeHistogram(p *profile.Profile, opts HistogramOptions) (*Histogram, error) {
	if p == nil {
		return nil, errors.New("lifetimes: histogram: nil profile")
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if opts.Bins == 0 {
		opts.Bins = DefaultHistogramBins
	}
	if opts.Scale == "" {
		opts.Scale = LinearScale
	}
	if opts.LogMin == 0 {
		opts.LogMin = DefaultLogHistogramMin
	}
	nb := opts.Bins
	h := &Histogram{
		Scale:       opts.Scale,
		Edges:       make([]float64, nb+1),
		Objects:     make([]uint64, nb),
		Bytes:       make([]uint64, nb),
		ObjectShare: make([]float64, nb),
		ByteShare:   make([]float64, nb),
	}
	for i := 1; i < nb; i++ {
		if opts.Scale == LogScale {
			// 10^(log10(LogMin) × (1 − f)), rounded to 12 significant digits so that edges
			// meant to be decimal (1e-3, 1e-2, ...) are exactly those numbers.
			f := float64(i-1) / float64(nb-1)
			h.Edges[i] = numfmt.RoundSig(math.Pow(10, math.Log10(opts.LogMin)*(1-f)), 12)
		} else {
			h.Edges[i] = float64(i) / float64(nb)
		}
	}
	h.Edges[nb] = 1

	end := p.Meta.EndBytes
	// cuts[i] is the smallest lifetime in bin i (i ≥ 1); cuts[0] = 0.
	cuts := make([]uint64, nb)
	for i := 1; i < nb; i++ {
		cuts[i] = math.MaxUint64 // a run of length zero: everything in the first bin
		if end > 0 {
			cuts[i] = cutPoint(h.Edges[i], end)
		}
	}
	var totalObjects, totalBytes uint64
	for i := range p.Len() {
		life := p.Death[i] - p.Birth[i]
		// The last bin whose cut is ≤ life (cuts[0] = 0 ≤ life): binary search.
		lo, hi := 0, nb
		for hi-lo > 1 {
			mid := int(uint(lo+hi) >> 1)
			if cuts[mid] <= life {
				lo = mid
			} else {
				hi = mid
			}
		}
		bin := lo
		w := uint64(p.Weight[i])
		b := w * uint64(p.SizeBytes[i])
		h.Objects[bin] += w
		h.Bytes[bin] += b
		totalObjects += w
		totalBytes += b
	}
	for i := range nb {
		h.ObjectShare[i] = share(h.Objects[i], totalObjects)
		h.ByteShare[i] = share(h.Bytes[i], totalBytes)
	}
	return h, nil
}

// LiveCurve returns the bytes alive at points+1 evenly spaced times of the run, from 0 to
// Meta.EndBytes inclusive: clocks[k] = k·EndBytes/points (rounded down) and live[k] the weighted
// bytes of the objects alive then. As for PeakLiveBytes, an object is alive on [Birth, Death),
// or from Birth on if it is alive at the end. It is exact at those times, takes one pass over
// the records plus a binary search per record, and does not modify p. points must be ≥ 1.
func LiveCurve(p *profile.Profile, points int) (clocks, live []uint64, err error) {
	if p == nil {
		return nil, nil, errors.New("lifetimes: live curve: nil profile")
	}
	if points < 1 {
		return nil, nil, fmt.Errorf("lifetimes: live curve: points %d is not ≥ 1", points)
	}
	end := p.Meta.EndBytes
	clocks = make([]uint64, points+1)
	for k := range clocks {
		clocks[k] = uint64(float64(end) * float64(k) / float64(points))
	}
	clocks[points] = end
	// An object adds its bytes to live[k] for from ≤ k < to, where from is the first clock ≥
	// Birth and to the first clock ≥ Death: a difference array.
	delta := make([]int64, points+2)
	for i := range p.Len() {
		w := int64(p.Weight[i]) * int64(p.SizeBytes[i])
		from, _ := slices.BinarySearch(clocks, p.Birth[i])
		to := points + 1
		if p.Flags[i]&profile.FlagAliveAtEnd == 0 {
			to, _ = slices.BinarySearch(clocks, p.Death[i])
		}
		if from < to {
			delta[from] += w
			delta[to] -= w
		}
	}
	live = make([]uint64, points+1)
	var run int64
	for k := range live {
		run += delta[k]
		live[k] = uint64(max(run, 0))
	}
	return clocks, live, nil
}
