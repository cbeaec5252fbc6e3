package search

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlanText: each rule on its line, its kind in a column; a plan without rules says so.
func TestPlanText(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Plan{}.WriteText(&b))
	assert.Equal(t, "seeding and constraints from the lifetime profile: none\n", b.String())
	b.Reset()
	require.NoError(t, Plan{Rules: []Rule{{Name: "vm-defaults", Kind: "seed", Reason: "the baseline"}, {Name: "eden", Kind: "constraint", Reason: "at most 1 GiB"}}}.WriteText(&b))
	assert.Equal(t, "from the lifetime profile (--no-seed, --no-constrain turn these off):\n"+
		"  seed       vm-defaults: the baseline\n"+
		"  constraint eden: at most 1 GiB\n", b.String())
}
