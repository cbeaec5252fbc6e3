package cmdutil

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriteJSON: an indented document and a newline; a value JSON cannot hold is a usage error
// naming it, and nothing is written.
func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, map[string]int{"a": 1}))
	assert.Equal(t, "{\n  \"a\": 1\n}\n", b.String())
	b.Reset()
	err := WriteJSON(&b, map[string]float64{"speedup": math.Inf(1)})
	assert.True(t, IsUsage(err))
	assert.Equal(t, "JSON output: +Inf is not a number JSON can hold (a damaged trial value in the study database?)", err.Error())
	assert.Empty(t, b.String())
}
