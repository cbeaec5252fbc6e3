package verify

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failingRunner fails every run at once (exit code 1).
type failingRunner struct{}

func (failingRunner) Run(context.Context, RunSpec) (Outcome, error) {
	return Outcome{ExitCode: 1}, nil
}

// TestSessionMemoryBoundedByTheWork: a plan of a billion rounds whose first run fails takes
// the memory of one run, not of a billion: the runs are generated as they are run and stored
// as they finish (issue 35: verify --runs 1000000000 took 8.2 GB, then was killed). The bound
// is on the bytes allocated, measured, not on time.
func TestSessionMemoryBoundedByTheWork(t *testing.T) {
	p := plan()
	p.Runs, p.Warmup = 1_000_000_000, false
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	runs, _, err := Session(context.Background(), p, failingRunner{}, func(Run) error { return nil })
	runtime.ReadMemStats(&after)
	var re *RunError
	require.ErrorAs(t, err, &re)
	assert.Len(t, runs, 1)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d bytes for a plan of %d rounds", allocated, p.Runs)
	assert.Less(t, allocated, uint64(16<<20), "bytes allocated by a session whose first run fails")
}
