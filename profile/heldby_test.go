package profile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuildHeldBy: Build sorts the records by birth and remaps HeldBy to the new indices.
func TestBuildHeldBy(t *testing.T) {
	var b Builder
	c := b.Class("Object")
	cell := b.Add(c, 32, 200, 300, 1, 0)
	row := b.Add(c, 808, 100, 400, 1, 0)
	other := b.Add(c, 32, 150, 160, 1, 0)
	b.SetHeldBy(cell, row)
	_ = other
	p, err := b.Build(Meta{EndBytes: 1000})
	require.NoError(t, err)
	// Sorted: row (100), other (150), cell (200).
	assert.Equal(t, []int32{0, 0, 1}, p.HeldBy)
}

// TestValidateHeldBy: HeldBy has one entry per record, each naming another record.
func TestValidateHeldBy(t *testing.T) {
	build := func() *Profile {
		var b Builder
		c := b.Class("Object")
		b.Add(c, 32, 0, 10, 1, 0)
		b.Add(c, 32, 5, 10, 1, 0)
		b.SetHeldBy(1, 0)
		p, err := b.Build(Meta{EndBytes: 10})
		require.NoError(t, err)
		return p
	}
	p := build()
	p.HeldBy[1] = 2 // itself
	assert.ErrorContains(t, p.Validate(), "record 1 is held by record 1 of 2")
	p = build()
	p.HeldBy[0] = 3
	assert.ErrorContains(t, p.Validate(), "record 0 is held by record 2 of 2")
	p = build()
	p.HeldBy = p.HeldBy[:1]
	assert.ErrorContains(t, p.Validate(), "held-by column has 1 entries, birth has 2")
}
