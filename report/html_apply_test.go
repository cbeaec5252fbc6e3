package report

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/recommend"
)

func TestApplySectionSaysSavesForANegativeCost(t *testing.T) {
	// A put-back that makes the run faster (a negative cost) "saves", never "costs -0.25 %".
	rec := &recommend.Recommendation{Tolerance: 0.01, Trial: 3, Speedup: 2, Value: 50, DefaultValue: 100}
	rec.Chosen.Number, rec.Best.Number = 3, 3
	rec.PutBack = []recommend.Step{{Param: "shrink_threshold_bytes", Label: "shrink threshold", Value: 64 << 20, Default: 32 << 20, Cost: -0.0025, Feasible: true}}
	rec.Kept = []recommend.Step{{Param: "new_space_bytes", Label: "new space", Value: 256 << 20, Default: 16 << 20, Cost: 0.42, Feasible: true, Why: "scavenges"}}
	v := htmlApplySection(&Report{Apply: &Apply{}, Recommendation: rec}, true)
	require.NotNil(t, v)
	text := strings.Join(v.Chosen, "\n")
	assert.Contains(t, text, "Simulated, that saves 0.25 %, less than the tolerance of 1 %")
	assert.Contains(t, text, "Put back alone, it costs 42 % (scavenges)")
	assert.NotContains(t, text, "-0.25")
}
