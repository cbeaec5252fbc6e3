//go:build unix

package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/simulate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The probes of issue 22, "Reads without a bound", each as it was written. A regression here
// reads a device without end: the test then runs out of time or memory instead of failing
// politely, which is the bug.

// tinyRun is a measured run that tiny.yaml's simulated default run can be scaled to.
const tinyRun = `{"wallSeconds": 0.5}`

// calibrate -o a device writes into it in place and never reads it; -o /dev/null works.
func TestCalibrateOutputDevices(t *testing.T) {
	run := writeFile(t, "run.json", tinyRun)
	_, errOut, code := gctune(t, "calibrate", "testdata/tiny.yaml", "--measured", run, "-o", "/dev/null")
	assert.Equal(t, 0, code, errOut)
	// Issue 35: a device that keeps nothing and is not /dev/null is no output (the cost file
	// would be lost without a word), refused before any work, as by every other output.
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		for _, cmd := range [][]string{
			{"calibrate", "testdata/tiny.yaml", "--measured", run, "-o", dev},
			{"simulate", "testdata/tiny.yaml", "--events", dev},
		} {
			_, errOut, code := gctune(t, cmd...)
			assert.Equal(t, cmdutil.ExitUsage, code, "%s: %s", dev, errOut)
			assert.Contains(t, errOut, "cannot write "+dev+": is a device that keeps nothing written into it", cmd)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
		}
	}
	_, errOut, code = gctune(t, "calibrate", "testdata/tiny.yaml", "--measured", run, "-o", "/dev/full")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: calibrate: write /dev/full: cannot write /dev/full: no space left on device\n", errOut)
}

// calibrate -o FIFO, with a reader, writes the cost file into it (it deadlocked reading it).
func TestCalibrateOutputFIFO(t *testing.T) {
	run := writeFile(t, "run.json", tinyRun)
	fifo := filepath.Join(t.TempDir(), "cost.yaml")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	t.Cleanup(func() { // a reader left waiting for a writer
		if fd, err := syscall.Open(fifo, syscall.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			_ = syscall.Close(fd)
		}
	})
	done := make(chan int, 1)
	go func() {
		_, _, code := gctune(t, "calibrate", "testdata/tiny.yaml", "--measured", run, "-o", fifo)
		done <- code
	}()
	select {
	case code := <-done:
		require.Equal(t, 0, code)
	case <-time.After(60 * time.Second):
		t.Fatal("calibrate -o FIFO deadlocked")
	}
	select {
	case s := <-got:
		assert.Contains(t, s, "kind: gctune-cost")
	case <-time.After(20 * time.Second):
		t.Fatal("the FIFO's reader got nothing")
	}
}

// A regular -o file that is too large to be a cost file is refused without being read whole.
func TestCalibrateOutputLargeFileRefused(t *testing.T) {
	run := writeFile(t, "run.json", tinyRun)
	big := filepath.Join(t.TempDir(), "big.yaml")
	require.NoError(t, os.WriteFile(big, bytes.Repeat([]byte("#\n"), 1<<20), 0o644))
	_, errOut, code := gctune(t, "calibrate", "testdata/tiny.yaml", "--measured", run, "-o", big)
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: -o "+big+" exists and is not a gctune cost file: not replacing it\n", errOut)
}

// --cost, GCTUNE_COST and --measured on /dev/zero: one line, exit 2, after 16 MiB.
func TestUnboundedInputsRefused(t *testing.T) {
	_, errOut, code := gctune(t, "simulate", "testdata/tiny.yaml", "--cost", "/dev/zero")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: cost file /dev/zero: larger than the 16 MiB a cost file may have: not a cost file\n", errOut)
	withEnv(t, []string{"GCTUNE_COST=/dev/zero"}, func() {
		_, errOut, code = gctune(t, "simulate", "testdata/tiny.yaml")
	})
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: cost file /dev/zero: larger than the 16 MiB a cost file may have: not a cost file\n", errOut)
	_, errOut, code = gctune(t, "calibrate", "testdata/tiny.yaml", "--measured", "/dev/zero")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: /dev/zero: larger than the 16 MiB a measured run may have: not a measured run\n", errOut)
	_, errOut, code = gctune(t, "simulate", "testdata/tiny.yaml", "--config", "/dev/zero")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
}

// Issue 21: run.json values that are not a measurement, each named.
func TestCalibrateRefusesAbsurdRun(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`{"wallSeconds": 1e308}`, "wallSeconds = 1e+308"},
		{`{"wallSeconds": 10, "wallSeconds": 20}`, "key wallSeconds given twice"},
		{`{"wallSeconds": null}`, "wallSeconds is null"},
		{`{"wallSeconds": 10, "fullGCs": -2}`, "fullGCs = -2"},
	} {
		run := writeFile(t, "run.json", c.json)
		_, errOut, code := gctune(t, "calibrate", "testdata/tiny.yaml", "--measured", run)
		assert.Equal(t, cmdutil.ExitUsage, code, c.json)
		assert.Contains(t, errOut, c.want, c.json)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
	}
}

// mkfifo makes a FIFO named name in a new directory, and unblocks at the end of the test any
// reader left waiting in open(2) for a writer.
func mkfifo(t *testing.T, name string) string {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), name)
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	t.Cleanup(func() {
		if fd, err := syscall.Open(fifo, syscall.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			time.Sleep(20 * time.Millisecond)
			_ = syscall.Close(fd)
		}
	})
	return fifo
}

// A FIFO with no writer given as profile, spec, --config, --measured or --cost: the first
// interrupt (the context main cancels on SIGINT) stops the command at once.
func TestFIFOInputInterrupted(t *testing.T) {
	run := writeFile(t, "run.json", tinyRun)
	cases := map[string]func(fifo string) []string{
		"spec":       func(f string) []string { return []string{"lifetimes", f} },
		"profile":    func(f string) []string { return []string{"simulate", f} },
		"sample":     func(f string) []string { return []string{"sample", f, "-o", filepath.Join(t.TempDir(), "s.csv")} },
		"calibrate":  func(f string) []string { return []string{"calibrate", f, "--measured", run} },
		"--config":   func(f string) []string { return []string{"simulate", "testdata/tiny.yaml", "--config", f} },
		"--measured": func(f string) []string { return []string{"calibrate", "testdata/tiny.yaml", "--measured", f} },
		"--cost":     func(f string) []string { return []string{"simulate", "testdata/tiny.yaml", "--cost", f} },
		"metadata":   func(f string) []string { return []string{"lifetimes", strings.TrimSuffix(f, ".json") + ".csv"} },
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			fname := "in.yaml"
			switch name {
			case "profile":
				fname = "in.gcprof"
			case "--measured", "metadata":
				fname = "in.json"
			}
			fifo := mkfifo(t, fname)
			if name == "metadata" {
				b, err := os.ReadFile("testdata/run.csv")
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(strings.TrimSuffix(fifo, ".json")+".csv", b, 0o644))
			}
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(300*time.Millisecond, cancel)
			var out, errb bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- runContext(ctx, args(fifo), &out, &errb) }()
			select {
			case code := <-done:
				assert.Equal(t, cmdutil.ExitInterrupted, code)
				assert.Equal(t, "gctune: interrupted: while waiting for "+fifo+" to be written\n", errb.String())
			case <-time.After(20 * time.Second):
				t.Fatal("the interrupt did not stop the wait for a writer")
			}
		})
	}
}

// The same with a real process and a real SIGINT: one is enough.
func TestFIFOInputFirstSIGINTStops(t *testing.T) {
	fifo := mkfifo(t, "spec.yaml")
	cmd, out := gctuneProcess(t, nil, "lifetimes", fifo)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	time.Sleep(time.Second) // let it reach the FIFO's open
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	select {
	case err := <-done:
		require.Error(t, err, "the process ended normally: %s", out)
		assert.Contains(t, out.String(), "interrupted: while waiting for "+fifo)
		assert.Equal(t, cmdutil.ExitInterrupted, cmd.ProcessState.ExitCode())
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatal("the first SIGINT did not stop gctune waiting for a FIFO's writer")
	}
}

// A FIFO with a writer (what <(zcat run.json.gz) gives) is read as a stream.
func TestFIFOInputReadAsStream(t *testing.T) {
	write := func(fifo, content string) {
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			defer f.Close()
			_, _ = io.WriteString(f, content)
		}()
	}
	spec, err := os.ReadFile("testdata/tiny.yaml")
	require.NoError(t, err)
	fifo := mkfifo(t, "spec.yaml")
	write(fifo, string(spec))
	out, _ := gctuneOK(t, "lifetimes", fifo)
	assert.Contains(t, out, "spec tiny")

	measured := mkfifo(t, "run.json")
	write(measured, tinyRun)
	_, errOut := gctuneOK(t, "calibrate", "testdata/tiny.yaml", "--measured", measured)
	assert.NotContains(t, errOut, "gctune:")

	config := mkfifo(t, "c.yaml")
	write(config, "simulate:\n  eden: 8MiB\n")
	var doc simulate.Report
	gctuneJSON(t, &doc, "simulate", "testdata/tiny.yaml", "--config", config)
	assert.Equal(t, uint64(8<<20), doc.Given.Params.NewSpaceBytes)
}

// A study reads its profiles again: a FIFO profile is refused at once, not waited on.
func TestOptimizeRefusesStreamProfile(t *testing.T) {
	fifo := mkfifo(t, "spec.yaml")
	_, errOut, code := gctune(t, "optimize", fifo, "--trials", "1", "--storage", filepath.Join(t.TempDir(), "s.db"))
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: "+fifo+" is a pipe or FIFO: a study reads its profiles again (resume, workers, report), so give a regular file (zcat run.csv.gz > run.csv)\n", errOut)
}
