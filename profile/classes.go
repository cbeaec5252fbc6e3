package profile

import "strings"

// Object layout on 64-bit Spur (docs/spur-model.md §2.1, §2.2): the one rule lifetimes and
// heapsim share.
const (
	// MaxNewSpaceSlots is the largest slot count the VM allocates in eden
	// (SpurMemoryManager>>maxSlotsForNewSpaceAlloc = 2^16 − 1); larger objects are allocated
	// directly in old space.
	MaxNewSpaceSlots = 1<<16 - 1
	// overflowHeaderSlots is the slot count from which an object has a second, 8-byte header.
	overflowHeaderSlots = 255
	// MaxNewSpaceObjectBytes is the size of an object of MaxNewSpaceSlots slots: a 16-byte
	// double header plus 8 bytes a slot. A larger object goes to old space.
	MaxNewSpaceObjectBytes = 16 + 8*MaxNewSpaceSlots
	// MinObjectBytes is Spur's smallest object: a header and one slot.
	MinObjectBytes = 16
)

// ObjectBytesForSlots is the size of an object of slots 8-byte slots, header included
// (Spur64BitMemoryManager>>objectBytesForSlots:): 8 + 8 × max(1, slots), plus a second 8-byte
// header from 255 slots on.
func ObjectBytesForSlots(slots uint64) uint64 {
	b := 8 + 8*max(slots, 1)
	if slots >= overflowHeaderSlots {
		b += 8
	}
	return b
}

// SlotsOf returns the number of 8-byte slots of an object of sizeBytes bytes, header included,
// the inverse of ObjectBytesForSlots. A size that is not a multiple of 8 (a profiler's
// estimate) is rounded up to whole slots, as the VM allocates them, so that every size above
// MaxNewSpaceObjectBytes has more than MaxNewSpaceSlots slots.
func SlotsOf(sizeBytes uint32) uint32 {
	const largeMin = 16 + 8*overflowHeaderSlots
	switch {
	case sizeBytes >= largeMin:
		return (sizeBytes - 16 + 7) / 8
	case sizeBytes > 8:
		return (sizeBytes - 8 + 7) / 8
	}
	return 0
}

// AllocatesInOldSpace reports whether an object of sizeBytes with the given record flags is
// allocated directly in old space: more than MaxNewSpaceSlots slots (an object larger than
// MaxNewSpaceObjectBytes = 524,296 bytes), or marked FlagOldSpace (docs/spur-model.md §2.2).
func AllocatesInOldSpace(sizeBytes uint32, flags uint8) bool {
	return flags&FlagOldSpace != 0 || sizeBytes > MaxNewSpaceObjectBytes
}

// Pointer classes and byte classes. Spur's marker scans an object's slots only when its format
// says it holds pointers (SpurMemoryManager>>markAndShouldScan:); byte, word and 64-bit
// indexable objects are marked and never scanned (docs/spur-model.md §4.1). A FiLiP or
// Illimani profile names classes but not formats, so gctune decides by name: the table below
// lists Pharo's classes whose instances hold no pointers, and a class not in it counts as a
// pointer class unless the rule of IsByteClassName says otherwise. A spec states it per class
// with the `pointers` key, which wins over the name.

// pharoByteClasses are Pharo classes whose instances are bytes or words (non-pointer formats
// 9-23 and 24-31 of Behavior>>instSpec), from Pharo 11's kernel.
var pharoByteClasses = map[string]bool{
	"ByteString": true, "ByteSymbol": true, "ByteArray": true, "WideString": true,
	"WideSymbol": true, "Float": true, "BoxedFloat64": true, "LargePositiveInteger": true,
	"LargeNegativeInteger": true, "Bitmap": true, "WordArray": true, "FloatArray": true,
	"Float32Array": true, "Float64Array": true, "DoubleByteArray": true, "DoubleWordArray": true,
	"IntegerArray": true, "SignedWordArray": true, "SignedByteArray": true, "UUID": true,
	"CompiledMethod":  false, // mixed: literals are pointers, bytecodes are not; scanned
	"ExternalAddress": true, "String": true, "Symbol": true,
}

// IsByteClassName reports whether instances of the class named name hold no object pointers:
// the classes of Pharo's kernel listed in pharoByteClasses, and otherwise any class whose name
// ends in "ByteArray", "WordArray", "FloatArray" or "Bitmap" (user subclasses of those keep
// their format). A class name as FiLiP writes it for a metaclass ("Foo class") is a pointer
// class. Every other class is taken to hold pointers: the cautious choice, since scanning a
// class that holds none costs the marker only the slots' tag tests.
func IsByteClassName(name string) bool {
	if v, ok := pharoByteClasses[name]; ok {
		return v
	}
	for _, suffix := range []string{"ByteArray", "WordArray", "FloatArray", "Bitmap"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}
