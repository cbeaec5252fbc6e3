package gcprof

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/profiletest"
	"github.com/gctune/gctune/profile"
)

// TestBinaryImpossibleTotalsRefused: a .gcprof whose checksum is right but whose records
// allocate far more than the run's length (weight × size) is refused (issue 11.6).
func TestBinaryImpossibleTotalsRefused(t *testing.T) {
	var b profile.Builder
	c := b.Class("Huge")
	b.Add(c, 1<<31, 0, 10, 1<<31, 0)
	p, err := b.Build(profile.Meta{Source: "tampered", EndBytes: 1000, SamplingRate: 1})
	require.NoError(t, err, "Validate accepts it: only the totals are impossible")
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, p))
	_, err = Read(&buf)
	require.ErrorIs(t, err, ErrCorrupt)
	assert.Contains(t, err.Error(), "the totals are impossible")

	// A sound profile still loads.
	buf.Reset()
	require.NoError(t, Write(&buf, profiletest.Small(t)))
	_, err = Read(&buf)
	require.NoError(t, err)
}
