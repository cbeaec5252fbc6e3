package session

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gctune/gctune/internal/trialbench"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/tunable"
)

// BenchmarkLoopOverhead measures what one trial of gctune's own loop (Run: claim, sample,
// evaluate, write attributes, value and state, heartbeat; the reaper beside it) costs on a SQLite study that
// already holds 100 or 1,000 trials, with a workload so small that simulating it costs
// microseconds: the time per trial is the storage's (and, for tpe, the sampler's).
//
//	go test ./session -run '^$' -bench LoopOverhead -benchtime 50x
func BenchmarkLoopOverhead(b *testing.B) {
	prob := tinyProblem(b)
	for _, size := range []int{100, 1000} {
		for _, sampler := range []string{search.SamplerRandom, search.SamplerTPE} {
			b.Run(fmt.Sprintf("trials=%d/sampler=%s", size, sampler), func(b *testing.B) {
				ctx := context.Background()
				store, err := trialstore.Open(ctx, filepath.Join(b.TempDir(), "loop.db"), trialstore.OpenOptions{})
				if err != nil {
					b.Fatal(err)
				}
				defer store.Close()
				study, err := trialstore.CreateStudy(ctx, store, "loop", trialstore.NewStudy{Version: "test"})
				if err != nil {
					b.Fatal(err)
				}
				c := Config{Storage: store.Storage(), Study: "loop", StudyID: study.ID, Problem: prob, Keeper: StoreKeeper(store, study.ID),
					Search:            search.Settings{Trials: size, Workers: 1, Seed: 1, Sampler: search.SamplerRandom, Space: tunable.DefaultSpace()},
					HeartbeatInterval: time.Minute, ReapTimeout: 10 * time.Minute}
				if _, err := Run(ctx, c); err != nil {
					b.Fatal(err)
				}
				c.Search.Sampler = sampler
				c.Search.Trials = size + b.N
				b.ResetTimer()
				trialbench.ReportPerTrial(b, func() error {
					_, err := Run(ctx, c)
					return err
				})
			})
		}
	}
}
