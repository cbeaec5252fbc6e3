package spec

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gctune/gctune/profile"
)

// ErrTooManyRecords is wrapped by the error Generate returns when a spec, at the requested
// resolution, would produce more records than GenerateOptions.MaxRecords allows.
var ErrTooManyRecords = errors.New("spec: too many records")

// DefaultMaxRecords is the record budget Generate enforces when GenerateOptions.MaxRecords is
// 0: 50 M records, about 1.5 GB of Profile.
const DefaultMaxRecords = 50_000_000

// ProfilerSpec is the Meta.Profiler of generated profiles.
const ProfilerSpec = "gctune-spec"

// GenerateOptions are the settings of Spec.Generate.
type GenerateOptions struct {
	// Seed seeds every random draw. The same spec, seed and resolution give a bit-identical
	// Profile.
	Seed uint64
	// Resolution is the number of records per real object in [1e-9, 1]; each mix record then
	// stands for round(1/Resolution) objects. 0 = the spec's resolution (1 if it has none).
	Resolution float64
	// MaxRecords refuses, with ErrTooManyRecords, a generation that would produce more
	// records. 0 = DefaultMaxRecords.
	MaxRecords int
}

// Generate produces the Profile the spec describes, deterministically from opts.Seed.
//
// The clock is bytes allocated since the start: each record is born at the running total of
// the weighted bytes before it (weight × size), and the total then grows by its own weighted
// bytes. Phases run in order; a phase's mix records are drawn (class by share, size, lifetime)
// while they fit in its allocation, and its large, growing and container objects (weight 1
// each) are allocated when the mix allocation reaches their scheduled point. A death is the
// birth plus the sampled lifetime, clamped to the end of the run; objects reaching the end are
// flagged FlagAliveAtEnd. Records come out sorted by birth.
func (s *Spec) Generate(opts GenerateOptions) (*profile.Profile, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	g, err := newGenPlan(s, opts)
	if err != nil {
		return nil, err
	}
	return g.run()
}

// EstimateRecords returns about how many records Generate produces at resolution (0 = the
// spec's), without generating: each phase's mix allocation divided by the expected weighted
// bytes of a record (from the size distributions' quantiles, no random draws), plus one record
// per large, growing and container object. It is +Inf for an invalid spec or resolution.
func (s *Spec) EstimateRecords(resolution float64) float64 {
	if s.Validate() != nil {
		return math.Inf(1)
	}
	return s.estimateRecords(resolution)
}

// estimateRecords is EstimateRecords for a validated spec.
func (s *Spec) estimateRecords(resolution float64) float64 {
	res := s.generationResolution(resolution)
	if !(res >= specMinResolution && res <= 1) {
		return math.Inf(1)
	}
	weight := specWeight(res)
	total := 0.0
	for i := range s.Phases {
		ph := &s.Phases[i]
		total += float64(s.phaseEventCount(i))
		mix := float64(s.phaseMixBytes(i))
		if mix == 0 || len(ph.Mix) == 0 {
			continue
		}
		entries := s.mixEntries(i, weight, res, nil)
		total += mix / drawBytes(entries)
	}
	return total
}

func (s *Spec) generationResolution(res float64) float64 {
	if res == 0 {
		res = s.Resolution
	}
	if res == 0 {
		res = 1
	}
	return res
}

// specWeight is the weight of a record at resolution res: round(1/res), at least 1.
func specWeight(res float64) uint32 {
	w := math.Round(1 / res)
	if w < 1 {
		return 1
	}
	if w > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(w)
}

// phaseEventCount is the number of weight-1 records of phase i (large, growing, containers).
func (s *Spec) phaseEventCount(i int) int {
	ph := &s.Phases[i]
	n := 0
	for _, l := range ph.Large {
		n += l.Count
	}
	for _, g := range ph.Growing {
		f := g.Factor
		if f == 0 {
			f = 2
		}
		n += g.Count * growSteps(g.FromBytes, g.ToBytes, f)
	}
	for _, c := range ph.Containers {
		n += max(c.Count, 1)
	}
	return n
}

// The generator's random streams: one PCG per phase and purpose, so that changing one phase
// of a spec does not reshuffle the draws of the others, and changing lifetimes does not move
// any birth or size.
const (
	streamPlan      = 1 // sizes and placements of large, growing and container objects
	streamSizes     = 2 // mix records' sizes
	streamEvents    = 3 // lifetimes of large, growing and container objects
	streamPick      = 4 // which mix entry each record draws from
	streamLifetimes = 5 // mix records' lifetimes
	streamSalt      = 0x9e3779b97f4a7c15
)

func genSource(seed uint64, phase, stream int) *rand.PCG {
	return rand.NewPCG(seed^streamSalt, uint64(phase)<<8|uint64(stream))
}

// genMixEntry is one mix entry ready to draw.
type genMixEntry struct {
	class     uint32
	weight    uint32
	fixedSize uint32  // the size when it is fixed (no draw), else 0
	prob      float64 // probability that a draw picks this entry (share / weight, normalised)
	size      *genSampler
	life      *genSampler
	store     *StoredInto // nil: stored into no container
	heldBy    int         // the entry whose newest object holds this one's (Mix.HeldBy); −1: none
	holds     bool        // some entry is held by this one's objects: remember its newest record
	site      uint32      // 1 + the site's index (Mix.Site); 0: none named
}

// drawBytes is the expected weighted bytes of one mix draw.
func drawBytes(entries []genMixEntry) float64 {
	b := 0.0
	for _, e := range entries {
		b += e.prob * float64(e.weight) * e.size.meanSizeBytes()
	}
	return b
}

// mixEntries prepares phase i's mix for g, or only for estimating when g is nil (no sources,
// no class indices, no phase ends).
func (s *Spec) mixEntries(i int, weight uint32, res float64, g *genPlan) []genMixEntry {
	ph := &s.Phases[i]
	var sizeSrc, lifeSrc rand.Source
	var classIdx []uint32
	if g != nil {
		sizeSrc, lifeSrc = genSource(g.seed, i, streamSizes), genSource(g.seed, i, streamLifetimes)
		classIdx = g.classIdx
	}
	entries := make([]genMixEntry, len(ph.Mix))
	total := 0.0
	for j := range ph.Mix {
		m := &ph.Mix[j]
		ci := slices.IndexFunc(s.Classes, func(c Class) bool { return c.Name == m.Class })
		e := genMixEntry{weight: weight}
		if classIdx != nil {
			e.class = classIdx[ci]
		}
		if m.Resolution > res {
			e.weight = specWeight(m.Resolution)
		}
		size := m.Size
		if size == nil {
			size = s.Classes[ci].Size
		}
		e.size = newSampler(size, false, sizeSrc, 0)
		if e.size.kind == genFixed {
			e.fixedSize = e.size.sizeBytes()
		}
		var phaseEnd uint64
		if g != nil {
			phaseEnd = g.phaseEndOf(&m.Lifetime, i)
		}
		e.life = newSampler(&m.Lifetime, true, lifeSrc, phaseEnd)
		e.store = m.StoredInto
		if g != nil {
			e.site = g.siteOf(m.Site)
		}
		e.heldBy = slices.IndexFunc(ph.Mix, func(h Mix) bool { return m.HeldBy != "" && h.Class == m.HeldBy })
		e.prob = m.Share / float64(e.weight)
		total += e.prob
		entries[j] = e
	}
	for j := range entries {
		entries[j].prob /= total
		if h := entries[j].heldBy; h >= 0 {
			entries[h].holds = true
		}
	}
	return entries
}

// genEvent is one weight-1 record of a phase: a large object, a growing array or a container.
type genEvent struct {
	offsetBytes  uint64 // point of the phase's mix allocation at which it is allocated
	plannedBirth uint64 // its birth if the mix allocation hit offsetBytes exactly
	sizeBytes    uint32
	class        uint32
	flags        uint8
	lifeSpec     *Dist       // its lifetime (zero Kind: until-end)
	life         *genSampler // nil when deathAt applies
	deathAt      uint64      // growing arrays replaced by a successor: the successor's planned birth
	container    uint8       // containerNone, containerPhase, containerLife or containerNamed
	chain        int32       // growing arrays: the collection's id (≥ 0); −1 otherwise
	name         string      // the container name mix entries store into ("" = none)
	immediates   float32     // Container.ImmediateFraction
	site         uint32      // 1 + the site's index; 0: none named
}

const (
	containerNone  uint8 = iota
	containerPhase       // receives unlisted young stores until the end of its phase
	containerLife        // … until its death
	containerNamed       // receives only the stores mix entries name it for
)

// genGroup is a named container: the containers emitted under the name.
type genGroup struct {
	members []int32 // container indices, in emission order
}

// genPendingStore is a record to store into a named container once every container exists.
type genPendingStore struct {
	record int32
	store  *StoredInto
}

// genPhase is one phase ready to generate.
type genPhase struct {
	startBytes, endBytes, mixBytes uint64
	entries                        []genMixEntry
	pick                           aliasTable // which entry a record draws from
	// heldBy: some entry states a holder (Mix.HeldBy), so runMix tracks each holding
	// entry's newest record.
	heldBy bool
	events []genEvent
}

// genPlan is everything Generate decides before drawing mix records: weights, the phases'
// extents on the clock, the large, growing and container objects with their sizes and
// scheduled points, and the record budget.
type genPlan struct {
	spec       *Spec
	seed       uint64
	resolution float64
	weight     uint32
	maxRecords int
	endBytes   uint64
	builder    profile.Builder
	classIdx   []uint32
	phases     []genPhase
	estimate   float64
	// groups maps a container name to its containers; stores maps a Store to its StoredIn
	// value; chainLast is the last container of each growing chain.
	groups    map[string]*genGroup
	stores    map[profile.Store]uint16
	chainLast map[int32]int32
	pending   []genPendingStore
}

func newGenPlan(s *Spec, opts GenerateOptions) (*genPlan, error) {
	res := s.generationResolution(opts.Resolution)
	if !(res >= specMinResolution && res <= 1) {
		return nil, fmt.Errorf("spec: generate %s: resolution %v is not a number of records per real object in [%g, 1]", s.Name, opts.Resolution, specMinResolution)
	}
	maxRecords := opts.MaxRecords
	if maxRecords <= 0 {
		maxRecords = DefaultMaxRecords
	}
	g := &genPlan{spec: s, seed: opts.Seed, resolution: res, weight: specWeight(res), maxRecords: maxRecords}
	g.estimate = s.estimateRecords(res)
	if g.estimate > float64(maxRecords) {
		return nil, fmt.Errorf("%w: workload %s at resolution %g would produce about %.3g records, more than the %d allowed: use a coarser resolution (e.g. %.2g)",
			ErrTooManyRecords, s.Name, res, g.estimate, maxRecords, suggestResolution(res, g.estimate, maxRecords))
	}
	// Intern the classes in declaration order, so the class table follows the spec.
	g.classIdx = make([]uint32, len(s.Classes))
	var pointerFree []bool
	for i, c := range s.Classes {
		g.classIdx[i] = g.builder.Class(c.Name)
		if c.Pointers != nil && pointerFree == nil {
			pointerFree = make([]bool, len(s.Classes))
		}
	}
	if pointerFree != nil {
		// Some class says whether it holds pointers: record every class's answer.
		for i, c := range s.Classes {
			pointerFree[g.classIdx[i]] = profile.IsByteClassName(c.Name)
			if c.Pointers != nil {
				pointerFree[g.classIdx[i]] = !*c.Pointers
			}
		}
		g.builder.SetPointerFree(pointerFree)
	}
	g.groups = make(map[string]*genGroup)
	g.stores = make(map[profile.Store]uint16)
	g.chainLast = make(map[int32]int32)
	// Plan the events and the phases' extents.
	g.phases = make([]genPhase, len(s.Phases))
	var clock uint64
	for i := range s.Phases {
		ph := &g.phases[i]
		ph.startBytes = clock
		ph.mixBytes = s.phaseMixBytes(i)
		ph.events = g.planEvents(i, ph.mixBytes)
		length := ph.mixBytes
		for _, e := range ph.events {
			length += uint64(e.sizeBytes)
		}
		ph.endBytes = ph.startBytes + length
		clock = ph.endBytes
	}
	g.endBytes = clock
	// Now that every phase end is known: planned births, growing deaths, samplers.
	for i := range s.Phases {
		ph := &g.phases[i]
		g.finishEvents(i, ph)
		if ph.mixBytes > 0 {
			ph.entries = s.mixEntries(i, g.weight, res, g)
			ph.heldBy = slices.ContainsFunc(ph.entries, func(e genMixEntry) bool { return e.heldBy >= 0 })
			probs := make([]float64, len(ph.entries))
			for j, e := range ph.entries {
				probs[j] = e.prob
			}
			ph.pick = newAliasTable(probs)
		}
	}
	return g, nil
}

func suggestResolution(res, estimate float64, maxRecords int) float64 {
	return res * float64(maxRecords) / estimate / 2
}

// phaseEndOf resolves an until-phase-end lifetime to the end of its phase (the current one
// when the lifetime names none). Other kinds return 0.
func (g *genPlan) phaseEndOf(d *Dist, current int) uint64 {
	if d.Kind != distUntilPhaseEnd {
		return 0
	}
	j := current
	if d.Phase != "" {
		j = slices.IndexFunc(g.spec.Phases, func(p Phase) bool { return p.Name == d.Phase })
	}
	return g.phases[j].endBytes
}

func (g *genPlan) classOf(name string) uint32 {
	return g.classIdx[slices.IndexFunc(g.spec.Classes, func(c Class) bool { return c.Name == name })]
}

func (g *genPlan) classSize(name string) *Dist {
	return g.spec.Classes[slices.IndexFunc(g.spec.Classes, func(c Class) bool { return c.Name == name })].Size
}

// placements returns count points in [0, mixBytes] for a placement.
func placements(at string, count int, mixBytes uint64, r *rand.Rand) []uint64 {
	out := make([]uint64, count)
	for k := range out {
		switch at {
		case "start":
			out[k] = 0
		case "end":
			out[k] = mixBytes
		case "random":
			out[k] = uint64(r.Float64() * float64(mixBytes))
		default: // even
			out[k] = uint64((float64(k) + 0.5) / float64(count) * float64(mixBytes))
		}
	}
	if at == "random" {
		slices.Sort(out)
	}
	return out
}

// planEvents draws the sizes and points of phase i's large, growing and container objects
// (lifetimes are attached by finishEvents) and returns them sorted by point.
func (g *genPlan) planEvents(i int, mixBytes uint64) []genEvent {
	ph := &g.spec.Phases[i]
	src := genSource(g.seed, i, streamPlan)
	r := rand.New(src)
	events := make([]genEvent, 0, g.spec.phaseEventCount(i))
	for li := range ph.Large {
		l := &ph.Large[li]
		size := l.Size
		if size == nil {
			size = g.classSize(l.Class)
		}
		sizer := newSampler(size, false, src, 0)
		var points []uint64
		if l.EveryBytes != 0 {
			points = make([]uint64, l.Count)
			for k := range points {
				points[k] = uint64(k+1) * l.EveryBytes
			}
		} else {
			points = placements(l.At, l.Count, mixBytes, r)
		}
		class := g.classOf(l.Class)
		for _, at := range points {
			sz := sizer.sizeBytes()
			var flags uint8
			if sz <= profile.MaxNewSpaceObjectBytes {
				flags = profile.FlagOldSpace
			}
			events = append(events, genEvent{offsetBytes: at, sizeBytes: sz, class: class, flags: flags, lifeSpec: &l.Lifetime, chain: -1, site: g.siteOf(l.Site)})
		}
	}
	chain := int32(0)
	for gi := range ph.Growing {
		gr := &ph.Growing[gi]
		f := gr.Factor
		if f == 0 {
			f = 2
		}
		sizes := growSizes(gr.FromBytes, gr.ToBytes, f)
		fill := gr.FillBytes
		if fill == 0 {
			fill = gr.ToBytes
		}
		class := g.classOf(gr.Class)
		for range gr.Count {
			for j, sz := range sizes {
				var at uint64
				if j > 0 {
					at = uint64(float64(sizes[j-1]) / float64(fill) * float64(mixBytes))
				}
				ct := containerNone
				switch {
				case gr.Container:
					ct = containerPhase
				case gr.Name != "":
					ct = containerNamed
				}
				events = append(events, genEvent{offsetBytes: at, sizeBytes: roundSize(float64(sz)), class: class, container: ct, lifeSpec: &gr.Lifetime, chain: chain, name: gr.Name, site: g.siteOf(gr.Site)})
			}
			chain++
		}
	}
	for ci := range ph.Containers {
		c := &ph.Containers[ci]
		var sizer *genSampler
		switch {
		case c.Slots != 0:
			sizer = &genSampler{kind: genFixed, value: float64(profile.ObjectBytesForSlots(uint64(c.Slots))), lo: profile.MinObjectBytes, hi: specMaxObjectBytes}
		case c.SizeBytes != 0:
			sizer = &genSampler{kind: genFixed, value: float64(c.SizeBytes), lo: profile.MinObjectBytes, hi: specMaxObjectBytes}
		default:
			sizer = newSampler(g.classSize(c.Class), false, src, 0)
		}
		at := c.At
		if at == "" {
			at = "start"
		}
		ct := containerPhase
		switch c.Receives {
		case "life":
			ct = containerLife
		case "none":
			ct = containerNamed
		}
		class := g.classOf(c.Class)
		for _, p := range placements(at, max(c.Count, 1), mixBytes, r) {
			sz := sizer.sizeBytes()
			var flags uint8
			if c.OldSpace && sz <= profile.MaxNewSpaceObjectBytes {
				flags = profile.FlagOldSpace
			}
			events = append(events, genEvent{offsetBytes: p, sizeBytes: sz, class: class, flags: flags, container: ct, lifeSpec: &c.Lifetime, chain: -1, name: c.Name, immediates: float32(c.Immediates), site: g.siteOf(c.Site)})
		}
	}
	slices.SortStableFunc(events, func(a, b genEvent) int { return cmp.Compare(a.offsetBytes, b.offsetBytes) })
	return events
}

// finishEvents sets the events' planned births, the deaths of replaced growing arrays and
// the lifetime samplers, once every phase's extent is known.
func (g *genPlan) finishEvents(i int, ph *genPhase) {
	src := genSource(g.seed, i, streamEvents)
	untilEnd := &Dist{Kind: distUntilEnd}
	samplers := make(map[*Dist]*genSampler)
	var extras uint64
	lastOfChain := make(map[int32]int)
	for k := range ph.events {
		e := &ph.events[k]
		e.plannedBirth = ph.startBytes + e.offsetBytes + extras
		extras += uint64(e.sizeBytes)
		d := e.lifeSpec
		if d.Kind == "" {
			d = untilEnd
		}
		life, ok := samplers[d]
		if !ok {
			life = newSampler(d, true, src, g.phaseEndOf(d, i))
			samplers[d] = life
		}
		e.life = life
		if e.chain >= 0 {
			if prev, ok := lastOfChain[e.chain]; ok {
				// A growing array dies when its successor is allocated.
				ph.events[prev].deathAt = e.plannedBirth
				ph.events[prev].life = nil
			}
			lastOfChain[e.chain] = k
		}
	}
}

// run draws the records.
func (g *genPlan) run() (*profile.Profile, error) {
	s := g.spec
	b := &g.builder
	b.Grow(int(math.Min(g.estimate*1.01+64, float64(g.maxRecords))))
	var weighted uint64
	for i := range g.phases {
		ph := &g.phases[i]
		clock, ev := ph.startBytes, 0
		if ph.mixBytes > 0 {
			var err error
			clock, ev, err = g.runMix(ph, genSource(g.seed, i, streamPick))
			if err != nil {
				return nil, err
			}
		}
		for ; ev < len(ph.events); ev++ {
			clock = g.emit(ph, &ph.events[ev], clock)
		}
		if b.Len() > g.maxRecords {
			return nil, g.tooMany()
		}
		weighted += clock - ph.startBytes
	}
	if err := g.resolveStores(); err != nil {
		return nil, err
	}
	meta := profile.Meta{
		Source:              s.Origin(),
		Profiler:            ProfilerSpec,
		EndBytes:            g.endBytes,
		TotalAllocatedBytes: weighted,
		RunSeconds:          s.Reported.RunSeconds,
		SamplingRate:        1 / float64(g.weight),
		ReportedScavenges:   s.Reported.Scavenges,
		ReportedFullGCs:     s.Reported.FullGCs,
	}
	p, err := b.Build(meta)
	if err != nil {
		return nil, fmt.Errorf("spec: generate %s: %w", s.Name, err)
	}
	return p, nil
}

func (g *genPlan) tooMany() error {
	return fmt.Errorf("%w: workload %s at resolution %g produced more than the %d records allowed: use a coarser resolution",
		ErrTooManyRecords, g.spec.Name, g.resolution, g.maxRecords)
}

// runMix draws phase ph's mix records, allocating its events as the mix allocation reaches
// their points, until the next record would not fit in the phase's allocation. It returns the
// clock and the index of the first event not yet allocated.
func (g *genPlan) runMix(ph *genPhase, pick rand.Source) (clock uint64, ev int, err error) {
	b := &g.builder
	end := g.endBytes
	entries := ph.entries
	single := len(entries) == 1
	budget := g.maxRecords
	clock = ph.startBytes
	var mixDone uint64
	nextEvent := uint64(math.MaxUint64)
	if len(ph.events) > 0 {
		nextEvent = ph.events[0].offsetBytes
	}
	var newest []int // per entry, its newest record (−1: none yet), when the phase states holders
	if ph.heldBy {
		newest = make([]int, len(entries))
		for j := range newest {
			newest[j] = -1
		}
	}
	for {
		for mixDone >= nextEvent {
			clock = g.emit(ph, &ph.events[ev], clock)
			ev++
			nextEvent = math.MaxUint64
			if ev < len(ph.events) {
				nextEvent = ph.events[ev].offsetBytes
			}
		}
		j := 0
		if !single {
			j = ph.pick.index(pick.Uint64())
		}
		e := &entries[j]
		size := e.fixedSize
		if size == 0 {
			size = e.size.sizeBytes()
		}
		wb := uint64(e.weight) * uint64(size)
		if mixDone+wb > ph.mixBytes {
			return clock, ev, nil
		}
		var death uint64
		var flags uint8
		switch e.life.kind { // the commonest lifetimes, without a call
		case genImmediate:
			death = clock
		case genUntilEnd:
			death, flags = end, profile.FlagAliveAtEnd
		default:
			death, flags = e.life.death(clock, end)
		}
		idx := b.Add(e.class, size, clock, death, e.weight, flags)
		if e.site != 0 {
			b.SetSite(idx, e.site-1)
		}
		if idx >= budget {
			return 0, 0, g.tooMany()
		}
		if e.store != nil {
			g.pending = append(g.pending, genPendingStore{record: int32(idx), store: e.store})
		}
		if ph.heldBy {
			g.holdRecord(ph, newest, j, idx, clock)
		}
		clock += wb
		mixDone += wb
	}
}

// holdRecord states that record idx of phase ph's entry j, born at clock, is held by the
// newest record of its holder entry when that one is still alive (Mix.HeldBy), and notes idx
// as entry j's newest when j holds others.
func (g *genPlan) holdRecord(ph *genPhase, newest []int, j, idx int, clock uint64) {
	e := &ph.entries[j]
	if e.heldBy >= 0 {
		if h := newest[e.heldBy]; h >= 0 {
			if _, death, aliveAtEnd := g.builder.Lifetime(h); death > clock || aliveAtEnd {
				g.builder.SetHeldBy(idx, h)
			}
		}
	}
	if e.holds {
		newest[j] = idx
	}
}

// emit adds one event's record (and its Container) born at clock and returns the new clock.
func (g *genPlan) emit(ph *genPhase, e *genEvent, clock uint64) uint64 {
	b := &g.builder
	death, flags := e.deathAt, e.flags
	if e.life != nil {
		var f uint8
		death, f = e.life.death(clock, g.endBytes)
		flags |= f
	} else if death < clock {
		death = clock
	}
	idx := b.Add(e.class, e.sizeBytes, clock, death, 1, flags)
	if e.site != 0 {
		b.SetSite(idx, e.site-1)
	}
	c := profile.Container{Record: int32(idx), StoresFromBytes: clock, ImmediateFraction: e.immediates}
	switch e.container {
	case containerNone:
		return clock + uint64(e.sizeBytes)
	case containerPhase:
		c.StoresUntilBytes = min(death, ph.endBytes)
	case containerLife:
		c.StoresUntilBytes = death
	case containerNamed:
		c.StoresUntilBytes = clock // no unlisted stores: an empty window
	}
	ci := int32(b.NumContainers())
	b.AddContainer(c)
	if e.chain >= 0 {
		// A growing array hands its references to the next one, which copies its slots.
		if prev, ok := g.chainLast[e.chain]; ok {
			b.SetSuccessor(int(prev), int(ci))
		}
		g.chainLast[e.chain] = ci
	}
	if e.name != "" {
		gr := g.groups[e.name]
		if gr == nil {
			gr = &genGroup{}
			g.groups[e.name] = gr
		}
		gr.members = append(gr.members, ci)
	}
	return clock + uint64(e.sizeBytes)
}

// resolveStores gives every pending record its Store: the newest container of the name alive
// when the store happens (the collection being filled: a growing collection's current array,
// the last of a containers entry's objects allocated so far), with the part of the life it
// covers. A record stored when no container of the name is alive is stored nowhere.
func (g *genPlan) resolveStores() error {
	b := &g.builder
	alive := func(ci int32, t uint64) bool {
		birth, death, aliveAtEnd := b.Lifetime(b.ContainerRecord(int(ci)))
		return birth <= t && (t < death || aliveAtEnd)
	}
	for _, ps := range g.pending {
		st := ps.store
		gr := g.groups[st.Container]
		if gr == nil {
			continue
		}
		birth, death, _ := b.Lifetime(int(ps.record))
		key := profile.Store{FromFraction: float32(st.From), ForFraction: float32(st.For)}
		if key.ForFraction == 0 {
			key.ForFraction = 1 - key.FromFraction
		}
		t := birth + uint64(st.From*float64(death-birth))
		if st.At != "" {
			key = profile.Store{AtBytes: max(g.phaseStart(st.At), 1)}
			t = max(birth, key.AtBytes)
		}
		key.Container = -1
		for k := len(gr.members) - 1; k >= 0; k-- {
			if alive(gr.members[k], t) {
				key.Container = gr.members[k]
				break
			}
		}
		if key.Container < 0 {
			continue
		}
		v, ok := g.stores[key]
		if !ok {
			if len(g.stores) >= math.MaxUint16 {
				return fmt.Errorf("spec: generate %s: more than %d distinct stores into containers", g.spec.Name, math.MaxUint16)
			}
			v = b.AddStore(key)
			g.stores[key] = v
		}
		b.SetStoredIn(int(ps.record), v)
	}
	g.pending = nil
	return nil
}

// phaseStart is the clock at which the named phase starts.
func (g *genPlan) phaseStart(name string) uint64 {
	return g.phases[slices.IndexFunc(g.spec.Phases, func(p Phase) bool { return p.Name == name })].startBytes
}

// siteOf interns a spec's site name (profile.NormalSiteName) and returns 1 + its index, 0 for
// none.
func (g *genPlan) siteOf(name string) uint32 {
	if name == "" {
		return 0
	}
	return g.builder.Site(profile.NormalSiteName(name)) + 1
}
