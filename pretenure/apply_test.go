package pretenure

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile"
)

// TestApply: a method names its sites, each once; what they allocate is summed from the
// records' weights; the view has them pretenured and the profile is left as it was.
func TestApply(t *testing.T) {
	p := twoSites(t)
	q, d, err := Apply(p, []string{"App>>cache", "App>>#cache @3"})
	require.NoError(t, err)
	assert.Equal(t, []string{"App>>#cache @3"}, d.Sites)
	assert.Equal(t, 600_000, d.Records)
	assert.Equal(t, uint64(600_000), d.Objects)
	assert.Equal(t, uint64(600_000*64), d.Bytes)
	assert.Equal(t, AppliedChange, d.Change)
	require.NotNil(t, q)
	assert.NotSame(t, p, q)

	_, d, err = Apply(p, []string{"App>>#parse", "App>>#cache"})
	require.NoError(t, err)
	assert.Equal(t, []string{"App>>#parse @7", "App>>#cache @3"}, d.Sites, "in the order matched")
	assert.Equal(t, uint64(600_000*2+600_000), d.Objects)
}

// TestApplyRefusals: a pattern naming no site, and a profile naming none.
func TestApplyRefusals(t *testing.T) {
	_, _, err := Apply(twoSites(t), []string{"App>>#cache", "Nope>>x"})
	var nm *NoMatchError
	require.True(t, errors.As(err, &nm), "%v", err)
	assert.Equal(t, "Nope>>x", nm.Pattern)

	var b profile.Builder
	b.Add(b.Class("Object"), 64, 0, 64, 1, 0)
	bare, err := b.Build(profile.Meta{Source: "bare", EndBytes: 128})
	require.NoError(t, err)
	_, _, err = Apply(bare, []string{"App>>#cache"})
	assert.ErrorIs(t, err, ErrNoSites)
}
