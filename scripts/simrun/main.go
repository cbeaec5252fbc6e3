// Command simrun generates a bundled workload (seed 1, its default resolution) and simulates it
// N times at the default parameters, the profile prepared once (heapsim.Prepare), for
// instruction counts and CPU slopes without the benchmark framework (docs/benchmarks.md,
// "heapsim: simulation speed"):
//
//	go build -o simrun ./scripts/simrun
//	GOGC=off GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
//	    --callgrind-out-file=/dev/null ./simrun dataframe-3.1gb 3
//
// A third argument "scaled" runs a replica's sizes (scale 1.03, seed 7) rounded as the run
// reads them (heapsim.Options.SizeScale).
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile/spec"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "simrun:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("usage: simrun WORKLOAD RUNS [scaled]")
	}
	runs, err := strconv.Atoi(args[1])
	if err != nil {
		return fmt.Errorf("runs: %w", err)
	}
	sp, err := spec.BundledSpec(args[0])
	if err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	p, err := sp.Generate(spec.GenerateOptions{Seed: 1})
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	var opts heapsim.Options
	if len(args) > 2 && args[2] == "scaled" {
		opts.SizeScale, opts.SizeSeed = 1.03, 7
	}
	pp, err := heapsim.Prepare(p)
	if err != nil {
		return err
	}
	for range runs {
		if _, err := pp.Run(heapsim.DefaultParams(), heapsim.DefaultCost(), opts); err != nil {
			return fmt.Errorf("simulate: %w", err)
		}
	}
	fmt.Println(p.Len(), "records,", runs, "runs")
	return nil
}
