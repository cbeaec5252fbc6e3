package simulate

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
)

// TestBatchParamsApply pins the words of a --batch line's errors, each naming the key and the
// value as the line gives it, and that null leaves a key at its configured value.
func TestBatchParamsApply(t *testing.T) {
	for _, c := range []struct {
		line, want string
	}{
		{`{"ratio":true}`, `ratio true: want a number or a string`},
		{`{"ratio":[1]}`, `ratio [1]: want a number or a string`},
		{`{"ratio":1e400}`, `ratio 1e400: want a number or a string`},
		{`{"ratio":"x"}`, `ratio "x": want a number`},
		{`{"survivors_proportion":"lots"}`, `survivors_proportion "lots": want a number ≥ 0 or "pharo"`},
		{`{"eden":"lots","bogus":1}`, `unknown field "bogus" (known: eden, headroom, shrink, ratio, survivors_proportion)`},
	} {
		var in BatchParams
		require.NoError(t, json.Unmarshal([]byte(c.line), &in), c.line)
		p := heapsim.DefaultParams()
		assert.EqualError(t, in.Apply(&p), c.want, c.line)
	}
	var in BatchParams
	require.NoError(t, json.Unmarshal([]byte(`{"eden":"lots"}`), &in))
	p := heapsim.DefaultParams()
	assert.EqualError(t, in.Apply(&p), `eden "lots": units: bad size "lots": want a number of bytes with an optional unit (1024, 512k, 64MiB, 1.5GiB)`)

	require.NoError(t, json.Unmarshal([]byte(`{"eden":1.6777216e7,"ratio":null,"survivors_proportion":"pharo"}`), &in))
	p = heapsim.DefaultParams()
	p.FullGCRatio = 7
	require.NoError(t, in.Apply(&p))
	assert.Equal(t, uint64(16<<20), p.NewSpaceBytes, "a number in exponent notation")
	assert.Equal(t, 7.0, p.FullGCRatio, "null: not given")
	assert.Equal(t, heapsim.DefaultParams().Survivors, p.Survivors)
}
