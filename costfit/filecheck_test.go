package costfit

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
)

// TestReadFileRanges: a cost file with NaN, Inf or a coefficient far out of range anywhere
// (coefficients, scales, the measured run) is refused on load, naming the field (issue 35: a
// file with scales {mutator: .nan} or coefficients of 1e308 was accepted and printed NaN/Inf).
func TestReadFileRanges(t *testing.T) {
	f, err := NewFile(heapsim.DefaultCost().Scaled(heapsim.Scales{MutatorByte: 2, MutatorObject: 2, Scavenge: 2, FullGC: 2}))
	require.NoError(t, err)
	f.Scales = &Scales{2, 2, 2}
	f.Measured = &Measured{WallSeconds: 10}
	var sb strings.Builder
	require.NoError(t, WriteFile(&sb, f))
	good := sb.String()
	_, _, err = ReadFile(strings.NewReader(good), "cost.yaml")
	require.NoError(t, err)
	for _, c := range []struct{ re, repl, want string }{
		{`(?m)^  mutator: .*$`, "  mutator: .nan", "scales: mutator = NaN is out of range"},
		{`(?m)^  fullGC: .*$`, "  fullGC: .inf", "scales: fullGC = +Inf is out of range"},
		{`(?m)^  scavengeFixedSeconds: .*$`, "  scavengeFixedSeconds: 1e308", "coefficient scavengeFixedSeconds = 1e+308 is out of range"},
		{`(?m)^  growSecondsPerByte: .*$`, "  growSecondsPerByte: 5", "coefficient growSecondsPerByte = 5 is out of range: want 0 to 1"},
		{`(?m)^  markSecondsPerObject: .*$`, "  markSecondsPerObject: .nan", "coefficient markSecondsPerObject = NaN: must be a finite number ≥ 0"},
		{`(?m)^  wallSeconds: .*$`, "  wallSeconds: .inf", "measured: wallSeconds = +Inf"},
	} {
		bad := regexp.MustCompile(c.re).ReplaceAllString(good, c.repl)
		require.NotEqual(t, good, bad, c.re)
		_, _, err := ReadFile(strings.NewReader(bad), "cost.yaml")
		require.Error(t, err, c.repl)
		assert.Contains(t, err.Error(), "cost file cost.yaml: "+c.want, c.repl)
		assert.NotContains(t, err.Error(), "\n")
	}
}
