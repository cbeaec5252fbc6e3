package trialstore

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gctune/gctune/internal/trialbench"
)

// BenchmarkTrialOverhead measures the storage's cost of one trial on SQLite: study.Optimize
// with a trivial five-parameter objective and a sampler that reads every trial of the study for
// each parameter (as gctune's samplers do), in a study that already holds `trials` trials,
// with and without the cache. It reports ms/trial. Run it with -benchtime=Nx to fix the
// number of trials timed, for example
//
//	go test -run '^$' -bench TrialOverhead -benchtime 50x ./trialstore
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
				trialbench.ReportPerTrial(b, func() error { return study.Optimize(objective5, b.N) })
			})
		}
	}
}
