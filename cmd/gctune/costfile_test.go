package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCostFileValidatedOnLoad: a cost file holding NaN or a coefficient of 1e308 is refused by
// every command that loads it, in one line naming the file and the field, exit 2, before any
// study is created (issue 35: simulate printed NaN/Inf and exited 0; optimize failed in two
// lines).
func TestCostFileValidatedOnLoad(t *testing.T) {
	dir := t.TempDir()
	run := writeFile(t, "run.json", tinyRun)
	cost := filepath.Join(dir, "cost.yaml")
	gctuneOK(t, "calibrate", "testdata/tiny.yaml", "--measured", run, "-o", cost)
	good, err := os.ReadFile(cost)
	require.NoError(t, err)
	nan := filepath.Join(dir, "nan.yaml")
	require.NoError(t, os.WriteFile(nan, regexp.MustCompile(`(?m)^  mutator: .*$`).ReplaceAll(good, []byte("  mutator: .nan")), 0o644))
	big := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(big, regexp.MustCompile(`(?m)^  scavengeFixedSeconds: .*$`).ReplaceAll(good, []byte("  scavengeFixedSeconds: 1e308")), 0o644))
	db := filepath.Join(dir, "s.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate", "testdata/tiny.yaml", "--cost", nan}, "gctune: cost file " + nan + ": scales: mutator = NaN is out of range: want 0 to 1e+06\n"},
		{[]string{"simulate", "testdata/tiny.yaml", "--cost", big}, "gctune: cost file " + big + ": coefficient scavengeFixedSeconds = 1e+308 is out of range"},
		{[]string{"optimize", "testdata/tiny.yaml", "--cost", big, "--storage", db, "--trials", "2"}, "gctune: cost file " + big + ": coefficient scavengeFixedSeconds = 1e+308 is out of range"},
		{[]string{"optimize", "testdata/tiny.yaml", "--cost", nan, "--storage", db, "--trials", "2"}, "gctune: cost file " + nan + ": scales: mutator = NaN"},
	} {
		out, errOut, code := gctune(t, c.args...)
		assert.Equal(t, cmdutil.ExitUsage, code, "%v: %s", c.args, errOut)
		assert.True(t, strings.HasPrefix(errOut, c.want), "%v: %q", c.args, errOut)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
		assert.NotContains(t, out, "NaN")
		assert.NoFileExists(t, db)
	}
}
