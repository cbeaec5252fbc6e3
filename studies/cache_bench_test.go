package studies

import (
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTrialOverhead measures the storage's cost of one trial on SQLite: study.Optimize
// with a trivial five-parameter objective and a sampler that reads every trial of the study for
// each parameter (as gctune's samplers do), in a study that already holds `trials` trials,
// with and without the cache. It reports ms/trial. Run it with -benchtime=Nx to fix the
// number of trials timed, for example
//
//	go test -run '^$' -bench TrialOverhead -benchtime 50x ./studies
func BenchmarkTrialOverhead(b *testing.B) {
	for _, size := range []int{100, 1000} {
		for _, cached := range []bool{false, true} {
			name := fmt.Sprintf("trials=%d/cache=%v", size, cached)
			b.Run(name, func(b *testing.B) {
				path := filepath.Join(b.TempDir(), "bench.db")
				// Fill the study through the cache (fast), then time through the store
				// under test.
				fill := openT(b, path, OpenOptions{})
				st := newStudy(b, fill, "bench", 1)
				if err := st.Optimize(objective5, size); err != nil {
					b.Fatal(err)
				}
				store := openT(b, path, OpenOptions{NoCache: !cached})
				study, err := LoadStudy(store, "bench")
				if err != nil {
					b.Fatal(err)
				}
				study.Sampler = newReadAllSampler(2)
				// Warm the cache (its first read loads every trial).
				if _, err := study.GetTrials(); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				start, cpu0 := time.Now(), cpuTime()
				if err := study.Optimize(objective5, b.N); err != nil {
					b.Fatal(err)
				}
				elapsed, cpu := time.Since(start), cpuTime()-cpu0
				b.ReportMetric(float64(elapsed.Microseconds())/1000/float64(b.N), "ms/trial")
				// CPU time is less sensitive to other load on the machine than wall time.
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/trial")
			})
		}
	}
}
