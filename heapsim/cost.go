package heapsim

import (
	"fmt"
	"math"
	"reflect"
)

// Cost holds the coefficients that turn simulated work into seconds (docs/spur-model.md §6).
// Each coefficient's default value and where it came from is documented at DefaultCost.
type Cost struct {
	// MutatorSecondsPerByte and MutatorSecondsPerObject charge the application for what it
	// allocates: the time a run spends outside GC grows with the work that allocates.
	MutatorSecondsPerByte   float64 `json:"mutatorSecondsPerByte"`
	MutatorSecondsPerObject float64 `json:"mutatorSecondsPerObject"`

	// ScavengeFixedSeconds is each scavenge's fixed part: stack pages and interpreter roots
	// (mapInterpreterOops), swapping spaces.
	ScavengeFixedSeconds float64 `json:"scavengeFixedSeconds"`
	// CopySecondsPerByte and CopySecondsPerObject charge each survivor copied to future space:
	// every live field is written twice, block copy then scan (§6).
	CopySecondsPerByte   float64 `json:"copySecondsPerByte"`
	CopySecondsPerObject float64 `json:"copySecondsPerObject"`
	// RSPointerSlotSeconds charges each pointer slot of each remembered-set entry at every
	// scavenge whose referent is scattered or young: the referent's header is read and the
	// slot written back (§3.2). RSInOrderSlotSeconds charges a pointer slot whose referent
	// lies just after the previous slot's, at a 32-byte stride, and a nil slot (locality.go
	// prices other strides). RSImmediateSlotSeconds charges each immediate slot: a load and
	// a tag test.
	RSPointerSlotSeconds   float64 `json:"rsPointerSlotSeconds"`
	RSInOrderSlotSeconds   float64 `json:"rsInOrderSlotSeconds"`
	RSImmediateSlotSeconds float64 `json:"rsImmediateSlotSeconds"`
	// TenureSecondsPerObject and TenureSecondsPerByte charge promotion: free-list allocation,
	// the copy and the slot scan of the new old copy (§3.2).
	TenureSecondsPerObject float64 `json:"tenureSecondsPerObject"`
	TenureSecondsPerByte   float64 `json:"tenureSecondsPerByte"`

	// FullGCFixedSeconds is each full GC's fixed part.
	FullGCFixedSeconds float64 `json:"fullGCFixedSeconds"`
	// MarkSecondsPerObject and MarkSecondsPerPointerSlot charge marking: every live object is
	// marked, every pointer slot of a live pointer object is followed; byte objects are not
	// scanned (§4.1 step 1, markAndShouldScan:).
	MarkSecondsPerObject      float64 `json:"markSecondsPerObject"`
	MarkSecondsPerPointerSlot float64 `json:"markSecondsPerPointerSlot"`
	// CompactPasses is how many times the planning compactor sweeps old space from its first free
	// object: plan, update pointers, copy (§4.1 step 3, §6).
	CompactPasses float64 `json:"compactPasses"`
	// CompactScanSecondsPerByte charges each byte of each compaction pass.
	CompactScanSecondsPerByte float64 `json:"compactScanSecondsPerByte"`
	// CompactMoveSecondsPerByte charges each byte the compactor slides down.
	CompactMoveSecondsPerByte float64 `json:"compactMoveSecondsPerByte"`

	// GrowSecondsPerSegment and GrowSecondsPerByte charge adding a segment (mmap, bridge,
	// free-chunk setup, first touch).
	GrowSecondsPerSegment float64 `json:"growSecondsPerSegment"`
	GrowSecondsPerByte    float64 `json:"growSecondsPerByte"`
	// ShrinkSecondsPerSegment charges returning a segment to the OS (munmap).
	ShrinkSecondsPerSegment float64 `json:"shrinkSecondsPerSegment"`
}

// Validate checks that every coefficient is finite and ≥ 0, naming the first that is not.
func (c Cost) Validate() error {
	v := reflect.ValueOf(c)
	t := v.Type()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i).Float()
		if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return fmt.Errorf("heapsim: invalid cost: %s: %v must be a finite number ≥ 0", t.Field(i).Tag.Get("json"), f)
		}
	}
	return nil
}
