package report

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/tunable"
)

// TestBuildProgress: Build reports its simulations as they finish, ending with all of them.
func TestBuildProgress(t *testing.T) {
	prob := testProblem(t, 0, "cache-churn")
	space := tunable.DefaultSpace()
	in := Input{Study: "p", Version: "test", Problem: prob, Space: space, Trials: testTrials(t, prob, space, 4), Trial: -1}
	var last [2]int
	calls := 0
	_, err := Build(context.Background(), in, Options{SweepPoints: 3, Workers: 2, Progress: func(done, total int) {
		calls++
		assert.LessOrEqual(t, done, total)
		assert.GreaterOrEqual(t, done, last[0])
		last = [2]int{done, total}
	}})
	require.NoError(t, err)
	assert.Positive(t, calls)
	assert.Equal(t, last[0], last[1], "every simulation announced is done")
	assert.GreaterOrEqual(t, last[1], 5*3, "at least the sweeps")
}
