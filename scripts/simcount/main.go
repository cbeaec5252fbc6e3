// Command simcount makes a stored study's recommendation again and counts its simulations
// step by step (recommend.Settings.Stage, objective.Problem.Simulations), with each step's CPU
// time: what docs/search.md's cost of a recommendation is measured with.
//
//	gctune optimize dataframe-3.1gb --trials 200 --seed 1 --storage s.db --study s -q
//	go run ./scripts/simcount s.db s
//
// It prints one line per step ("rejudge 48 sims 6.1 s CPU"), the total, and the
// recommendation's point, value and interval, so that two builds can be compared on the same
// trials. Further arguments: "json" prints the recommendation as JSON instead of the summary;
// "warm" first judges, as the search did, every trial within 6 % of the best (the ones the
// recommendation judges again), so that the count is optimize's, where the recommendation runs
// in the search's process and finds the search's replicas kept (objective.Problem); "report"
// then builds the study's report on that recommendation (report.Build, as gctune report does
// with the recommendation optimize stored) and counts its simulations and pool jobs
// (SIMCOUNT_CPUPROFILE=FILE: a CPU profile of building it).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"runtime/pprof"
	"slices"
	"syscall"
	"time"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/report"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/tunable"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "simcount:", err)
		os.Exit(2)
	}
}

// cpu is the process' user + system time.
func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func run(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("usage: simcount STORAGE STUDY [json]")
	}
	ctx := context.Background()
	store, err := trialstore.Open(ctx, args[0], trialstore.OpenOptions{})
	if err != nil {
		return err
	}
	defer store.Close()
	id, sp, err := study.Load(store, args[1])
	if err != nil {
		return err
	}
	trials, err := store.Storage().GetAllTrials(id)
	if err != nil {
		return err
	}
	prob, err := sp.ReopenObjective(study.ReopenOptions{})
	if err != nil {
		return err
	}
	for _, a := range args[2:] {
		if a != "warm" {
			continue
		}
		best := math.Inf(1)
		for _, t := range trials {
			if t.State == goptuna.TrialStateComplete && t.Value > 0 {
				best = min(best, t.Value)
			}
		}
		warmed := 0
		for _, t := range trials {
			if t.State != goptuna.TrialStateComplete || t.Value > best*1.06 {
				continue
			}
			p, err := tunable.PointFromParams(t.Params)
			if err != nil {
				continue
			}
			if _, err := prob.Evaluate(p.Params(prob.Base())); err != nil {
				return err
			}
			warmed++
		}
		fmt.Fprintf(os.Stderr, "warm: %d trials judged as the search did\n", warmed)
	}
	name, sims, c0, w0 := "setup", prob.Simulations(), cpu(), time.Now()
	total, start := int64(0), sims
	stage := func(next string) {
		n, c, w := prob.Simulations(), cpu(), time.Now()
		fmt.Fprintf(os.Stderr, "%-10s %4d sims %6.1f s CPU %6.1f s wall\n", name, n-sims, (c - c0).Seconds(), w.Sub(w0).Seconds())
		if name != "setup" {
			total += n - sims
		}
		name, sims, c0, w0 = next, n, c, w
	}
	began, beganCPU := time.Now(), cpu()
	rec, err := recommend.Recommend(ctx, prob, trials, recommend.Settings{Tolerance: recommend.DefaultTolerance, Stage: stage})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "recommendation: %d sims %.1f s CPU %.1f s wall (setup %d)\n", prob.Simulations()-start,
		(cpu() - beganCPU).Seconds(), time.Since(began).Seconds(), start)
	if slices.Contains(args[2:], "report") {
		if err := countReport(ctx, sp, prob, trials, rec); err != nil {
			return err
		}
	}
	if slices.Contains(args[2:], "json") {
		return json.NewEncoder(os.Stdout).Encode(rec)
	}
	fmt.Printf("trial %d point %+v atDefault %v value %.4f speedup %.4f\n", rec.Trial, rec.Point, rec.AtDefault, rec.Value, rec.Speedup)
	if rb := rec.Robust; rb != nil {
		fmt.Printf("value interval %+v speedup interval %+v flat %v moves %d instead %q\n", rb.ValueInterval, rb.SpeedupInterval, rb.Flat, len(rb.Moves), rb.Instead)
	}
	return nil
}

// countReport builds the report of rec and prints its simulations, pool jobs and times.
func countReport(ctx context.Context, sp *study.Problem, prob *objective.Problem, trials []goptuna.FrozenTrial, rec *recommend.Recommendation) error {
	start, began, beganCPU := prob.Simulations(), time.Now(), cpu()
	var jobs int
	if path := os.Getenv("SIMCOUNT_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	in := report.Input{Study: "s", Problem: prob, Space: sp.ConfiguredSpace, Trials: trials, Trial: -1,
		Tolerance: rec.Tolerance, Recommendation: rec}
	if _, err := report.Build(ctx, in, report.Options{Progress: func(done, total int) { jobs = total }}); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "report: %d sims of the problem, %d pool jobs, %.1f s CPU %.1f s wall\n",
		prob.Simulations()-start, jobs, (cpu() - beganCPU).Seconds(), time.Since(began).Seconds())
	return nil
}
