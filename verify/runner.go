package verify

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/gctune/gctune/costfit"
)

// StderrLines is how many of a run's last standard-error lines are kept.
const StderrLines = 10

// RunSpec is one process to run.
type RunSpec struct {
	// Argv is the command and its arguments, placeholders already replaced.
	Argv []string
	// Env is added to the environment gctune runs in.
	Env []string
	// Timeout ends the run when it has not finished by then (0: no limit).
	Timeout time.Duration
}

// Outcome is what one run did.
type Outcome struct {
	// Wall is the time from starting the process to its exit.
	Wall time.Duration
	// ExitCode is the exit status; -1 when the process was killed.
	ExitCode int
	// TimedOut is set when the run was ended at its timeout; Interrupted when the context was
	// cancelled first.
	TimedOut, Interrupted bool
	// StderrTail holds the last StderrLines lines of standard error.
	StderrTail []string
	// Stats is the last "gctune-stats" line's JSON object, and Measured its figures; StatsErr
	// says why a stats line could not be read.
	Stats    string
	Measured *costfit.Measured
	StatsErr string
}

// ErrStart matches the error of a command that could not be started (not found, not
// executable).
var ErrStart = errors.New("verify: cannot start the command")

// Runner runs one process. An error means it could not run at all (command not found);
// a process that ran and failed is an Outcome with its exit code.
type Runner interface {
	Run(ctx context.Context, spec RunSpec) (Outcome, error)
}

// ExecRunner runs processes with os/exec, each in its own process group. Output, when set,
// receives the processes' standard output and standard error as they run.
type ExecRunner struct {
	Output io.Writer
}

// Run implements Runner.
func (r ExecRunner) Run(ctx context.Context, spec RunSpec) (Outcome, error) {
	if len(spec.Argv) == 0 {
		return Outcome{}, errors.New("verify: empty command")
	}
	cmd := exec.Command(spec.Argv[0], spec.Argv[1:]...)
	cmd.Env = append(os.Environ(), spec.Env...)
	setGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return Outcome{}, fmt.Errorf("verify: %w", err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return Outcome{}, fmt.Errorf("verify: %w", err)
	}
	var out Outcome
	var mu sync.Mutex // Output is shared by the two readers
	forward := func(line string) {
		if r.Output != nil {
			mu.Lock()
			fmt.Fprintln(r.Output, line)
			mu.Unlock()
		}
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Outcome{}, fmt.Errorf("%w %s: %w", ErrStart, spec.Argv[0], err)
	}
	var readers sync.WaitGroup
	readers.Add(2)
	go func() {
		defer readers.Done()
		eachLine(stdout, func(line string) {
			forward(line)
			if m, ok, err := costfit.ParseStatsLine(line); ok {
				if err != nil {
					out.StatsErr = err.Error()
					return
				}
				out.Stats = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), strings.TrimSpace(costfit.StatsPrefix)))
				out.Measured, out.StatsErr = &m, ""
			}
		})
	}()
	go func() {
		defer readers.Done()
		eachLine(stderr, func(line string) {
			forward(line)
			out.StderrTail = append(out.StderrTail, line)
			if len(out.StderrTail) > StderrLines {
				out.StderrTail = out.StderrTail[1:]
			}
		})
	}()
	done := make(chan error, 1)
	go func() {
		readers.Wait() // the pipes close when every process holding them exits
		done <- cmd.Wait()
	}()
	var timeout <-chan time.Time
	if spec.Timeout > 0 {
		timer := time.NewTimer(spec.Timeout)
		defer timer.Stop()
		timeout = timer.C
	}
	var waitErr error
	select {
	case waitErr = <-done:
	case <-timeout:
		out.TimedOut = true
		killGroup(cmd)
		waitErr = <-done
	case <-ctx.Done():
		out.Interrupted = true
		killGroup(cmd)
		waitErr = <-done
	}
	out.Wall = time.Since(start)
	out.ExitCode = 0
	if waitErr != nil {
		var ee *exec.ExitError
		if !errors.As(waitErr, &ee) {
			if !out.TimedOut && !out.Interrupted {
				return out, fmt.Errorf("verify: %s: %w", spec.Argv[0], waitErr)
			}
			out.ExitCode = -1
		} else {
			out.ExitCode = ee.ExitCode()
		}
	}
	return out, nil
}

// eachLine calls f with each line r gives (lines up to 1 MiB), then reads r to its end, so
// that the process writing to it never blocks on a full pipe.
func eachLine(r io.Reader, f func(line string)) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f(sc.Text())
	}
	_, _ = io.Copy(io.Discard, r)
}
