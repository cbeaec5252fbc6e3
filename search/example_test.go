package search_test

import (
	"context"
	"fmt"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/search"
)

// Optimize searches the GC parameters of a small workload (the problem) with gctune's TPE
// (the method) on a study in goptuna's in-memory storage: the VM defaults first, then eleven
// more trials, one at a time, so that the seed reproduces the run. The Result holds the best
// trial. Package session runs the same search with heartbeats and crash recovery on a
// database.
func ExampleOptimize() {
	spec, err := lifetimes.ParseSpec([]byte(`
name: example
allocate: 200MB
resolution: 0.005
classes:
  - {name: Temp, size: 48}
  - {name: Keep, size: 64}
  - {name: Array, size: 24MB}
phases:
  - name: run
    allocate: 100%
    mix:
      - {class: Temp, share: 0.8, lifetime: immediate}
      - {class: Keep, share: 0.2, lifetime: until-end}
    large:
      - {class: Array, size: 24MB, count: 6, lifetime: until-end}
`), "example.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	profile, err := spec.Generate(lifetimes.GenerateOptions{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	problem, err := objective.NewProblem([]objective.Workload{{Name: "example", Profile: profile}},
		heapsim.DefaultCost(), heapsim.DefaultParams(), objective.Settings{})
	if err != nil {
		fmt.Println(err)
		return
	}

	storage := goptuna.NewInMemoryStorage()
	study, err := goptuna.CreateStudy("example", goptuna.StudyOptionStorage(storage), goptuna.StudyOptionLogger(nil))
	if err != nil {
		fmt.Println(err)
		return
	}
	defaults := search.Seed{Name: "vm-defaults", Point: search.DefaultPoint(problem.Base())}
	if err := search.Enqueue(study, []search.Seed{defaults}); err != nil {
		fmt.Println(err)
		return
	}
	// Zero values: one worker, the default sampler (TPE), the default space.
	res, err := search.Optimize(context.Background(), storage, "example", problem, search.Settings{Trials: 12, Seed: 7})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d trials run, %d finished\n", res.Status, res.Ran, res.Finished)
	fmt.Printf("best: trial %d, %.1fx as fast as the defaults\n", res.Best.Number, problem.DefaultValue()/res.Best.Value)
	// Output:
	// budget reached: 12 trials run, 12 finished
	// best: trial 10, 1.2x as fast as the defaults
}
