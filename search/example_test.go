package search_test

import (
	"context"
	"fmt"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/tunable"
)

// Optimize searches the GC parameters of a small workload (the problem, from the spec
// testdata/example.yaml) with gctune's TPE
// (the method) on a study in goptuna's in-memory storage: the VM defaults first, then eleven
// more trials, one at a time, so that the seed reproduces the run. The Result holds the best
// trial. Package session runs the same search with heartbeats and crash recovery on a
// database.
func ExampleOptimize() {
	profile, _, err := source.Open("testdata/example.yaml", source.Options{Seed: 1})
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
	defaults := search.Seed{Name: "vm-defaults", Point: tunable.DefaultPoint(problem.Base())}
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
