package heapsim

import (
	"errors"
	"fmt"
	"math"

	"github.com/gctune/gctune/profile"
)

// ErrInvalidParams is wrapped by every error Params.Validate returns.
var ErrInvalidParams = errors.New("heapsim: invalid parameters")

// Byte-size helpers for readable defaults.
const (
	KiB uint64 = 1 << 10
	MiB uint64 = 1 << 20
	GiB uint64 = 1 << 30
)

// VM facts that are not tunable (docs/spur-model.md §1.1, §2.1, §2.2, §1.2).
const (
	// ReserveBytesPerStackPage is the interpreter allocation reserve per stack page on the
	// 64-bit JIT VM: 65 frames × 62 LargeContextSlots × 8 bytes (§1.1, derived).
	ReserveBytesPerStackPage = 65 * 62 * 8
	// MaxNewSpaceSlots is the largest slot count eden accepts; bigger objects are allocated
	// straight in old space (§2.2, SpurMemoryManager>>maxSlotsForNewSpaceAlloc).
	MaxNewSpaceSlots = profile.MaxNewSpaceSlots
	// MaxNewSpaceObjectBytes is the size of an object of MaxNewSpaceSlots slots: a 16-byte
	// double header plus 8 bytes a slot (§2.1). Larger objects go to old space (rule 3). The
	// layout rule is lifetimes' (profile.AllocatesInOldSpace), shared with the generator.
	MaxNewSpaceObjectBytes = profile.MaxNewSpaceObjectBytes
	// MaxNewSpaceBytes bounds D: weak/ephemeron corpse offsets are 27 bits of 8-byte units
	// (§1.2, SpurGenerationScavenger>>setCorpseOffsetOf:to:).
	MaxNewSpaceBytes = 1 * GiB
	// AverageObjectBytes converts param 6 (survivors to keep, a count) into a proportion of a
	// survivor space: 8 × bytesPerOop on 64-bit (§3.4).
	AverageObjectBytes = 64
	// SegmentBridgeBytes is what each old-space segment loses to its bridge (§1.5, rule 13).
	SegmentBridgeBytes = 16
	// GrowRequestOverheadBytes is what growOldSpaceByAtLeast:callingOperation: adds to the
	// request before rounding to a power of two: two object headers and a segment bridge
	// (§4.4).
	GrowRequestOverheadBytes = 32
	// ShrinkNearFraction: when shrinking, a later empty segment replaces the best candidate
	// only if the target is at least this share of its size
	// (SpurSegmentManager>>findEmptySegNearestInSizeTo:, §4.5).
	ShrinkNearFraction = 0.75
	// SavedFirstFieldsDivisor: the planning compactor estimates the room it needs to save the
	// first field of every moved object as the old space's extent over this (§4.3,
	// SpurPlanningCompactor>>selectSavedFirstFieldsSpace).
	SavedFirstFieldsDivisor = 40
	// SavedFirstFieldBytes is one saved first field: one slot.
	SavedFirstFieldBytes = 8
	// FutureSpaceFullFraction is the hard-coded 90 % rule: age tenuring is armed for the next
	// scavenge only when the future space is more than this full after a scavenge (§3.3).
	FutureSpaceFullFraction = 0.9
	// InitialRememberedSetEntries is the remembered set's starting capacity (§3.6).
	InitialRememberedSetEntries = 1024
)

// SurvivorsMode says how Params.Survivors sets VM parameter 6.
type SurvivorsMode int

const (
	// SurvivorsPharoDefault writes what Pharo's WorkingSession>>start: writes at every session
	// start: N = round(0.9 × (E/5) / 64), where E is the real eden size, param 44 (§3.4).
	SurvivorsPharoDefault SurvivorsMode = iota
	// SurvivorsCount writes N = Survivors.Count, the VM's own unit (count of 64-byte units).
	SurvivorsCount
	// SurvivorsProportion writes N = ceil(p × S / 64) for the tenuring proportion
	// p = Survivors.Proportion: the fraction of a survivor space kept; p ≥ 1 keeps all
	// survivors (no tenuring by age) and p = 0 tenures every past survivor (§3.3, §3.4).
	SurvivorsProportion
)

// Survivors is VM parameter 6, "survivors to keep", in one of its three spellings.
//
// The search varies the proportion rather than the count because the count's meaning depends on
// the survivor space size S, which depends on the new-space size: N = 100,000 keeps all
// survivors with a 16 MiB new space and only a third of them with a 128 MiB one. The proportion
// p = N·64/S has the same meaning for every new-space size, so the two dimensions stay
// independent.
type Survivors struct {
	Mode SurvivorsMode `json:"mode" yaml:"mode"`
	// Count is N, used with SurvivorsCount.
	Count uint64 `json:"count,omitempty" yaml:"count,omitempty"`
	// Proportion is p, used with SurvivorsProportion.
	Proportion float64 `json:"proportion,omitempty" yaml:"proportion,omitempty"`
}

// Params are the Spur GC settings a run uses: the five tunables, in the VM's own units, and the
// fixed facts of the VM and image beside them.
type Params struct {
	// NewSpaceBytes is D, the desired new-space size (VM parameter 45, "eden size" to users,
	// --edenSize= on the command line); it takes effect at launch only (§1.2).
	NewSpaceBytes uint64 `json:"newSpaceBytes" yaml:"newSpaceBytes"`
	// Survivors is VM parameter 6, survivors to keep (§3.4).
	Survivors Survivors `json:"survivors" yaml:"survivors"`
	// FullGCRatio is VM parameter 55, heapGrowthToSizeGCRatio: after a scheduled scavenge a full
	// GC runs if old-space use grew by at least this fraction since the last full GC (§4.2).
	FullGCRatio float64 `json:"fullGCRatio" yaml:"fullGCRatio"`
	// GrowthHeadroomBytes is VM parameter 25, growHeadroom: the free old space the VM keeps after
	// a scavenge and the smallest segment it adds (§4.2, §4.4).
	GrowthHeadroomBytes uint64 `json:"growthHeadroomBytes" yaml:"growthHeadroomBytes"`
	// ShrinkThresholdBytes is VM parameter 24, shrinkThreshold: a full GC returns empty segments
	// to the OS when more than this much old space is free (§4.5).
	ShrinkThresholdBytes uint64 `json:"shrinkThresholdBytes" yaml:"shrinkThresholdBytes"`

	// StackPages is VM parameter 43, the number of stack pages; it sets the allocation reserve R
	// inside eden (§1.1). Pharo's build sets 32.
	StackPages int `json:"stackPages" yaml:"stackPages"`
	// PageBytes is the OS page size every segment and the new space are rounded to (§1.1).
	PageBytes uint64 `json:"pageBytes" yaml:"pageBytes"`
	// MaxOldSpaceBytes is VM parameter 67, the cap on old-space segments (0 = unlimited).
	MaxOldSpaceBytes uint64 `json:"maxOldSpaceBytes" yaml:"maxOldSpaceBytes"`
	// ImageBytes is the size of the objects the image brings at load; they are old and live to
	// the end. Assumed default: 56 MiB, the size of a Pharo 11 64-bit image file.
	ImageBytes uint64 `json:"imageBytes" yaml:"imageBytes"`
	// InitialHeadroomBytes is VM parameter 23 (extraVMMemory): the free space the first segment
	// gets beyond the image (§1.5); 16 MiB when the image leaves it 0.
	InitialHeadroomBytes uint64 `json:"initialHeadroomBytes" yaml:"initialHeadroomBytes"`
	// Bug588 simulates VMs before pharo-vm PR #588 (v10.0.5), which computed the tenuring
	// threshold in the wrong semispace and so tenured all or nothing (§3.3).
	Bug588 bool `json:"bug588,omitempty" yaml:"bug588,omitempty"`
	// CompleteCompaction gives the compactor room for every object it moves, as if its
	// saved-first-fields space never filled: the model before bounded compaction, kept to
	// measure what the bound changes (docs/simulator.md). The VM bounds it (§4.3).
	CompleteCompaction bool `json:"completeCompaction,omitempty" yaml:"completeCompaction,omitempty"`
}

// DefaultParams are the defaults of the published DataFrame runs ([IWST23-L], [IWST23-P]
// §4.2): a 16 MiB new space, 16 MiB growth headroom, 32 MiB shrink threshold, full GC ratio
// 0.333333 and Pharo's session-start survivors formula, on a Pharo build with 32 stack pages and
// 4 KiB pages.
func DefaultParams() Params {
	return Params{
		NewSpaceBytes:        16 * MiB,
		Survivors:            Survivors{Mode: SurvivorsPharoDefault},
		FullGCRatio:          0.333333,
		GrowthHeadroomBytes:  16 * MiB,
		ShrinkThresholdBytes: 32 * MiB,
		StackPages:           32,
		PageBytes:            4096,
		ImageBytes:           56 * MiB,
		InitialHeadroomBytes: 16 * MiB,
	}
}

// Validate checks every field and returns an error naming the first bad one.
func (p Params) Validate() error {
	bad := func(field string, format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrInvalidParams, field, fmt.Sprintf(format, args...))
	}
	switch {
	case p.PageBytes == 0 || p.PageBytes&(p.PageBytes-1) != 0:
		return bad("pageBytes", "%d is not a power of two", p.PageBytes)
	case p.StackPages <= 0:
		return bad("stackPages", "%d must be positive", p.StackPages)
	case p.NewSpaceBytes == 0:
		return bad("newSpaceBytes", "must be positive")
	case p.NewSpaceBytes > MaxNewSpaceBytes:
		return bad("newSpaceBytes", "%d is over the VM's 1 GiB limit", p.NewSpaceBytes)
	case math.IsNaN(p.FullGCRatio) || math.IsInf(p.FullGCRatio, 0) || p.FullGCRatio < 0:
		return bad("fullGCRatio", "%v must be a finite number ≥ 0", p.FullGCRatio)
	case p.GrowthHeadroomBytes < MaxNewSpaceObjectBytes:
		return bad("growthHeadroomBytes", "%d is below the largest new-space object (%d bytes): tenuring could fail fatally", p.GrowthHeadroomBytes, MaxNewSpaceObjectBytes)
	case p.ShrinkThresholdBytes == 0:
		return bad("shrinkThresholdBytes", "must be positive")
	case p.MaxOldSpaceBytes != 0 && p.MaxOldSpaceBytes < p.ImageBytes+p.InitialHeadroomBytes:
		return bad("maxOldSpaceBytes", "%d cannot hold the image (%d bytes) and its initial headroom", p.MaxOldSpaceBytes, p.ImageBytes)
	}
	switch p.Survivors.Mode {
	case SurvivorsPharoDefault, SurvivorsCount:
	case SurvivorsProportion:
		if q := p.Survivors.Proportion; math.IsNaN(q) || math.IsInf(q, 0) || q < 0 {
			return bad("survivors.proportion", "%v must be a finite number ≥ 0", q)
		}
	default:
		return bad("survivors.mode", "unknown mode %d", p.Survivors.Mode)
	}
	l := ComputeLayout(p)
	if l.ScavengeThresholdBytes < MaxNewSpaceObjectBytes {
		// Below this an empty eden cannot take the largest new-space object (§2.2).
		return bad("newSpaceBytes", "%d leaves %d bytes of eden below the scavenge threshold with %d stack pages, less than the largest new-space object (%d bytes)", p.NewSpaceBytes, l.ScavengeThresholdBytes, p.StackPages, MaxNewSpaceObjectBytes)
	}
	return nil
}

// SurvivorsToKeep is the value written to VM parameter 6 at session start for these Params
// (rule 8).
func (p Params) SurvivorsToKeep() uint64 {
	l := ComputeLayout(p)
	switch p.Survivors.Mode {
	case SurvivorsCount:
		return p.Survivors.Count
	case SurvivorsProportion:
		// Rounded up, so the VM keeps at least the proportion asked for: with N = round(S/64)
		// the VM's p = N·64/S can fall a hair under 1 and still tenure one object by age.
		// (The 1e-9 absorbs floating-point noise: a proportion read back from N must give N.)
		return uint64(math.Ceil(p.Survivors.Proportion*float64(l.SurvivorBytes)/AverageObjectBytes - 1e-9))
	default:
		// Pharo's VirtualMachine>>setGCParameters: round(0.9 × (param44 / 5) / (8 × wordSize)),
		// param 44 being the real eden size E (§3.4).
		return uint64(math.Round(0.9 * (float64(l.EdenBytes) / 5) / AverageObjectBytes))
	}
}

// TenuringProportion is p = N·64/S, the proportion of a survivor space the scavenger keeps,
// after N has been rounded to the VM's unit (§3.4).
func (p Params) TenuringProportion() float64 {
	l := ComputeLayout(p)
	return float64(p.SurvivorsToKeep()) * AverageObjectBytes / float64(l.SurvivorBytes)
}

// Layout is the new-space geometry the VM computes from Params (§1.1).
type Layout struct {
	// ReserveBytes is R, the interpreter allocation reserve, inside eden.
	ReserveBytes uint64 `json:"reserveBytes"`
	// NewSpaceBytes is T = roundUpToPage(D + R), the whole new space.
	NewSpaceBytes uint64 `json:"newSpaceBytes"`
	// SurvivorBytes is S = floor8((T − R) / 7), each survivor space.
	SurvivorBytes uint64 `json:"survivorBytes"`
	// EdenBytes is E = T − 2S (VM parameter 44); it includes R.
	EdenBytes uint64 `json:"edenBytes"`
	// ScavengeThresholdBytes is E − E/64 − R (VM parameter 19): eden fills to here before a
	// scavenge is scheduled.
	ScavengeThresholdBytes int64 `json:"scavengeThresholdBytes"`
}

// ComputeLayout applies §1.1's formulas exactly (rule 1).
func ComputeLayout(p Params) Layout {
	r := uint64(ReserveBytesPerStackPage) * uint64(max(p.StackPages, 0))
	t := roundUp(p.NewSpaceBytes+r, p.PageBytes)
	s := uint64(0)
	if t > r {
		s = (t - r) / 7 &^ 7
	}
	e := t - 2*s
	return Layout{
		ReserveBytes:           r,
		NewSpaceBytes:          t,
		SurvivorBytes:          s,
		EdenBytes:              e,
		ScavengeThresholdBytes: int64(e) - int64(e/64) - int64(r),
	}
}

func roundUp(n, unit uint64) uint64 {
	if unit == 0 {
		return n
	}
	return (n + unit - 1) / unit * unit
}

// nextPowerOfTwo returns the smallest power of two ≥ n (n ≥ 1).
func nextPowerOfTwo(n uint64) uint64 {
	if n <= 1 {
		return 1
	}
	p := uint64(1)
	for p < n {
		p <<= 1
	}
	return p
}
