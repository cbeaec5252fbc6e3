package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/glebarez/sqlite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// TestTamperedTrialValueNeverBest: a trial whose stored value was set to 0, a negative number
// or infinity never becomes the best ("+Infx faster"), and every JSON output stays valid
// (issue 11.6).
func TestTamperedTrialValueNeverBest(t *testing.T) {
	for _, tampered := range []string{"0", "-1", "9e999"} {
		t.Run(tampered, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "s.db")
			_, errOut, code := gctune(t, "optimize", "testdata/tiny.yaml", "--trials", "4", "--workers", "1", "--storage", db, "--study", "t", "-q")
			require.Equal(t, 0, code, errOut)
			g, err := gorm.Open(sqlite.Open(db), &gorm.Config{})
			require.NoError(t, err)
			require.NoError(t, g.Exec("UPDATE trials SET value = "+tampered+" WHERE number = 3").Error)
			require.NoError(t, g.Exec("UPDATE trial_values SET value = "+tampered+" WHERE trial_id = (SELECT trial_id FROM trials WHERE number = 3)").Error)
			sqlDB, _ := g.DB()
			require.NoError(t, sqlDB.Close())

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
