package spec

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// aliasedSpec is a spec whose phases are n aliases of one phase whose mix is m aliases of one
// entry: a few kilobytes that the parser walked as n × m mix entries before the alias bound.
func aliasedSpec(n, m int) string {
	var b strings.Builder
	b.WriteString("name: aliased\nallocate: 1MB\nclasses:\n  - {name: A, size: 32}\nphases:\n")
	b.WriteString("  - &p\n    name: run\n    allocate: 100%\n    mix:\n      - &e {class: A, share: " + strconv.FormatFloat(1/float64(m), 'g', -1, 64) + ", lifetime: immediate}\n")
	for range m - 1 {
		b.WriteString("      - *e\n")
	}
	for range n - 1 {
		b.WriteString("  - *p\n")
	}
	return b.String()
}

// TestSpecAliasExpansionBounded: a spec that reaches far more nodes through aliases than it has
// is refused with one line, as yaml.v3's Decode refuses (issue 11.5).
func TestSpecAliasExpansionBounded(t *testing.T) {
	_, err := Parse([]byte(aliasedSpec(3000, 3000)), "bomb.yaml")
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrInvalid)
	assert.Contains(t, err.Error(), "excessive aliasing")
	assert.NotContains(t, err.Error(), "\n")

}

// TestSpecFewAliasesAccepted: ordinary reuse of anchors stays allowed.
func TestSpecFewAliasesAccepted(t *testing.T) {
	s, err := Parse([]byte(aliasedSpec(1, 20)), "few.yaml")
	require.NoError(t, err, "the parser refused a few aliases")
	assert.Len(t, s.Phases[0].Mix, 20)
}

// TestLoadSpecSizeCap: a spec over MaxBytes is refused with one line, and an endless one
// (/dev/zero through a .yaml link) is refused after MaxBytes+1 bytes, not read forever
// (issue 11.6).
func TestLoadSpecSizeCap(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.yaml")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	_, err := Load(zero)
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Equal(t, "spec: load spec: "+zero+": larger than the 16 MiB a spec may have (too large)", err.Error())

	big := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxBytes)+"\n"), 0o644))
	_, err = Load(big)
	require.ErrorIs(t, err, ErrTooLarge)
}

// TestSpecResolutionZeroRefused: "resolution: 0" is outside [1e-9, 1] (issue 11.6: it was
// accepted and meant one record per object).
func TestSpecResolutionZeroRefused(t *testing.T) {
	base := "name: r\nallocate: 1MB\nclasses:\n  - {name: A, size: 32}\nphases:\n  - name: run\n    allocate: 100%\n    mix:\n      - {class: A, share: 1, lifetime: immediate%s}\n"
	for _, c := range []struct{ top, entry, path string }{
		{"resolution: 0\n", "", "resolution"},
		{"", ", resolution: 0", "phases[0].mix[0].resolution"},
	} {
		_, err := Parse([]byte(c.top+strings.Replace(base, "%s", c.entry, 1)), "r.yaml")
		require.Error(t, err, c.path)
		assert.ErrorIs(t, err, ErrInvalid)
		assert.Contains(t, err.Error(), c.path+": 0 is not a number of records per real object in [1e-09, 1]")
	}
	_, err := Parse([]byte("resolution: 0.5\n"+strings.Replace(base, "%s", "", 1)), "r.yaml")
	require.NoError(t, err)
}
