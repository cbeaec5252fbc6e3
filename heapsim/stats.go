package heapsim

// FullGCCause says why a full GC ran (docs/spur-model.md §4.1).
type FullGCCause int

const (
	// CauseRatio: the ratio test after a scheduled scavenge (§4.2).
	CauseRatio FullGCCause = iota
	// CauseLargeAlloc: an old-space allocation found no free chunk and the image's
	// handleFailingBasicNew: protocol called Smalltalk garbageCollect (§2.3).
	CauseLargeAlloc
	// CauseExplicit: the application asked for one (Smalltalk garbageCollect, a snapshot).
	CauseExplicit
)

func (c FullGCCause) String() string {
	switch c {
	case CauseRatio:
		return "ratio"
	case CauseLargeAlloc:
		return "large-alloc"
	case CauseExplicit:
		return "explicit"
	}
	return "unknown"
}

// Stats is what one simulated run measured. Counts of objects are float64 because profile
// records stand for weighted numbers of real objects; they are whole numbers in practice.
type Stats struct {
	// Scavenges counts scheduled scavenges (VM parameter 9); the scavenge inside a full GC is
	// not counted (§3.7).
	Scavenges int `json:"scavenges"`
	// FullGCs counts full GCs (VM parameter 7), split by cause below.
	FullGCs           int `json:"fullGCs"`
	FullGCsRatio      int `json:"fullGCsRatio"`
	FullGCsLargeAlloc int `json:"fullGCsLargeAlloc"`
	FullGCsExplicit   int `json:"fullGCsExplicit"`

	// AllocatedObjects and AllocatedBytes are what the mutator allocated (weighted records).
	AllocatedObjects float64 `json:"allocatedObjects"`
	AllocatedBytes   uint64  `json:"allocatedBytes"`
	// GarbageBytes is the part of AllocatedBytes that Options.Garbage added (0 for the
	// profile alone).
	GarbageBytes uint64 `json:"garbageBytes,omitempty"`
	// DirectOldObjects and DirectOldBytes were allocated straight into old space: large or
	// pinned objects, and the objects that crossed the scavenge threshold (§2.2).
	DirectOldObjects float64 `json:"directOldObjects"`
	DirectOldBytes   uint64  `json:"directOldBytes"`
	// CopiedObjects and CopiedBytes were copied to a future survivor space.
	CopiedObjects float64 `json:"copiedObjects"`
	CopiedBytes   uint64  `json:"copiedBytes"`
	// TenuredObjects and TenuredBytes were promoted by scavenges (VM parameter 11 counts
	// objects), by age or overflow.
	TenuredObjects float64 `json:"tenuredObjects"`
	TenuredBytes   uint64  `json:"tenuredBytes"`
	// TenuredByAgeBytes is the part of TenuredBytes tenured by age (§3.3); the rest overflowed.
	TenuredByAgeBytes uint64 `json:"tenuredByAgeBytes"`
	// TenuredGarbageObjects and TenuredGarbageBytes are tenured objects that were already dead
	// at the first full GC after their tenuring: premature tenuring.
	TenuredGarbageObjects float64 `json:"tenuredGarbageObjects"`
	TenuredGarbageBytes   uint64  `json:"tenuredGarbageBytes"`
	// TenuredShortLivedObjects and TenuredShortLivedBytes are tenured objects that die within
	// profile.DefaultLongLivedThreshold (5 %) of the run after their tenuring: short-lived
	// objects that the survivor spaces could not hold, which only a full GC can reclaim. Unlike
	// TenuredGarbageBytes it does not depend on when full GCs run.
	TenuredShortLivedObjects float64 `json:"tenuredShortLivedObjects"`
	TenuredShortLivedBytes   uint64  `json:"tenuredShortLivedBytes"`
	// ReclaimedBytes counts bytes freed: dead eden and survivor objects at scavenges, dead old
	// objects at full GCs.
	ReclaimedBytes uint64 `json:"reclaimedBytes"`
	// RSSlotsScanned sums, over scavenges, the slots of every remembered-set entry (§3.6);
	// RSPointerSlotsScanned is the part holding object pointers (the rest are immediates).
	RSSlotsScanned        uint64 `json:"rsSlotsScanned"`
	RSPointerSlotsScanned uint64 `json:"rsPointerSlotsScanned"`
	// ScavengesWithRS counts the scheduled scavenges that scanned a non-empty remembered set.
	ScavengesWithRS int `json:"scavengesWithRS"`
	// MaxRSEntries is the largest remembered set seen at a scavenge.
	MaxRSEntries float64 `json:"maxRSEntries"`
	// RSGrowthScavenges counts the scavenges scheduled by the remembered set's growth
	// (VMRememberedSet>>rememberWithoutMarkingAsRemembered:); they are included in Scavenges.
	RSGrowthScavenges int `json:"rsGrowthScavenges,omitempty"`
	// ShrinkRTScavenges counts the scheduled scavenges run with the TenureToShrinkRT criterion
	// because the set was in its red zone (SpurGenerationScavenger>>strategizeToLimitRememberedSet).
	ShrinkRTScavenges int `json:"shrinkRTScavenges,omitempty"`
	// MarkedBytes and MovedBytes sum full-GC marking and compaction work; MarkedPointerSlots
	// the pointer slots marking scanned (byte objects are marked, not scanned).
	MarkedBytes        uint64  `json:"markedBytes"`
	MovedBytes         uint64  `json:"movedBytes"`
	MarkedPointerSlots float64 `json:"markedPointerSlots"`
	// BoundedCompactions counts full GCs whose compaction stopped when the saved-first-fields
	// space was full (§4.3), leaving holes; HoleBytesAtEnd is the free space left in holes.
	BoundedCompactions int    `json:"boundedCompactions"`
	HoleBytesAtEnd     uint64 `json:"holeBytesAtEnd"`

	// Grows and Shrinks count segments added (VM parameter 31) and shrink operations
	// (parameter 32); ReleasedSegments counts segments returned to the OS.
	Grows            int `json:"grows"`
	Shrinks          int `json:"shrinks"`
	ReleasedSegments int `json:"releasedSegments"`
	// PeakFootprintBytes is the largest new space + old-space segments seen;
	// FinalFootprintBytes the footprint at the end.
	PeakFootprintBytes  uint64 `json:"peakFootprintBytes"`
	FinalFootprintBytes uint64 `json:"finalFootprintBytes"`
	// PeakOldUsedBytes is the largest old-space use (live and not yet collected).
	PeakOldUsedBytes uint64 `json:"peakOldUsedBytes"`
	// HeapBytesAtEnd is what the heap holds at the end, live or not yet collected: eden,
	// survivors and old-space use, the image included.
	HeapBytesAtEnd uint64 `json:"heapBytesAtEnd"`
	// LiveBytesAtEnd is what is alive at the end (image included).
	LiveBytesAtEnd uint64 `json:"liveBytesAtEnd"`

	// Times from the cost model, in seconds.
	ScavengeSeconds float64 `json:"scavengeSeconds"`
	FullGCSeconds   float64 `json:"fullGCSeconds"`
	// MarkSeconds and CompactSeconds split FullGCSeconds (the inner scavenge is the rest).
	MarkSeconds    float64 `json:"markSeconds"`
	CompactSeconds float64 `json:"compactSeconds"`
	// RSScanSeconds is the part of ScavengeSeconds spent scanning remembered-set entries,
	// CopySeconds the part spent copying survivors to future space and TenureSeconds the part
	// spent promoting objects to old space; the rest is each scavenge's fixed cost.
	RSScanSeconds  float64 `json:"rsScanSeconds"`
	CopySeconds    float64 `json:"copySeconds"`
	TenureSeconds  float64 `json:"tenureSeconds"`
	GrowSeconds    float64 `json:"growSeconds"`
	ShrinkSeconds  float64 `json:"shrinkSeconds"`
	GCSeconds      float64 `json:"gcSeconds"`
	MutatorSeconds float64 `json:"mutatorSeconds"`
	TotalSeconds   float64 `json:"totalSeconds"`
	// GCShare is GCSeconds / TotalSeconds.
	GCShare float64 `json:"gcShare"`
}

// EventKind names one row of the event log.
type EventKind int

const (
	// EventScavenge is a scheduled scavenge.
	EventScavenge EventKind = iota
	// EventFullGC is a full GC (its inner scavenge included).
	EventFullGC
	// EventGrow is one segment added.
	EventGrow
	// EventShrink is one shrink at a full GC (one or more segments released).
	EventShrink
)

func (k EventKind) String() string {
	switch k {
	case EventScavenge:
		return "scavenge"
	case EventFullGC:
		return "fullgc"
	case EventGrow:
		return "grow"
	case EventShrink:
		return "shrink"
	}
	return "unknown"
}

// Event is one row of the per-GC event log, with the figures the Palumbo paper logged
// (PR606's scavenge.log): eden used, survivor bytes before and after, remembered-set size,
// tenured bytes, tenuring threshold, time.
type Event struct {
	Kind EventKind `json:"kind"`
	// Cause is set for full GCs.
	Cause FullGCCause `json:"cause"`
	// ClockBytes is when it happened, in bytes allocated since start.
	ClockBytes uint64 `json:"clockBytes"`
	// EdenUsedBytes is eden's fill when the scavenge started; for a full GC, when its inner
	// scavenge started: the eden it empties without counting a scavenge (§3.7).
	EdenUsedBytes uint64 `json:"edenUsedBytes"`
	// SurvivorBytesBefore and SurvivorBytesAfter are past-space use before and survivor use after.
	SurvivorBytesBefore uint64 `json:"survivorBytesBefore"`
	SurvivorBytesAfter  uint64 `json:"survivorBytesAfter"`
	// RSEntries and RSSlots are the remembered set scanned; RSRemainingEntries the entries
	// that stay remembered after the scavenge (they still refer to young objects).
	RSEntries          float64 `json:"rsEntries"`
	RSSlots            uint64  `json:"rsSlots"`
	RSRemainingEntries float64 `json:"rsRemainingEntries,omitempty"`
	// HoleBytes is, after a full GC, the free space its bounded compaction left in holes.
	HoleBytes uint64 `json:"holeBytes,omitempty"`
	// TenuredBytes were promoted by this scavenge (for a full GC: by its inner scavenge),
	// TenuredByAgeBytes of them by age (§3.3).
	TenuredBytes      uint64 `json:"tenuredBytes"`
	TenuredByAgeBytes uint64 `json:"tenuredByAgeBytes"`
	// ThresholdBytes is the tenuring threshold armed for the next scavenge as an offset into
	// the survivor space, or -1 when none is armed.
	ThresholdBytes int64 `json:"thresholdBytes"`
	// OldUsedBytes, OldLiveBytes (at full GCs, after marking) and FootprintBytes after the event.
	OldUsedBytes   uint64 `json:"oldUsedBytes"`
	OldLiveBytes   uint64 `json:"oldLiveBytes"`
	FootprintBytes uint64 `json:"footprintBytes"`
	// SegmentBytes is the segment added or the bytes released (grow, shrink).
	SegmentBytes uint64 `json:"segmentBytes"`
	// OldUsedBeforeBytes is old-space use when a full GC started and OldReclaimedBytes what its
	// marking found dead there.
	OldUsedBeforeBytes uint64 `json:"oldUsedBeforeBytes,omitempty"`
	OldReclaimedBytes  uint64 `json:"oldReclaimedBytes,omitempty"`
	// RequestBytes is, for a full GC caused by a large allocation, the size of the object that
	// found no free chunk (§2.3).
	RequestBytes uint64 `json:"requestBytes,omitempty"`
	// TenuredGarbageBytes is, at a full GC, what it found dead among the objects tenured since
	// the previous full GC (premature tenuring).
	TenuredGarbageBytes uint64 `json:"tenuredGarbageBytes,omitempty"`
	// Seconds is the event's time in the cost model. RSSeconds is the part of a scavenge's time
	// spent on the remembered set; MarkSeconds and CompactSeconds split a full GC's time (the
	// inner scavenge and the fixed cost are the rest).
	Seconds        float64 `json:"seconds"`
	RSSeconds      float64 `json:"rsSeconds,omitempty"`
	MarkSeconds    float64 `json:"markSeconds,omitempty"`
	CompactSeconds float64 `json:"compactSeconds,omitempty"`
}
