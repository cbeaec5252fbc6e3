package studies

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/search"
)

// BenchmarkLoopOverhead measures what one trial of gctune's own loop (search.Optimize: claim,
// sample, evaluate, write attributes, value and state, heartbeat) costs on a SQLite study that
// already holds 100 or 1,000 trials, with a workload so small that simulating it costs
// microseconds: the time per trial is the storage's (and, for tpe, the sampler's).
//
//	go test ./studies -run '^$' -bench LoopOverhead -benchtime 50x
func BenchmarkLoopOverhead(b *testing.B) {
	spec, err := lifetimes.ParseSpec([]byte(`
name: tiny
allocate: 2MB
classes: [{name: T, size: 32}]
phases: [{name: run, allocate: 100%, mix: [{class: T, share: 1, lifetime: immediate}]}]
`), "tiny.yaml")
	if err != nil {
		b.Fatal(err)
	}
	p, err := spec.Generate(lifetimes.GenerateOptions{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	prob, err := objective.NewProblem([]objective.Workload{{Name: "tiny", Profile: p}}, heapsim.DefaultCost(), heapsim.DefaultParams(), objective.Settings{})
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{100, 1000} {
		for _, sampler := range []string{search.SamplerRandom, search.SamplerTPE} {
			b.Run(fmt.Sprintf("trials=%d/sampler=%s", size, sampler), func(b *testing.B) {
				ctx := context.Background()
				store := openT(b, filepath.Join(b.TempDir(), "loop.db"), OpenOptions{})
				if _, err := CreateStudy(ctx, store, "loop", goptuna.StudyDirectionMinimize, nil); err != nil {
					b.Fatal(err)
				}
				settings := search.Settings{Trials: size, Workers: 1, Seed: 1, Sampler: search.SamplerRandom, Space: search.DefaultSpace(),
					OnTrialStart: func(id int) func() { return StartHeartbeat(ctx, store, id, time.Minute) }}
				if _, err := search.Optimize(ctx, store.Storage(), "loop", prob, settings, nil); err != nil {
					b.Fatal(err)
				}
				settings.Sampler = sampler
				settings.Trials = size + b.N
				b.ResetTimer()
				start, cpu0 := time.Now(), cpuTime()
				if _, err := search.Optimize(ctx, store.Storage(), "loop", prob, settings, nil); err != nil {
					b.Fatal(err)
				}
				elapsed, cpu := time.Since(start), cpuTime()-cpu0
				b.ReportMetric(float64(elapsed.Microseconds())/1000/float64(b.N), "ms/trial")
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/trial")
			})
		}
	}
}
