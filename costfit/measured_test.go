package costfit

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// zeros is an endless reader, as /dev/zero is.
type zeros struct{ read int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += int64(len(p))
	return len(p), nil
}

// Issue 22: `calibrate --measured /dev/zero` read the device whole (3.4 GB in 5 s). The read
// stops one byte past MaxMeasuredBytes.
func TestParseMeasuredBounded(t *testing.T) {
	z := &zeros{}
	_, err := ParseMeasured(z, "/dev/zero")
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Equal(t, "costfit: /dev/zero: larger than the 16 MiB a measured run may have: not a measured run", err.Error())
	assert.LessOrEqual(t, z.read, int64(MaxMeasuredBytes+64<<10))
}

// A cost file is read no further than MaxCostBytes+1 either (`simulate --cost /dev/zero`).
func TestReadFileBounded(t *testing.T) {
	z := &zeros{}
	_, _, err := ReadFile(z, "/dev/zero")
	require.ErrorIs(t, err, ErrTooLarge)
	assert.LessOrEqual(t, z.read, int64(MaxCostBytes+64<<10))
	_, _, err = ReadFile(io.MultiReader(strings.NewReader("kind: gctune-cost\n"), io.LimitReader(&zeros{}, 10)), "x")
	require.Error(t, err)
	assert.False(t, errors.Is(err, ErrTooLarge))
}

// Issue 21: run.json values that cannot be a measurement (null, non-finite, negative, absurd)
// and duplicate keys are refused, each naming its key.
func TestParseMeasuredRefusesValues(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"wallSeconds": 1e308}`, "wallSeconds = 1e+308: must be a number of seconds from 0 to 1e+08"},
		{`{"wallMs": 1e308}`, "wallMs = 1e+308: must be a number of milliseconds"},
		{`{"wallSeconds": 10, "gcSeconds": 1e300}`, "gcSeconds = 1e+300"},
		{`{"wallSeconds": 10, "scavenges": 1e300}`, "scavenges = 1e+300: must be a whole number from 0 to 1e+12"},
		{`{"wallSeconds": 10, "fullGCs": -1}`, "fullGCs = -1"},
		{`{"wallSeconds": 10, "scavengeMs": -5}`, "scavengeMs = -5"},
		{`{"wallSeconds": 1e999}`, "wallSeconds"},
		{`{"wallSeconds": null}`, "wallSeconds is null"},
		{`{"wallSeconds": 10, "gcSeconds": null}`, "gcSeconds is null"},
		{`{"wallSeconds": 10, "wallSeconds": 20}`, "key wallSeconds given twice"},
		{`{"wallSeconds": 10, "gcSeconds": 1, "gcSeconds": 2}`, "key gcSeconds given twice"},
		{`null`, "wallSeconds (or wallMs) must be given"},
		{`{"wallSeconds": 0}`, "wallSeconds"},
	} {
		_, err := ParseMeasured(strings.NewReader(c.in), "run.json")
		require.Error(t, err, c.in)
		assert.Contains(t, err.Error(), c.want, c.in)
		assert.True(t, strings.HasPrefix(err.Error(), "costfit: run.json: "), err.Error())
		assert.NotContains(t, err.Error(), "\n")
	}
	// The largest values allowed still parse.
	m, err := ParseMeasured(strings.NewReader(`{"wallSeconds": 1e8, "scavenges": 1e12}`), "run.json")
	require.NoError(t, err)
	assert.Equal(t, 1e8, m.WallSeconds)
}
