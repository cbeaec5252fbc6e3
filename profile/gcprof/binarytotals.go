package gcprof

import (
	"fmt"
	"math"

	"github.com/gctune/gctune/profile"
)

// maxAllocatedOverRun bounds how far a profile's allocated bytes (Σ weight × size) may exceed
// its run's length on the bytes-allocated clock (Meta.EndBytes). The two measure the same
// thing: generated profiles give a ratio of 1.000 (each bundled workload, measured), a
// sampled FiLiP export about 1 with sampling noise. Sixteen times the run, plus 64 MiB for hand-made
// tiny runs, is "far beyond": a file that claims more was not written by gctune, whatever its
// checksum says.
const (
	maxAllocatedOverRun = 16
	allocatedSlackBytes = 64 << 20
)

// checkTotals refuses a profile whose records allocate far more bytes than its run is long.
func checkTotals(p *profile.Profile, name string) error {
	var allocated float64
	for i, s := range p.SizeBytes {
		allocated += float64(p.Weight[i]) * float64(s)
	}
	limit := maxAllocatedOverRun*float64(p.Meta.EndBytes) + allocatedSlackBytes
	if allocated > limit || math.IsNaN(allocated) {
		return fmt.Errorf("%w: %s: its records allocate %.4g bytes (weight × size), more than %d times the run's %d bytes: the totals are impossible",
			ErrCorrupt, name, allocated, maxAllocatedOverRun, p.Meta.EndBytes)
	}
	return nil
}
