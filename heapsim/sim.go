package heapsim

import (
	"errors"
	"math"

	"github.com/gctune/gctune/profile"
)

// ErrOutOfMemory is returned (wrapped) when old space cannot grow enough: a large allocation
// that still fails after the image's full-GC-and-grow protocol (OutOfMemory in the image, §2.3),
// or a tenuring copy that fails after one growth (a fatal VM error, §3.2, rule 11). Both happen
// only with MaxOldSpaceBytes set.
var ErrOutOfMemory = errors.New("heapsim: out of memory")

// Options adjust one run. OnEvent only observes it; Garbage changes it (a perturbed replica of
// the profiled run, package uncertainty).
type Options struct {
	// OnEvent, when set, receives one Event per scavenge, full GC, growth and shrink, in order.
	// It is called synchronously; the Event is only valid during the call.
	OnEvent func(*Event)
	// Garbage is young allocation the profile does not hold, in AtBytes order: what a later
	// run of the application allocates beside the profiled work (start-up, the UI process,
	// another input). Nil: the profile alone.
	Garbage []Garbage
	// GarbageObjectsPerByte counts the garbage's objects for the mutator's per-object cost:
	// the profile's objects per byte allocated (GarbageRate, or Prepared.GarbageRate with
	// these Options' sizes), given by a caller that runs many simulations of one profile;
	// 0 = computed from the profile at the first burst.
	GarbageObjectsPerByte float64
	// TenuredBytesBySite, when not nil (one entry per Profile.SiteNames), receives the bytes
	// the scavenger copied and then tenured, by the allocation site of the objects
	// (pretenure.go). The caller owns it; Run adds to it.
	TenuredBytesBySite []uint64
	// SizeScale, when neither 0 nor 1, multiplies every object's size, each rounded as
	// ScaledSize rounds it with SizeSeed: the run is that of the profile a perturbed replica
	// allocates (package uncertainty), computed record by record as the run reads the sizes,
	// so that no replica holds a copy of the profile's sizes.
	SizeScale float64
	// SizeSeed seeds the per-object rounding of scaled sizes (ScaledSize).
	SizeSeed uint64
}

// Garbage is a burst of young objects that die at once, allocated just before the first record
// born at or after AtBytes on the profile's clock. It only fills eden (and so moves every later
// scavenge): Bytes plus EdenFraction of the scavenge threshold, a fraction of an eden cycle
// whatever the new-space size. Its bytes count as allocated (mutator time, Stats.GarbageBytes)
// and its objects at the profile's mean object size.
type Garbage struct {
	AtBytes      uint64  `json:"atBytes"`
	Bytes        uint64  `json:"bytes"`
	EdenFraction float64 `json:"edenFraction"`
}

// Simulate runs the Spur collector of docs/spur-model.md §7 over profile with params and the
// cost model cost, and returns what it measured. It is a pure function: safe to call from many
// goroutines on one shared Profile.
func Simulate(profile *profile.Profile, params Params, cost Cost) (Stats, error) {
	return Run(profile, params, cost, Options{})
}

// Run is Simulate with Options (an event log, a replica's garbage and sizes). It prepares
// profile for this one run: a caller that runs many simulations of one profile calls Prepare
// once and Prepared.Run for each.
func Run(profile *profile.Profile, params Params, cost Cost, opts Options) (Stats, error) {
	pp, err := Prepare(profile)
	if err != nil {
		return Stats{}, err
	}
	return pp.Run(params, cost, opts)
}

// chunk is a run of count objects of one profile record lying together in a survivor space.
type chunk struct {
	rec   int32
	count uint32
}

// oldEntry is a run of objects of one record in old space that will die before the end; it
// sits in the death calendar until a full GC finds it dead.
type oldEntry struct {
	rec   int32
	count uint32
	// epochFlags is the full-GC epoch it entered old space in, with tenuredFlag set when a
	// scavenge promoted it (as opposed to a direct old-space allocation).
	epochFlags uint32
}

const (
	tenuredFlag = 1 << 31
	epochMask   = tenuredFlag - 1
	// calendarBuckets is how many slices the death calendar splits the run into.
	calendarBuckets = 1024
	// crumbBytes: a segment whose free tail is smaller than this is skipped by small-object
	// allocation until the next compaction (simplification of free-list reuse, see doc.go).
	crumbBytes = 4096
)

// largeObj is an object allocated straight into old space (rule 3); compaction places these
// one by one because they cannot straddle segments.
type largeObj struct {
	bytes    uint64
	death    uint64
	immortal bool
}

// segment is an old-space segment (§1.5). Compaction keeps each segment's live data at its
// bottom, so its free space is one chunk at the top: sizeBytes − bridge − usedBytes.
type segment struct {
	sizeBytes uint64
	usedBytes uint64
}

func (g *segment) freeBytes() uint64 { return g.sizeBytes - SegmentBridgeBytes - g.usedBytes }

type scavengeKind int

const (
	scavengeScheduled scavengeKind = iota // eden reached the threshold (§2.2)
	scavengeInner                         // inside a full GC: overflow-only tenuring (§3.5 MarkOnTenure)
)

// sim is one run's state, grouped by the part of the heap it describes. Each field states
// the invariant it keeps between two records of the allocation loop.
type sim struct {
	p  *profile.Profile
	pp *Prepared
	// scale is Options.SizeScale (1: the profile's sizes) and sizeSeed Options.SizeSeed:
	// size reads every record's size through them.
	scale    float64
	sizeSeed uint64
	scaled   bool // scale ≠ 1
	params   Params
	cost     Cost
	layout   Layout
	onEvt    func(*Event)
	st       Stats

	// garbage is Options.Garbage with each burst's record index (the first record born at or
	// after it); nextGarbage indexes the next burst to allocate, garbageAt its record index
	// (len(Birth) when none is left: never reached).
	garbage     []Garbage
	garbageRec  []int
	nextGarbage int
	garbageAt   int
	// objectsPerByte caches meanObjectsPerByte (0: not computed yet).
	objectsPerByte float64

	now uint64 // the clock: birth of the record being allocated (or of the last one)
	cur int    // index of that record

	newSpace
	oldSpace
	rs rememberedSet

	// youngSlotsPerObject caches youngPointerSlotsPerObject (< 0: not computed yet).
	youngSlotsPerObject float64
	// aliveAtEndBytes sums the records alive at the end (weighted bytes).
	aliveAtEndBytes uint64
	// soonBytes is the lifetime below which a tenured object counts as short-lived
	// (Stats.TenuredShortLivedBytes): profile.DefaultLongLivedThreshold of the run.
	soonBytes uint64

	// What the last scavenge cost, kept alive and tenured, for the full GC that ran it (a full
	// GC's event reports its inner scavenge's).
	lastScavengeSeconds      float64
	lastScavengeLive         float64
	lastScavengeLiveBytes    uint64
	lastScavengeTenuredBytes uint64

	// yr is the young→young rule's state (youngrefs.go), nil when the profile states no
	// reference: last, so that the fields above keep their places.
	yr *youngRefs
	// tenuredBySite is Options.TenuredBytesBySite when the profile names sites, else nil.
	tenuredBySite []uint64
}

// newSpace is eden and the two survivor spaces (docs/spur-model.md §1.1, §3).
type newSpace struct {
	thresholdB uint64  // scavenge threshold: eden bytes allocated before a scavenge (§1.1)
	survivorB  uint64  // S, each survivor space's size
	proportion float64 // p, the tenuring proportion (§3.4)
	// edenUsed ≤ thresholdB is what eden holds: records edenStart (edenStartN objects of it,
	// when edenStart < cur) through cur (curEdenN objects of it), every record between whole.
	edenUsed   uint64
	edenStart  int
	edenStartN uint32
	curEdenN   uint32
	// past holds the past survivor space's objects in address order; Σ bytes = pastBytes ≤ S.
	// future is scratch for the next scavenge's copies.
	past, future []chunk
	pastBytes    uint64
	// armed: the next scheduled scavenge tenures by age the past objects lying below
	// thresholdOf bytes from the past space's start (may be < 0 or > S in bug588 mode).
	armed       bool
	thresholdOf int64
	pastIsLower bool // the past space is the lower semispace (bug588 mode needs it)
	// sparseEden: the last eden walk found few survivors (walkEden's choice of loop; no
	// bearing on the result).
	sparseEden bool
}

// oldSpace is the segments, the death calendar and the full-GC bookkeeping (§1.5, §4).
type oldSpace struct {
	// segs: Σ sizeBytes = segmentBytes; Σ (sizeBytes − bridge) = oldCapacity; each segment's
	// usedBytes counts its objects and its holes.
	segs         []segment
	hint         int // every segment below it has less than crumbBytes of free tail
	oldUsed      uint64
	oldCapacity  uint64
	segmentBytes uint64
	// holeBytes is free space left between objects by a bounded compaction (§4.3): counted
	// free (oldUsed excludes it), reusable by small objects only, gone at the next complete
	// compaction. holeBytes ≤ Σ usedBytes − oldUsed.
	holeBytes uint64
	// holeFloorBytes is how many live bytes lie below the lowest of those holes: the bounded
	// compaction that left them compacted everything up to its last moved object (§4.3), so
	// the next compaction starts no lower. Meaningful while holeBytes > 0. Simplification:
	// objects tenured into the holes since (takeHoles) do not raise it, though the free lists
	// may have filled the lowest ones; the next compaction may then start a little lower than
	// the VM's and move a little more, never less, and the bytes of the holes stay right.
	holeFloorBytes   float64
	usedAtLastFullGC uint64
	// immortalObjects + mortalObjects is the number of objects in old space.
	immortalObjects float64
	mortalObjects   float64
	// pointerSlots is the number of pointer slots of the objects in old space: what marking
	// scans (byte objects are marked, not scanned, §4.1).
	pointerSlots float64
	// calendar[b] lists the old objects dying in [b, b+1) × bucketWidth; buckets below
	// reclaimedUpTo are empty.
	calendar      [][]oldEntry
	bucketWidth   uint64
	reclaimedUpTo int
	epoch         uint32     // full GCs so far
	epochLive     []float64  // old bytes still live (or not yet found dead) by entry epoch
	large         []largeObj // objects allocated straight into old space, in address order
}

func newSim(pp *Prepared, params Params, cost Cost, opts Options) *sim {
	p := pp.p
	l := ComputeLayout(params)
	s := &sim{
		p: p, pp: pp, params: params, cost: cost, layout: l, onEvt: opts.OnEvent,
		scale: 1, sizeSeed: opts.SizeSeed,
		newSpace: newSpace{
			thresholdB:  uint64(l.ScavengeThresholdBytes),
			survivorB:   l.SurvivorBytes,
			proportion:  params.TenuringProportion(),
			pastIsLower: true,
			sparseEden:  true,
		},
	}
	s.youngSlotsPerObject = -1
	if opts.SizeScale != 0 {
		s.scale = opts.SizeScale
	}
	s.scaled = s.scale != 1
	// Survivor chunks: at most S / 16 objects fit, but runs of one record are merged, so a few
	// thousand entries is the usual size.
	s.past = make([]chunk, 0, 1024)
	s.future = make([]chunk, 0, 1024)

	end := p.Meta.EndBytes
	s.bucketWidth = end/calendarBuckets + 1
	s.soonBytes = uint64(profile.DefaultLongLivedThreshold * float64(end))
	s.calendar = make([][]oldEntry, calendarBuckets+1)
	s.epochLive = make([]float64, 1, 64)

	// The first segment holds the image plus the initial headroom (§1.5).
	first := roundUp(params.ImageBytes+params.InitialHeadroomBytes+SegmentBridgeBytes, params.PageBytes)
	s.segs = append(s.segs, segment{sizeBytes: first, usedBytes: params.ImageBytes})
	s.segmentBytes = first
	s.oldCapacity = first - SegmentBridgeBytes
	s.oldUsed = params.ImageBytes
	s.immortalObjects = float64(params.ImageBytes) / imageAverageObjectBytes
	s.pointerSlots = float64(params.ImageBytes) / 8 * imagePointerSlotShare
	s.epochLive[0] = float64(params.ImageBytes)
	s.usedAtLastFullGC = params.ImageBytes
	s.st.PeakFootprintBytes = s.footprint()
	s.st.PeakOldUsedBytes = s.oldUsed

	// Rule 8: Pharo writes param 6 at session start (or the user's script does, after it),
	// which arms the threshold for the next scavenge at once (§3.4).
	if n := params.SurvivorsToKeep(); n > 0 {
		s.armed = true
		s.thresholdOf = int64(math.Round(float64(s.survivorB) * (1 - s.proportion)))
	}

	s.rs.init(pp)
	s.yr = newYoungRefs(pp.holders)
	s.planGarbage(opts.Garbage)
	s.objectsPerByte = opts.GarbageObjectsPerByte
	if p.Site != nil && len(opts.TenuredBytesBySite) >= len(p.SiteNames) {
		s.tenuredBySite = opts.TenuredBytesBySite
	}
	return s
}

// imageAverageObjectBytes estimates how many objects the image holds from its size, for the
// marking cost. Assumed: a Pharo 11 image has about 1.2 M objects in 56 MiB (≈ 48 B each).
const imageAverageObjectBytes = 48

// imagePointerSlotShare is the share of the image's words that are pointer slots, for the
// marking cost. Assumed: a Pharo image is mostly pointer objects (methods, classes,
// dictionaries, arrays) with headers and byte objects (strings, symbols, bytecodes) taking
// the rest; half is a round guess that only sets the fixed part of every full GC.
const imagePointerSlotShare = 0.5

func (s *sim) footprint() uint64 { return s.layout.NewSpaceBytes + s.segmentBytes }

// isDirectOld reports whether an object of size bytes with record flags f is allocated
// straight into old space (rule 3, profile.AllocatesInOldSpace).
func isDirectOld(size uint64, f uint8) bool {
	return f&profile.FlagOldSpace != 0 || size > profile.MaxNewSpaceObjectBytes
}

// dead reports whether record r is dead at the current clock.
func (s *sim) dead(r int) bool {
	return s.p.Death[r] <= s.now && s.p.Flags[r]&profile.FlagAliveAtEnd == 0
}

func (s *sim) run() error {
	p := s.p
	births, sizes, weights, flags := p.Birth, p.SizeBytes, p.Weight, p.Flags
	scaled := s.scaled
	// The records that fit in eden whole, nearly all of them, go through the leaf loop
	// fillEden (fill.go), which keeps eden's fill and the totals in registers; every other
	// record takes the general path below. edenUsed is written back to s before, and read
	// again after, every call out of the loop.
	var fill edenFill
	fill.used = s.edenUsed
	defer func() {
		s.st.AllocatedBytes += fill.allocatedBytes
		s.st.AllocatedObjects += float64(fill.allocatedObjects)
		s.aliveAtEndBytes += fill.aliveAtEndBytes
	}()
	garbageAt := s.garbageAt // the next burst's record (−1: none), kept in a register
	for i := 0; i < len(births); {
		if i == garbageAt {
			s.edenUsed = fill.used
			for i == garbageAt {
				if err := s.allocateGarbage(i); err != nil {
					return err
				}
				garbageAt = s.garbageAt
			}
			fill.used = s.edenUsed
		}
		if i != s.edenStart {
			// The leaf loop, up to the next burst: the first record of eden (edenStart) is
			// left to the general path, which counts its objects in eden.
			stop := len(births)
			if garbageAt > i {
				stop = garbageAt
			}
			if scaled {
				i, fill = fillEdenScaled(sizes, weights, flags, i, stop, fill, s.thresholdB, s.scale, s.sizeSeed)
			} else {
				i, fill = fillEden(sizes, weights, flags, i, stop, fill, s.thresholdB)
			}
			if i == stop {
				continue
			}
		}
		var size uint64
		if scaled {
			size = s.scaledSize(i)
		} else {
			size = uint64(sizes[i])
		}
		w := weights[i]
		f := flags[i]
		bytes := uint64(w) * size
		fill.allocatedBytes += bytes
		fill.allocatedObjects += uint64(w)
		if f&profile.FlagAliveAtEnd != 0 {
			fill.aliveAtEndBytes += bytes
		}
		if !isDirectOld(size, f) && fill.used+bytes <= s.thresholdB {
			// Rule 4: bump allocation in eden.
			fill.used += bytes
			if i == s.edenStart {
				s.edenStartN = w
			}
			i++
			continue
		}
		s.edenUsed = fill.used
		if err := s.allocateSlow(i, size, w, f); err != nil {
			return err
		}
		fill.used = s.edenUsed
		i++
	}
	s.edenUsed = fill.used
	return nil
}

// allocateSlow allocates the w objects of size bytes of record i (flags f) that do not fit
// in eden whole: straight into old space (rule 3), or up to the scavenge threshold and on
// after the scavenges they cause (rule 4).
func (s *sim) allocateSlow(i int, size uint64, w uint32, f uint8) error {
	births := s.p.Birth
	s.now = births[i]
	s.cur = i
	if isDirectOld(size, f) {
		if f&profile.FlagPretenured != 0 && size <= profile.MaxNewSpaceObjectBytes {
			return s.allocatePretenured(i, size, w) // pretenure.go
		}
		// Rule 3: large (and pinned) objects go straight to old space.
		for range w {
			if err := s.allocateLarge(i, size); err != nil {
				return err
			}
		}
		return nil
	}
	// Rule 4 at the threshold: objects fill eden up to it one by one.
	s.curEdenN = 0
	remaining := w
	for {
		k := (s.thresholdB - s.edenUsed) / size
		if k > uint64(remaining) {
			k = uint64(remaining)
		}
		s.edenUsed += k * size
		s.curEdenN += uint32(k)
		remaining -= uint32(k)
		if remaining == 0 {
			break
		}
		// The object that would cross the threshold goes to old space when a free chunk
		// fits it (§2.2 item 2); otherwise it is retried in eden after the scavenge.
		if s.fitOld(i, size, 1, false) {
			s.st.DirectOldObjects++
			s.st.DirectOldBytes += size
			remaining--
		}
		if err := s.scheduledScavenge(); err != nil {
			return err
		}
		if remaining == 0 {
			break
		}
	}
	if i == s.edenStart {
		s.edenStartN = s.curEdenN
	}
	return nil
}

// scheduledScavenge runs a scavenge scheduled by eden (or the remembered set), then the
// after-scavenge policy of §4.2 (rule 9): the ratio test, then top-up growth to the headroom.
func (s *sim) scheduledScavenge() error {
	if err := s.scavenge(scavengeScheduled); err != nil {
		return err
	}
	s.st.Scavenges++
	// Rule 9, §4.2: (used − usedAtLastFullGC) / usedAtLastFullGC ≥ ratio, written without the
	// division; usedAtLastFullGC is never 0 because the image is old and live.
	if float64(s.oldUsed)-float64(s.usedAtLastFullGC) >= s.params.FullGCRatio*float64(s.usedAtLastFullGC) {
		if err := s.fullGC(CauseRatio, 0); err != nil {
			return err
		}
	}
	for s.oldCapacity-s.oldUsed < s.params.GrowthHeadroomBytes {
		if !s.grow(0) {
			break
		}
	}
	return nil
}
