package heapsim

import (
	"errors"
	"math"
	"slices"

	"github.com/gctune/gctune/lifetimes"
)

// ErrOutOfMemory is returned (wrapped) when old space cannot grow enough: a large allocation
// that still fails after the image's full-GC-and-grow protocol (OutOfMemory in the image, §2.3),
// or a tenuring copy that fails after one growth (a fatal VM error, §3.2, rule 11). Both happen
// only with MaxOldSpaceBytes set.
var ErrOutOfMemory = errors.New("heapsim: out of memory")

// Options adjust one run without changing its result.
type Options struct {
	// OnEvent, when set, receives one Event per scavenge, full GC, growth and shrink, in order.
	// It is called synchronously; the Event is only valid during the call.
	OnEvent func(*Event)
}

// Simulate runs the Spur collector of spur-gc-model.md §7 over profile with params and the
// cost model cost, and returns what it measured. It is a pure function: safe to call from many
// goroutines on one shared Profile.
func Simulate(profile *lifetimes.Profile, params Params, cost Cost) (Stats, error) {
	return Run(profile, params, cost, Options{})
}

// Run is Simulate with Options (an event log).
func Run(profile *lifetimes.Profile, params Params, cost Cost, opts Options) (Stats, error) {
	if profile == nil {
		return Stats{}, errors.New("heapsim: nil profile")
	}
	if err := params.Validate(); err != nil {
		return Stats{}, err
	}
	if err := cost.Validate(); err != nil {
		return Stats{}, err
	}
	s := newSim(profile, params, cost, opts)
	err := s.run()
	s.finish()
	return s.st, err
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

type sim struct {
	p      *lifetimes.Profile
	params Params
	cost   Cost
	layout Layout
	onEvt  func(*Event)
	st     Stats

	now         uint64 // the clock: birth of the record being allocated
	cur         int    // index of that record
	thresholdB  uint64 // scavenge threshold, bytes of eden (§1.1)
	survivorB   uint64 // S
	proportion  float64
	edenUsed    uint64
	edenStart   int    // first record that may have objects in eden
	edenStartN  uint32 // objects of edenStart in eden, when edenStart < cur
	curEdenN    uint32 // objects of cur placed in the current eden
	past        []chunk
	future      []chunk
	pastBytes   uint64
	armed       bool  // a tenuring threshold is set for the next scavenge
	thresholdOf int64 // its offset from the past space's start (may be < 0 or > S)
	pastIsLower bool

	segs             []segment
	hint             int // lowest segment small allocations look at
	oldUsed          uint64
	oldCapacity      uint64
	segmentBytes     uint64
	usedAtLastFullGC uint64
	immortalObjects  float64
	mortalObjects    float64
	calendar         [][]oldEntry
	bucketWidth      uint64
	reclaimedUpTo    int // calendar buckets below this are empty
	epoch            uint32
	epochLive        []float64  // old bytes still live (or not yet found dead) by entry epoch
	large            []largeObj // objects allocated straight into old space, in address order

	containers    []lifetimes.Container
	containerOf   map[int32]int32
	containerOld  []uint32 // objects of each container record in old space
	containerNext int      // index into containerSeq of the next container to activate
	containerSeq  []int32  // containers in StoresFromBytes order
	active        []int32
	rsCapacity    float64

	aliveAtEndBytes uint64

	// What the last scavenge cost and kept alive, for the full GC that ran it.
	lastScavengeSeconds   float64
	lastScavengeLive      float64
	lastScavengeLiveBytes uint64

	// soonBytes is the lifetime below which a tenured object counts as short-lived
	// (Stats.TenuredShortLivedBytes): lifetimes.DefaultLongLivedThreshold of the run.
	soonBytes uint64
	// lastScavengeTenuredBytes is what the last scavenge tenured (a full GC's event reports its
	// inner scavenge's).
	lastScavengeTenuredBytes uint64
}

func newSim(p *lifetimes.Profile, params Params, cost Cost, opts Options) *sim {
	l := ComputeLayout(params)
	s := &sim{
		p: p, params: params, cost: cost, layout: l, onEvt: opts.OnEvent,
		thresholdB:  uint64(l.ScavengeThresholdBytes),
		survivorB:   l.SurvivorBytes,
		proportion:  params.TenuringProportion(),
		pastIsLower: true,
		rsCapacity:  InitialRememberedSetEntries,
	}
	// Survivor chunks: at most S / 16 objects fit, but runs of one record are merged, so a few
	// thousand entries is the usual size.
	s.past = make([]chunk, 0, 1024)
	s.future = make([]chunk, 0, 1024)

	end := p.Meta.EndBytes
	s.bucketWidth = end/calendarBuckets + 1
	s.soonBytes = uint64(lifetimes.DefaultLongLivedThreshold * float64(end))
	s.calendar = make([][]oldEntry, calendarBuckets+1)
	s.epochLive = make([]float64, 1, 64)

	// The first segment holds the image plus the initial headroom (§1.5).
	first := roundUp(params.ImageBytes+params.InitialHeadroomBytes+SegmentBridgeBytes, params.PageBytes)
	s.segs = append(s.segs, segment{sizeBytes: first, usedBytes: params.ImageBytes})
	s.segmentBytes = first
	s.oldCapacity = first - SegmentBridgeBytes
	s.oldUsed = params.ImageBytes
	s.immortalObjects = float64(params.ImageBytes) / imageAverageObjectBytes
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

	if len(p.Containers) > 0 {
		s.containers = p.Containers
		s.containerOf = make(map[int32]int32, len(p.Containers))
		s.containerOld = make([]uint32, len(p.Containers))
		s.containerSeq = make([]int32, len(p.Containers))
		for i, c := range p.Containers {
			s.containerOf[c.Record] = int32(i)
			s.containerSeq[i] = int32(i)
		}
		slices.SortStableFunc(s.containerSeq, func(a, b int32) int {
			fa, fb := p.Containers[a].StoresFromBytes, p.Containers[b].StoresFromBytes
			switch {
			case fa < fb:
				return -1
			case fa > fb:
				return 1
			}
			return 0
		})
	}
	return s
}

// imageAverageObjectBytes estimates how many objects the image holds from its size, for the
// marking cost. Assumed: a Pharo 11 image has about 1.2 M objects in 56 MiB (≈ 48 B each).
const imageAverageObjectBytes = 48

func (s *sim) footprint() uint64 { return s.layout.NewSpaceBytes + s.segmentBytes }

// isDirectOld reports whether record r is allocated straight into old space (rule 3).
func (s *sim) isDirectOld(r int) bool {
	return s.p.SizeBytes[r] > MaxNewSpaceObjectBytes || s.p.Flags[r]&lifetimes.FlagOldSpace != 0
}

// dead reports whether record r is dead at the current clock.
func (s *sim) dead(r int) bool {
	return s.p.Death[r] <= s.now && s.p.Flags[r]&lifetimes.FlagAliveAtEnd == 0
}

func (s *sim) run() error {
	p := s.p
	births, sizes, weights, flags := p.Birth, p.SizeBytes, p.Weight, p.Flags
	// The hot loop keeps its totals in locals and takes a division-free path for records that
	// fit in eden whole, which is nearly all of them.
	var allocatedBytes, aliveAtEndBytes uint64
	var allocatedObjects uint64
	defer func() {
		s.st.AllocatedBytes += allocatedBytes
		s.st.AllocatedObjects += float64(allocatedObjects)
		s.aliveAtEndBytes += aliveAtEndBytes
	}()
	for i := range births {
		size := uint64(sizes[i])
		w := weights[i]
		f := flags[i]
		bytes := uint64(w) * size
		allocatedBytes += bytes
		allocatedObjects += uint64(w)
		if f&lifetimes.FlagAliveAtEnd != 0 {
			aliveAtEndBytes += bytes
		}
		if size <= MaxNewSpaceObjectBytes && f&lifetimes.FlagOldSpace == 0 && s.edenUsed+bytes <= s.thresholdB {
			// Rule 4: bump allocation in eden.
			s.edenUsed += bytes
			if i == s.edenStart {
				s.edenStartN = w
			}
			continue
		}
		s.now = births[i]
		s.cur = i
		if size > MaxNewSpaceObjectBytes || f&lifetimes.FlagOldSpace != 0 {
			// Rule 3: large (and pinned) objects go straight to old space.
			for range w {
				if err := s.allocateLarge(i, size); err != nil {
					return err
				}
			}
			continue
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

// scavenge implements §3 (rules 6 and 7): remembered-set scan, past survivors (tenured by age
// below the threshold, §3.3), eden survivors, per-object overflow tenuring (§3.2), then the
// tenuring threshold for the next scavenge and the space swap.
func (s *sim) scavenge(kind scavengeKind) error {
	sizes, weights, deaths, flags := s.p.SizeBytes, s.p.Weight, s.p.Death, s.p.Flags
	now := s.now
	var (
		copiedB, tenuredB, ageB uint64
		copiedN, tenuredN       float64
		futureUsed              uint64
	)
	edenBefore, pastBefore := s.edenUsed, s.pastBytes
	rsEntries, rsSlots := s.rememberedSet()

	s.future = s.future[:0]
	// copyOrTenure copies n objects of record r to future space while they fit and tenures the
	// rest: overflow is decided per object (§3.2).
	copyOrTenure := func(r int32, n uint32, size uint64) error {
		room := (s.survivorB - futureUsed) / size
		k := uint32(min(room, uint64(n)))
		if k > 0 {
			if last := len(s.future) - 1; last >= 0 && s.future[last].rec == r {
				s.future[last].count += k
			} else {
				s.future = append(s.future, chunk{rec: r, count: k})
			}
			futureUsed += uint64(k) * size
			copiedB += uint64(k) * size
			copiedN += float64(k)
		}
		if k < n {
			if err := s.tenure(r, n-k, size); err != nil {
				return err
			}
			tenuredB += uint64(n-k) * size
			tenuredN += float64(n - k)
		}
		return nil
	}

	// Past survivors, in address order (= copy order, which approximates age: §3.1 item 4).
	ageMode := kind == scavengeScheduled && s.armed
	var addr uint64
	for _, c := range s.past {
		size := uint64(sizes[c.rec])
		start := addr
		addr += uint64(c.count) * size
		if deaths[c.rec] <= now && flags[c.rec]&lifetimes.FlagAliveAtEnd == 0 {
			s.st.ReclaimedBytes += uint64(c.count) * size
			continue
		}
		n := c.count
		if ageMode && int64(start) < s.thresholdOf {
			// §3.3: objects whose address lies below the threshold are tenured.
			k := uint32(min((uint64(s.thresholdOf)-start+size-1)/size, uint64(n)))
			if err := s.tenure(c.rec, k, size); err != nil {
				return err
			}
			tenuredB += uint64(k) * size
			ageB += uint64(k) * size
			tenuredN += float64(k)
			n -= k
		}
		if n > 0 {
			if err := copyOrTenure(c.rec, n, size); err != nil {
				return err
			}
		}
	}

	// Eden survivors, in allocation order. Eden objects lie above both survivor spaces, so they
	// are never tenured by age, only by overflow (§3.3). The first record may have started in
	// the previous eden and the current one may be cut by the threshold: their counts are
	// edenStartN and curEdenN, every record in between is whole.
	edenRec := func(r int, n uint32) error {
		if n == 0 || sizes[r] > MaxNewSpaceObjectBytes || flags[r]&lifetimes.FlagOldSpace != 0 {
			return nil
		}
		size := uint64(sizes[r])
		if deaths[r] <= now && flags[r]&lifetimes.FlagAliveAtEnd == 0 {
			s.st.ReclaimedBytes += uint64(n) * size
			return nil
		}
		return copyOrTenure(int32(r), n, size)
	}
	if s.edenStart < s.cur {
		if err := edenRec(s.edenStart, s.edenStartN); err != nil {
			return err
		}
		for r := s.edenStart + 1; r < s.cur; r++ {
			if deaths[r] <= now && flags[r]&lifetimes.FlagAliveAtEnd == 0 {
				if sizes[r] <= MaxNewSpaceObjectBytes && flags[r]&lifetimes.FlagOldSpace == 0 {
					s.st.ReclaimedBytes += uint64(weights[r]) * uint64(sizes[r])
				}
				continue
			}
			if err := edenRec(r, weights[r]); err != nil {
				return err
			}
		}
	}
	if err := edenRec(s.cur, s.curEdenN); err != nil {
		return err
	}

	// Rule 7, §3.3: arm the threshold for the next scavenge if the future space is > 90 % full.
	s.armed = float64(futureUsed) > FutureSpaceFullFraction*float64(s.survivorB)
	s.thresholdOf = int64(math.Round(float64(s.survivorB) * (1 - s.proportion)))
	if s.params.Bug588 {
		// §3.3, bug588: the threshold was computed from the space that was past before the
		// swap, i.e. S below or above the new past space.
		if s.pastIsLower {
			s.thresholdOf -= int64(s.survivorB)
		} else {
			s.thresholdOf += int64(s.survivorB)
		}
	}
	// Swap the survivor spaces (exchangeSurvivorSpaces) and empty eden (doScavenge:).
	s.past, s.future = s.future, s.past
	s.pastBytes = futureUsed
	s.pastIsLower = !s.pastIsLower
	s.edenUsed = 0
	s.edenStart = s.cur
	s.edenStartN = 0
	s.curEdenN = 0

	s.st.CopiedBytes += copiedB
	s.st.CopiedObjects += copiedN
	s.st.TenuredBytes += tenuredB
	s.st.TenuredObjects += tenuredN
	s.st.TenuredByAgeBytes += ageB
	s.st.RSSlotsScanned += rsSlots
	rsSeconds := float64(rsSlots) * s.cost.RSSlotSeconds
	copySeconds := float64(copiedB)*s.cost.CopySecondsPerByte + copiedN*s.cost.CopySecondsPerObject
	tenureSeconds := float64(tenuredB)*s.cost.TenureSecondsPerByte + tenuredN*s.cost.TenureSecondsPerObject
	secs := s.cost.ScavengeFixedSeconds + copySeconds + rsSeconds + tenureSeconds
	s.lastScavengeSeconds = secs
	s.lastScavengeLive = copiedN + tenuredN
	s.lastScavengeLiveBytes = copiedB + tenuredB
	s.lastScavengeTenuredBytes = tenuredB
	if kind == scavengeScheduled {
		s.st.ScavengeSeconds += secs
		s.st.RSScanSeconds += rsSeconds
		s.st.CopySeconds += copySeconds
		s.st.TenureSeconds += tenureSeconds
		if s.onEvt != nil {
			th := int64(-1)
			if s.armed {
				th = max(s.thresholdOf, 0)
			}
			s.onEvt(&Event{
				Kind: EventScavenge, ClockBytes: now, EdenUsedBytes: edenBefore,
				SurvivorBytesBefore: pastBefore, SurvivorBytesAfter: futureUsed,
				RSEntries: rsEntries, RSSlots: rsSlots, TenuredBytes: tenuredB, TenuredByAgeBytes: ageB, ThresholdBytes: th,
				OldUsedBytes: s.oldUsed, FootprintBytes: s.footprint(), Seconds: secs, RSSeconds: rsSeconds,
			})
		}
	}
	return nil
}
