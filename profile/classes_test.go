package profile

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIsByteClassName(t *testing.T) {
	for _, name := range []string{"ByteString", "ByteSymbol", "ByteArray", "WideString", "Float", "BoxedFloat64",
		"LargePositiveInteger", "LargeNegativeInteger", "Bitmap", "WordArray", "FloatArray", "MyByteArray", "ColorBitmap"} {
		assert.True(t, IsByteClassName(name), name)
	}
	for _, name := range []string{"Array", "OrderedCollection", "Fraction", "CompiledMethod", "ByteString class", "Dictionary"} {
		assert.False(t, IsByteClassName(name), name)
	}
}

// TestObjectLayoutOneRule: the sizes between the largest new-space object and the next whole
// slot (524,297-524,303 bytes, which a profiler's estimate can give) are old-space objects by
// every rule: more than 65,535 slots, AllocatesInOldSpace, above MaxNewSpaceObjectBytes.
func TestObjectLayoutOneRule(t *testing.T) {
	assert.Equal(t, uint64(MaxNewSpaceObjectBytes), ObjectBytesForSlots(MaxNewSpaceSlots))
	assert.Equal(t, uint32(MaxNewSpaceSlots), SlotsOf(MaxNewSpaceObjectBytes))
	assert.False(t, AllocatesInOldSpace(MaxNewSpaceObjectBytes, 0))
	for size := uint32(MaxNewSpaceObjectBytes + 1); size <= MaxNewSpaceObjectBytes+8; size++ {
		assert.Greater(t, SlotsOf(size), uint32(MaxNewSpaceSlots), size)
		assert.True(t, AllocatesInOldSpace(size, 0), size)
	}
	for _, slots := range []uint64{0, 1, 2, 254, 255, 256, 65535} {
		b := ObjectBytesForSlots(slots)
		assert.Equal(t, uint32(max(slots, 1)), SlotsOf(uint32(b)), "slots %d, %d bytes", slots, b)
	}
	assert.True(t, AllocatesInOldSpace(16, FlagOldSpace))
}

func TestSlotsAndOldSpace(t *testing.T) {
	assert.Equal(t, uint32(1), SlotsOf(16))
	assert.Equal(t, uint32(254), SlotsOf(8+8*254))
	assert.Equal(t, uint32(255), SlotsOf(16+8*255))
	assert.Equal(t, uint32(MaxNewSpaceSlots), SlotsOf(16+8*MaxNewSpaceSlots))
	assert.False(t, AllocatesInOldSpace(16+8*MaxNewSpaceSlots, 0), "65,535 slots still fit in eden")
	assert.True(t, AllocatesInOldSpace(16+8*(MaxNewSpaceSlots+1), 0))
	assert.True(t, AllocatesInOldSpace(16, FlagOldSpace))
	assert.False(t, AllocatesInOldSpace(16, FlagAliveAtEnd))
}
