package verify

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gctune/gctune/uncertainty"
)

// Environment variables every run receives.
const (
	EnvEdenFlag = "GCTUNE_EDEN_FLAG"
	EnvST       = "GCTUNE_ST"
	EnvConfig   = "GCTUNE_CONFIG"
)

// Placeholders replaced in the command's arguments.
const (
	PlaceholderEden = "{eden}"
	PlaceholderST   = "{st}"
)

// DefaultName names the default configuration.
const DefaultName = "default"

// Config is one configuration to run.
type Config struct {
	// Name is "default", "best" or "trial-N" (GCTUNE_CONFIG).
	Name string
	// Trial is the study's trial number, -1 for the defaults.
	Trial int
	// EdenFlag is the VM's launch flag for the new-space size, e.g. "--edenSize=632m".
	EdenFlag string
	// Script is the Pharo startup script that sets the other parameters.
	Script string
	// PredictedSpeedup is the simulated speedup over the defaults (1 for the defaults): the
	// expected one when the study has an uncertainty model, and PredictedInterval then the
	// interval stated for a further run's speedup (nil: the single simulation, no interval).
	PredictedSpeedup  float64
	PredictedInterval *uncertainty.Interval
}

// Plan is what Session runs.
type Plan struct {
	// Configs lists the configurations; the first is the defaults, which the others are
	// compared with.
	Configs []Config
	// Argv is the command, with placeholders.
	Argv []string
	// Runs is the number of measured runs of each configuration (rounds); Warmup adds one
	// unmeasured run of each first.
	Runs   int
	Warmup bool
	// Timeout ends a run that has not finished (0: no limit).
	Timeout time.Duration
}

// Run is one finished run.
type Run struct {
	Config string
	Trial  int
	// Round is the measured round, from 0; -1 for the warm-up.
	Round int
	Start time.Time
	Outcome
}

// RunError reports a run that failed: its exit code, or its timeout, and the last lines of
// its standard error.
type RunError struct {
	Config   string
	Round    int
	ExitCode int
	TimedOut bool
	Timeout  time.Duration
	Stderr   []string
}

func (e *RunError) Error() string {
	which := fmt.Sprintf("run %d", e.Round+1)
	if e.Round < 0 {
		which = "warm-up run"
	}
	var what string
	if e.TimedOut {
		what = fmt.Sprintf("did not finish within --timeout %s (its process group was killed)", e.Timeout)
	} else {
		what = fmt.Sprintf("failed with exit code %d", e.ExitCode)
	}
	msg := fmt.Sprintf("verify: the command's %s under %s %s", which, e.Config, what)
	if len(e.Stderr) > 0 {
		msg += "; its last standard error lines: " + strings.Join(e.Stderr, " | ")
	}
	return msg
}

// Validate checks the plan.
func (p Plan) Validate() error {
	switch {
	case len(p.Configs) < 2:
		return errors.New("verify: need the defaults and at least one configuration to compare")
	case p.Configs[0].Name != DefaultName:
		return fmt.Errorf("verify: the first configuration must be %q, not %q", DefaultName, p.Configs[0].Name)
	case len(p.Argv) == 0:
		return errors.New("verify: no command to run")
	case p.Runs < 1:
		return fmt.Errorf("verify: runs = %d: must be at least 1", p.Runs)
	case p.Timeout < 0:
		return fmt.Errorf("verify: timeout %s must not be negative", p.Timeout)
	}
	seen := map[string]bool{}
	for _, c := range p.Configs {
		if seen[c.Name] {
			return fmt.Errorf("verify: configuration %q twice", c.Name)
		}
		seen[c.Name] = true
	}
	return nil
}

// Session runs the plan with runner and calls record after every run that finished (warm-ups
// and failures included), in order, so the caller stores each at once. It stops at the first
// failed run with a *RunError (after recording it), when record fails, or when ctx is
// cancelled: the run then in progress is killed and not recorded, and Session returns the runs
// so far with interrupted set and no error. The startup scripts are written to a temporary
// directory, removed at the end.
func Session(ctx context.Context, p Plan, runner Runner, record func(Run) error) (runs []Run, interrupted bool, err error) {
	if err := p.Validate(); err != nil {
		return nil, false, err
	}
	dir, err := os.MkdirTemp("", "gctune-verify-")
	if err != nil {
		return nil, false, fmt.Errorf("verify: %w", err)
	}
	defer os.RemoveAll(dir)
	scripts := make([]string, len(p.Configs))
	for i, c := range p.Configs {
		scripts[i] = filepath.Join(dir, "gctune-"+c.Name+".st")
		if err := os.WriteFile(scripts[i], []byte(c.Script), 0o644); err != nil {
			return nil, false, fmt.Errorf("verify: write startup script: %w", err)
		}
	}
	for s := range p.steps() {
		if ctx.Err() != nil {
			return runs, true, nil
		}
		c := p.Configs[s.config]
		spec := RunSpec{
			Argv:    expand(p.Argv, c.EdenFlag, scripts[s.config]),
			Env:     []string{EnvEdenFlag + "=" + c.EdenFlag, EnvST + "=" + scripts[s.config], EnvConfig + "=" + c.Name},
			Timeout: p.Timeout,
		}
		start := time.Now().UTC()
		out, err := runner.Run(ctx, spec)
		if err != nil {
			return runs, false, err
		}
		if out.Interrupted || (ctx.Err() != nil && out.ExitCode != 0) {
			return runs, true, nil
		}
		run := Run{Config: c.Name, Trial: c.Trial, Round: s.round, Start: start, Outcome: out}
		runs = append(runs, run)
		if err := record(run); err != nil {
			return runs, false, err
		}
		if out.TimedOut || out.ExitCode != 0 {
			return runs, false, &RunError{Config: c.Name, Round: s.round, ExitCode: out.ExitCode, TimedOut: out.TimedOut,
				Timeout: p.Timeout, Stderr: out.StderrTail}
		}
	}
	return runs, false, nil
}

// step is one run of a plan: a configuration (its index) in a round (-1: the warm-up).
type step struct{ config, round int }

// steps yields the plan's runs in order: the warm-ups, then each round, the configurations
// in turn, every other round in reverse. They are generated as they are run, never held: the
// memory of a session does not grow with Runs (issue 35: --runs 1000000000 took 8 GB before
// its first run).
func (p Plan) steps() iter.Seq[step] {
	return func(yield func(step) bool) {
		if p.Warmup {
			for i := range p.Configs {
				if !yield(step{i, -1}) {
					return
				}
			}
		}
		for r := 0; r < p.Runs; r++ {
			for k := range p.Configs {
				i := k
				if r%2 == 1 {
					i = len(p.Configs) - 1 - k
				}
				if !yield(step{i, r}) {
					return
				}
			}
		}
	}
}

// expand replaces the placeholders in argv.
func expand(argv []string, eden, st string) []string {
	out := make([]string, len(argv))
	r := strings.NewReplacer(PlaceholderEden, eden, PlaceholderST, st)
	for i, a := range argv {
		out[i] = r.Replace(a)
	}
	return out
}

// IsRunEnv reports whether name is one of the variables a verified command receives
// (EnvEdenFlag, EnvST, EnvConfig).
func IsRunEnv(name string) bool {
	return name == EnvEdenFlag || name == EnvST || name == EnvConfig
}
