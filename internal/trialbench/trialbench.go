// Package trialbench holds what the benchmarks of a study's per-trial cost share (studies'
// storage overhead, session's loop overhead): timing b.N trials by the wall clock and by the
// process's CPU time.
package trialbench

import (
	"testing"
	"time"
)

// ReportPerTrial calls run, which runs b.N trials, and reports the wall time per trial as
// ms/trial and, where the system tells it, the process's user and system CPU time per trial as
// cpu-ms/trial: CPU time is less sensitive to other load on the machine than wall time. An
// error from run fails b.
func ReportPerTrial(b *testing.B, run func() error) {
	b.Helper()
	start := time.Now()
	cpu0, cpuOK := cpuTime()
	if err := run(); err != nil {
		b.Fatal(err)
	}
	elapsed := time.Since(start)
	cpu1, _ := cpuTime()
	b.ReportMetric(float64(elapsed.Microseconds())/1000/float64(b.N), "ms/trial")
	if cpuOK {
		b.ReportMetric(float64((cpu1-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/trial")
	}
}
