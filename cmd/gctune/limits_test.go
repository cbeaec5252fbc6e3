package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCountFlagLimits: every count flag refuses a value past its documented limit, in one line
// naming the flag (or key) and the limit, exit 2, before any work: --trials and --workers of
// 2^63-1 were accepted and ran on forever (issue 35).
func TestCountFlagLimits(t *testing.T) {
	db := filepath.Join(t.TempDir(), "none.db")
	const huge = "9223372036854775807"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"optimize", "no-such-workload", "--trials", huge}, "search.trials = " + huge + " (--trials): must be in [1, 100000]"},
		{[]string{"optimize", "no-such-workload", "--trials", "100001"}, "search.trials = 100001 (--trials): must be in [1, 100000]"},
		{[]string{"optimize", "no-such-workload", "--workers", huge}, "search.workers = " + huge + " (--workers): must be in [0, 256]"},
		{[]string{"optimize", "no-such-workload", "--replicas", "257"}, "replicas: 257 is not in [0, 256]"},
		{[]string{"resume", "s", "--trials", huge}, "--trials " + huge + ": want 0 to 100000"},
		{[]string{"resume", "s", "--more", "100001"}, "--more 100001: want 0 to 100000"},
		{[]string{"worker", "--study", "s", "--trials", huge}, "--trials " + huge + ": want 0 to 100000"},
		{[]string{"worker", "--study", "s", "--retries", "1001"}, "--retries 1001: want 1 to 1000"},
		{[]string{"verify", "s", "--runs", "1000000000", "--", "true"}, "--runs 1000000000: want 1 to 10000"},
		{[]string{"report", "s", "--workers", huge}, "--workers " + huge + ": want 0 to 256"},
		{[]string{"explain", "s", "--workers", "257"}, "--workers 257: want 0 to 256"},
		{[]string{"report", "s", "--sweep-points", "1001"}, "--sweep-points 1001: want 3 to 1000"},
		{[]string{"simulate", "dataframe-500mb", "--replicas", "257"}, "--replicas 257: want 0 (none) to 256"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			args := append(append([]string{}, tc.args...), "--storage", db)
			if tc.args[0] == "simulate" {
				args = tc.args
			}
			_, errOut, code := gctune(t, args...)
			assert.Equal(t, 2, code, errOut)
			assert.Contains(t, errOut, tc.want)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
		})
	}
}
