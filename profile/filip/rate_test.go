package filip

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseRate(t *testing.T) {
	for s, want := range map[string]uint64{"1/100": 100, " 1 / 7 ": 7, "0.01": 100, "0.001": 1000, "1": 1, "1/4294967295": 4294967295} {
		n, err := ParseRate(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, n, s)
	}
	for _, s := range []string{"", "2/100", "1/0", "1/x", "0", "1.5", "-0.1", "0.3", "1/4294967296", "1e-10"} {
		_, err := ParseRate(s)
		assert.EqualError(t, err, `"`+s+`": want 1/N with N a positive integer (1/100, 0.001 or 1)`, s)
	}
}
