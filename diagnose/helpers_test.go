package diagnose

import (
	"testing"

	"github.com/gctune/gctune/internal/testfixture"
	"github.com/gctune/gctune/objective"
)

// testProblem opens bundled workloads (seed 1, as config.yaml's default) into a problem
// with the calibrated cost model and the VM defaults.
func testProblem(t testing.TB, budget uint64, names ...string) *objective.Problem {
	t.Helper()
	return testfixture.BundledProblem(t, objective.Settings{MaxFootprintBytes: budget}, names...)
}
