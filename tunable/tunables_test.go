package tunable

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
)

// TestTunablesTable checks what every consumer of the table relies on: names, keys, JSON keys
// and VM parameters unique and set; exactly one tunable set at launch, and only it with a
// launch flag; every accessor present and each one reading back what it wrote.
func TestTunablesTable(t *testing.T) {
	seen := map[string]bool{}
	launch := 0
	base := heapsim.DefaultParams()
	for _, tu := range All() {
		for _, s := range []string{"name " + tu.Name, "key " + tu.Key, "json " + tu.JSONKey, "label " + tu.Label} {
			assert.False(t, seen[s], "%s twice", s)
			seen[s] = true
		}
		assert.NotEmpty(t, tu.JSONKey, tu.Name)
		assert.Positive(t, tu.VMParam, tu.Name)
		assert.Equal(t, tu.AtLaunch, tu.LaunchFlag != "", "%s: AtLaunch and LaunchFlag disagree", tu.Name)
		if tu.AtLaunch {
			launch++
		}
		assert.NotEmpty(t, tu.TakesEffect, tu.Name)
		assert.NotEmpty(t, tu.Persists, tu.Name)
		if assert.NotNil(t, tu.OfPoint, tu.Name) && assert.NotNil(t, tu.FromParams, tu.Name) && assert.NotNil(t, tu.ToParams, tu.Name) &&
			assert.NotNil(t, tu.VMValue, tu.Name) && assert.NotNil(t, tu.Reset, tu.Name) && assert.NotNil(t, tu.OfSpace, tu.Name) {
			p := base
			v := tu.Default.High
			tu.ToParams(&p, v)
			assert.InDelta(t, v, tu.FromParams(p), 1, tu.Name)
			tu.Reset(&p, base)
			assert.Equal(t, tu.FromParams(base), tu.FromParams(p), tu.Name)
		}
	}
	assert.Equal(t, 1, launch, "tunables set at launch")
}

// TestByKeyKeys: every tunable is found by its key, in All's order.
func TestByKeyKeys(t *testing.T) {
	keys := Keys()
	require.Len(t, keys, len(All()))
	for i, tu := range All() {
		assert.Equal(t, tu.Key, keys[i])
		got, ok := ByKey(tu.Key)
		assert.True(t, ok, tu.Key)
		assert.Equal(t, tu.Name, got.Name)
	}
	_, ok := ByKey("bogus")
	assert.False(t, ok)
}

// TestFormat holds the one human form of a tunable's value.
func TestFormat(t *testing.T) {
	for _, c := range []struct {
		name string
		v    float64
		want string
	}{
		{ParamProportion, 1.08, "p = 1.08: all survivors"},
		{ParamProportion, 0.5, "p = 0.5"},
		{ParamProportion, 0.86123, "p = 0.861"},
		{ParamRatio, 12.75, "12.75"},
		{ParamRatio, 1.0 / 3, "0.3333"},
		{ParamRatio, 22.4, "22.4"},
		{ParamNewSpace, 141 << 20, "141 MiB"},
	} {
		if got := FormatNamed(c.name, c.v); got != c.want {
			t.Errorf("FormatNamed(%s, %v) = %q, want %q", c.name, c.v, got, c.want)
		}
	}
}
