package profile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuildSortsAndRemapsContainers: Build sorts the records by birth, stably, and the
// containers follow their records; the Builder's accessors read what was added, by the
// indices Add returned.
func TestBuildSortsAndRemapsContainers(t *testing.T) {
	var b Builder
	a, s := b.Class("Array"), b.Class("ByteString")
	late := b.Add(a, 80, 300, 900, 1, 0)
	early := b.Add(s, 16, 100, 200, 2, 0)
	tie := b.Add(a, 24, 100, 1000, 1, FlagAliveAtEnd)
	b.AddContainer(Container{Record: int32(late), StoresFromBytes: 300, StoresUntilBytes: 900})
	assert.Equal(t, 1, b.NumContainers())
	assert.Equal(t, late, b.ContainerRecord(0))
	birth, death, alive := b.Lifetime(tie)
	assert.Equal(t, []any{uint64(100), uint64(1000), true}, []any{birth, death, alive})
	assert.Equal(t, uint16(1), b.AddStore(Store{Container: 0, ForFraction: 1}))
	assert.Equal(t, 1, b.NumStores())
	b.SetStoredIn(early, 1)

	p, err := b.Build(Meta{Source: "test", EndBytes: 1000})
	require.NoError(t, err)
	assert.Equal(t, []uint64{100, 100, 300}, p.Birth)
	assert.Equal(t, []uint32{16, 24, 80}, p.SizeBytes, "equal births keep insertion order")
	assert.Equal(t, int32(2), p.Containers[0].Record, "the container follows its record")
	assert.NotZero(t, p.Flags[2]&FlagContainer)
	assert.NotZero(t, p.Flags[0]&FlagPointerFree, "ByteString holds no pointers")
	assert.Equal(t, []uint16{1, 0, 0}, p.StoredIn)
	assert.Equal(t, 1.0, p.Meta.SamplingRate, "the default rate")
	assert.Equal(t, uint64(16*2+24+80), p.Meta.TotalAllocatedBytes, "weighted bytes by default")
	st, from, until, ok := p.StoreWindow(0)
	assert.Equal(t, []any{0, uint64(100), uint64(200), true}, []any{st, from, until, ok})
	_, _, _, ok = p.StoreWindow(1)
	assert.False(t, ok)
}

func TestValidateRefuses(t *testing.T) {
	valid := func() *Profile {
		return &Profile{Meta: Meta{EndBytes: 100, SamplingRate: 1}, ClassNames: []string{"A"},
			Class: []uint32{0, 0}, SizeBytes: []uint32{16, 16}, Birth: []uint64{10, 20},
			Death: []uint64{50, 100}, Weight: []uint32{1, 1}, Flags: []uint8{0, FlagAliveAtEnd}}
	}
	require.NoError(t, valid().Validate())
	for name, tc := range map[string]struct {
		change func(p *Profile)
		want   string
	}{
		"column length": {func(p *Profile) { p.Weight = p.Weight[:1] }, "weight column has 1 entries, birth has 2"},
		"rate":          {func(p *Profile) { p.Meta.SamplingRate = 2 }, "sampling rate 2 is not in (0, 1]"},
		"unsorted":      {func(p *Profile) { p.Birth[1] = 5 }, "records must be sorted by birth"},
		"death first":   {func(p *Profile) { p.Death[0] = 5 }, "record 0 dies at 5, before its birth at 10"},
		"after the end": {func(p *Profile) { p.Death[1] = 101 }, "after the end of the run (100)"},
		"size 0":        {func(p *Profile) { p.SizeBytes[0] = 0 }, "record 0 has size 0"},
		"weight 0":      {func(p *Profile) { p.Weight[1] = 0 }, "record 1 has weight 0"},
		"class":         {func(p *Profile) { p.Class[0] = 3 }, "class index 3, table has 1"},
		"container":     {func(p *Profile) { p.Containers = []Container{{Record: 2}} }, "container 0 names record 2 of 2"},
		"store":         {func(p *Profile) { p.Stores = []Store{{Container: 0}} }, "store 0 names container 0 of 0"},
		"stored in": {func(p *Profile) {
			p.Containers = []Container{{Record: 1}}
			p.Stores = []Store{{Container: 0, ForFraction: 1}}
			p.StoredIn = []uint16{2, 0}
		}, "record 0 names store 1 of 1"},
		"pointer-free": {func(p *Profile) { p.PointerFree = []bool{true, false} }, "pointer-free table has 2 entries"},
	} {
		p := valid()
		tc.change(p)
		err := p.Validate()
		assert.ErrorIs(t, err, ErrInvalidProfile, name)
		assert.ErrorContains(t, err, tc.want, name)
	}
}
