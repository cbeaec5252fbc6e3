package heapsim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// This file measures the price of a remembered-set slot on this machine (issue 30), the
// numbers behind PriorCost's RSInOrderSlotSeconds, RSPointerSlotSeconds and
// RSImmediateSlotSeconds (docs/calibration.md, "The remembered set's slot price, measured").
//
// It reproduces SpurGenerationScavenger>>scavengeReferentsOf:additionalTestingBlock: over one
// old object (an Array2D-like remembered member) in a simulated 64-bit Spur heap: for each
// slot, load it (fetchPointer:ofMaybeForwardedObject:), test for an immediate
// (isNonImmediate:), read the referent's header (isForwarded:, following a forwarder), compare
// its address with new space (isReallyYoungObject:), then either copy a young referent to the
// future space and forward it (copyAndForward: → copyToFutureSpace:bytes:, forwardSurvivor:to:)
// or, for an old one, write the slot back (storePointerUnchecked:ofMaybeForwardedObject:).
//
// Run: go test ./heapsim -run '^$' -bench RSScan -benchtime 20x
// The ns/slot metric is the price of one slot; the layouts are those of issue 30.

// Spur 64-bit header fields used by the kernel (SpurMemoryManager, Spur64BitMemoryManager).
const (
	spurClassIndexMask   = 1<<22 - 1 // classIndexMask
	spurForwardedPun     = 8         // isForwardedObjectClassIndexPun
	spurByteStringClass  = 52        // any ordinary class index
	spurNumSlotsShift    = 56        // numSlotsFullShift
	spurSmallIntegerTag  = 1         // an immediate's tag bits (SmallInteger)
	spurImmediateTagMask = 7
)

// spurHeap is a word-addressed simulated heap: an oop is a byte address, mem[oop>>3] its
// header. New space is [newStart, newEnd) and holds the future space at [futureStart,
// futureLimit) and eden above it.
type spurHeap struct {
	mem                                         []uint64
	newStart, newEnd, futureStart, futureLimit  uint64
	futureNext                                  uint64 // futureSurvivorStart
	referrer                                    uint64 // the remembered object's oop
	numSlots                                    int
	pristineSlots, pristineEden                 []uint64
	edenStartWord, edenEndWord, referrerSlotsAt int
}

// scavengeReferentsOf is the kernel: SpurGenerationScavenger>>scavengeReferentsOf:
// additionalTestingBlock: for a referrer in old space (the block does nothing:
// scavengeReferentsOfFromOldSpace:). It answers whether a new-space referent was found, as
// the VM does to keep the referrer in the remembered set.
func (h *spurHeap) scavengeReferentsOf() bool {
	mem := h.mem
	newStart, newEnd := h.newStart, h.newEnd
	futureStart, futureLimit := h.futureStart, h.futureLimit
	slots := mem[h.referrer>>3+1 : h.referrer>>3+1+uint64(h.numSlots)]
	found := false
	for i, referent := range slots {
		if referent&spurImmediateTagMask != 0 {
			continue // isNonImmediate: false: a load and a tag test
		}
		if mem[referent>>3]&spurClassIndexMask == spurForwardedPun {
			referent = mem[referent>>3+1] // followForwarded:
		}
		if referent >= newStart && referent < newEnd { // isReallyYoungObject:
			if referent >= futureStart && referent < futureLimit { // isInFutureSpace:
				found = true
			} else {
				referent = h.copyAndForward(referent)
				found = true
			}
		}
		slots[i] = referent // storePointerUnchecked:ofMaybeForwardedObject:withValue:
	}
	return found
}

// copyAndForward copies a young survivor to the future space (it is assumed to fit, as the
// benchmark sizes the future space for every young referent) and leaves a forwarder behind.
func (h *spurHeap) copyAndForward(survivor uint64) uint64 {
	mem := h.mem
	hdr := mem[survivor>>3]
	words := 1 + max(1, hdr>>spurNumSlotsShift) // objectBytesForSlots: / 8
	dst := h.futureNext
	copy(mem[dst>>3:dst>>3+words], mem[survivor>>3:survivor>>3+words])
	h.futureNext += words * 8
	mem[survivor>>3] = hdr&^spurClassIndexMask | spurForwardedPun // forwardSurvivor:to:
	mem[survivor>>3+1] = dst
	return dst
}

// reset undoes a scan's writes (forwarded slots and eden corpses) so the next scan finds the
// same heap.
func (h *spurHeap) reset() {
	copy(h.mem[h.referrerSlotsAt:h.referrerSlotsAt+h.numSlots], h.pristineSlots)
	copy(h.mem[h.edenStartWord:h.edenEndWord], h.pristineEden)
	h.futureNext = h.futureStart
}

// rsLayout says where a remembered object's referents lie.
type rsLayout struct {
	name string
	// stride is each referent's size in bytes (header included; objects of one size).
	stride int
	// scattered: the slots name the old referents in a random order, not allocation order.
	scattered bool
	// youngShare: this share of the slots, the last ones, name young referents in eden, in
	// allocation order (the cells of the rows read last).
	youngShare float64
	// immediates: every slot holds a SmallInteger.
	immediates bool
}

// newSpurHeap lays out a referrer of n slots, n referents of the layout's size in old space
// (allocation order: adjacent in slot order, as objects tenured together are) and, for the
// young share, referents in eden.
func newSpurHeap(n int, l rsLayout, seed uint64) *spurHeap {
	objWords := l.stride / 8
	nYoung := int(float64(n) * l.youngShare)
	nOld := n - nYoung
	// Words: [0] unused, referrer (header + n slots), old referents, new space (future,
	// eden). A gap of a page between regions.
	const gap = 512
	refAt := gap
	oldAt := refAt + 1 + n + gap
	newAt := oldAt + nOld*objWords + gap
	futureWords := nYoung*objWords + gap
	edenAt := newAt + futureWords
	total := edenAt + nYoung*objWords + gap
	h := &spurHeap{mem: make([]uint64, total), numSlots: n}
	mem := h.mem
	h.referrer = uint64(refAt * 8)
	h.referrerSlotsAt = refAt + 1
	mem[refAt] = 255<<spurNumSlotsShift | 2 // an overflow header: an Array of many slots
	h.newStart, h.newEnd = uint64(newAt*8), uint64(total*8)
	h.futureStart, h.futureLimit = uint64(newAt*8), uint64(edenAt*8)
	h.futureNext = h.futureStart
	h.edenStartWord, h.edenEndWord = edenAt, edenAt+nYoung*objWords
	hdr := uint64(objWords-1)<<spurNumSlotsShift | spurByteStringClass
	for i := range nOld {
		mem[oldAt+i*objWords] = hdr
	}
	for i := range nYoung {
		mem[edenAt+i*objWords] = hdr
	}
	order := make([]int, nOld)
	for i := range order {
		order[i] = i
	}
	if l.scattered {
		r := rand.New(rand.NewPCG(seed, 30))
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	slots := mem[refAt+1 : refAt+1+n]
	for i := range nOld {
		slots[i] = uint64((oldAt + order[i]*objWords) * 8)
		if l.immediates {
			slots[i] = uint64(i)<<3 | spurSmallIntegerTag
		}
	}
	for i := range nYoung {
		slots[nOld+i] = uint64((edenAt + i*objWords) * 8)
	}
	h.pristineSlots = append([]uint64(nil), slots...)
	h.pristineEden = append([]uint64(nil), mem[h.edenStartWord:h.edenEndWord]...)
	return h
}

// rsScanSlots is the referrer's size: 4 Mi slots (32 MiB) and, at 32 bytes a referent,
// 128 MiB of referents, far beyond any cache, as the DataFrame's Array2D (131.5 M slots) is.
const rsScanSlots = 4 << 20

// rsScanLayouts are issue 30's layouts.
var rsScanLayouts = []rsLayout{
	{name: "immediates", stride: 32, immediates: true},
	{name: "in-order/stride=32", stride: 32},
	{name: "in-order/stride=64", stride: 64},
	{name: "in-order/stride=96", stride: 96},
	{name: "in-order/stride=128", stride: 128},
	{name: "in-order/stride=256", stride: 256},
	{name: "scattered/stride=32", stride: 32, scattered: true},
	{name: "scattered/stride=128", stride: 128, scattered: true},
	{name: "partly-young/stride=32/young=1%", stride: 32, youngShare: 0.01},
	{name: "partly-young/stride=32/young=10%", stride: 32, youngShare: 0.10},
}

// BenchmarkRSScan measures scavengeReferentsOf: per slot over each layout (ns/slot).
func BenchmarkRSScan(b *testing.B) {
	for _, l := range rsScanLayouts {
		b.Run(l.name, func(b *testing.B) {
			h := newSpurHeap(rsScanSlots, l, 1)
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				h.reset()
				b.StartTimer()
				if !h.scavengeReferentsOf() && l.youngShare > 0 {
					b.Fatal("a young referent was not found")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/rsScanSlots, "ns/slot")
		})
	}
}

// TestRSScanKernel checks the benchmark's kernel on a small heap: old referents are written
// back unchanged, young ones are copied to the future space and forwarded, immediates are
// left alone, and the referrer is found to refer to new space iff a referent is young.
func TestRSScanKernel(t *testing.T) {
	for _, l := range rsScanLayouts {
		t.Run(l.name, func(t *testing.T) {
			h := newSpurHeap(1000, l, 1)
			before := append([]uint64(nil), h.pristineSlots...)
			found := h.scavengeReferentsOf()
			if want := l.youngShare > 0; found != want {
				t.Fatalf("found young referent %v, want %v", found, want)
			}
			slots := h.mem[h.referrerSlotsAt : h.referrerSlotsAt+h.numSlots]
			young := 0
			for i, v := range slots {
				switch {
				case before[i] >= h.newStart:
					young++
					if v < h.futureStart || v >= h.futureLimit {
						t.Fatalf("slot %d: young referent %#x not forwarded to future space (%#x)", i, before[i], v)
					}
					if h.mem[before[i]>>3]&spurClassIndexMask != spurForwardedPun || h.mem[before[i]>>3+1] != v {
						t.Fatalf("slot %d: corpse not a forwarder", i)
					}
				case v != before[i]:
					t.Fatalf("slot %d: old or immediate slot changed: %#x → %#x", i, before[i], v)
				}
			}
			if want := int(1000 * l.youngShare); young != want {
				t.Fatalf("%d young referents, want %d", young, want)
			}
			// A second scan after reset finds the same heap.
			h.reset()
			if h.scavengeReferentsOf() != found {
				t.Fatal("reset did not restore the heap")
			}
			if fmt.Sprint(h.futureNext-h.futureStart) != fmt.Sprint(uint64(young*l.stride)) {
				t.Fatalf("future space used %d bytes, want %d", h.futureNext-h.futureStart, young*l.stride)
			}
		})
	}
}
