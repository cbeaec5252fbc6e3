package objective_test

import (
	"fmt"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile"
)

// Problem.Evaluate turns simulator parameters into the value a search minimises (the simulated
// run time, in seconds) and the metrics kept with each trial. Here the problem is a small
// workload built by hand (parsing garbage and a 24 MiB array every 16 MiB) under a 4 GiB memory budget, and the candidate a larger growth headroom.
func ExampleProblem_Evaluate() {
	var b profile.Builder
	parser, column := b.Class("NumberParser"), b.Class("Array")
	const end = 256 << 20
	next := uint64(0)
	for clock := uint64(0); clock < end; clock += 6400 {
		b.Add(parser, 64, clock, min(clock+4096, end), 100, 0)
		if clock >= next {
			b.Add(column, 24<<20, clock, end, 1, profile.FlagAliveAtEnd)
			next += 16 << 20
		}
	}
	profile, err := b.Build(profile.Meta{Source: "example", EndBytes: end})
	if err != nil {
		fmt.Println(err)
		return
	}
	problem, err := objective.NewProblem([]objective.Workload{{Name: "example", Profile: profile}},
		heapsim.DefaultCost(), heapsim.DefaultParams(), objective.Settings{MaxFootprintBytes: 4 * heapsim.GiB})
	if err != nil {
		fmt.Println(err)
		return
	}
	candidate := problem.Base()
	candidate.GrowthHeadroomBytes = 256 * heapsim.MiB
	res, err := problem.Evaluate(candidate)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("feasible: %v, %.2fx as fast as the defaults\n", res.Feasible, res.Speedup)
	fmt.Printf("full GCs: %d at the defaults, %d with the candidate\n", problem.Baseline(0).FullGCs, res.Stats[0].FullGCs)
	// Output:
	// feasible: true, 1.21x as fast as the defaults
	// full GCs: 17 at the defaults, 6 with the candidate
}
