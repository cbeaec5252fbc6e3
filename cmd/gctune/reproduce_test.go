package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOneWorkerReproducesBitForBit: two studies with the same seed and one worker run the same
// trials, parameter for parameter and value for value (the README's reproducibility promise;
// with more workers the order in which trials finish changes what the sampler has seen, so
// the trials differ).
func TestOneWorkerReproducesBitForBit(t *testing.T) {
	dir := t.TempDir()
	var runs [2][]struct {
		params map[string]float64
		value  float64
	}
	for i := range runs {
		db := filepath.Join(dir, "s"+itoa(i)+".db")
		optimizeTiny(t, db, "r", 16, "--seed", "7", "-q")
		for _, tr := range readTrials(t, db, "r") {
			require.Len(t, tr.Params, 5)
			runs[i] = append(runs[i], struct {
				params map[string]float64
				value  float64
			}{tr.InternalParams, tr.Value})
		}
	}
	require.Len(t, runs[0], 16)
	assert.Equal(t, runs[0], runs[1], "same seed, one worker: the trials differ")
}
