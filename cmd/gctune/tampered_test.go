package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTamperedTrialValueNeverBest: a trial whose stored value was set to 0, a negative number
// or infinity never becomes the best ("+Infx faster"), and every JSON output stays valid
// (issue 11.6).
func TestTamperedTrialValueNeverBest(t *testing.T) {
	for _, tampered := range []string{"0", "-1", "9e999"} {
		t.Run(tampered, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "s.db")
			optimizeTiny(t, db, "t", 4, "-q")
			execSQL(t, db, "UPDATE trials SET value = "+tampered+" WHERE number = 3",
				"UPDATE trial_values SET value = "+tampered+" WHERE trial_id = (SELECT trial_id FROM trials WHERE number = 3)")

			for _, args := range [][]string{{"studies", "list"}, {"studies", "show", "t"}, {"export", "t"}, {"export", "t", "--pareto"}} {
				out, errOut, code := gctune(t, append(append([]string{"--json"}, args...), "--storage", db)...)
				require.Equal(t, 0, code, "%v: %s", args, errOut)
				require.True(t, json.Valid([]byte(out)), "%v: %s", args, out)
				assert.NotContains(t, out, "Inf", args)
				var doc any
				require.NoError(t, json.Unmarshal([]byte(out), &doc))
				assert.NotContains(t, out, `"bestTrial": 3`, args)
				assert.NotContains(t, out, `"trial": 3,`, args)
			}
			out, errOut, code := gctune(t, "export", "t", "--format", "flags", "--storage", db)
			require.Equal(t, 0, code, errOut)
			assert.False(t, strings.Contains(out, "Inf"), out)
		})
	}
}

// TestJSONOutputRefusesNonFinite: a document holding an infinite number (a damaged trial's
// speedup) is one error line, not a broken document.
func TestJSONOutputRefusesNonFinite(t *testing.T) {
	var out strings.Builder
	err := writeJSON(&out, map[string]float64{"speedup": math.Inf(1)})
	require.Error(t, err)
	assert.Equal(t, exitUsage, exitCode(err))
	assert.Contains(t, err.Error(), "+Inf is not a number JSON can hold")
	assert.Empty(t, out.String())
}
