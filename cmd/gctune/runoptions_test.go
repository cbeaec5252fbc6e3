package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/costfit"
	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/simulate"
	"github.com/gctune/gctune/uncertainty"
	"github.com/gctune/gctune/verify"
)

// tiny is the two-class spec the command tests generate in milliseconds.
const tiny = "testdata/tiny.yaml"

// The commands' run functions take an options struct and a Config: a test calls them without
// the command line (no flags, no viper), as here every command that runs a study or a
// simulation, on one tiny study.
func TestRunFunctionsWithoutTheCLI(t *testing.T) {
	cfg := defaultConfig()
	cfg.Storage = filepath.Join(t.TempDir(), "s.db")
	cfg.Search.Trials, cfg.Search.Workers = 3, 1
	ctx := t.Context()
	var out, errOut bytes.Buffer

	require.NoError(t, runStudyCreate(ctx, &out, &errOut, cfg, studyCreateOptions{Study: "s", Refs: []string{tiny}, Quiet: true}))
	assert.Empty(t, out.String(), "quiet")

	err := runResume(ctx, &out, &errOut, cfg, resumeOptions{Study: "s", More: -1})
	assert.EqualError(t, err, "--more -1: want 0 to 100000")
	assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
	err = runResume(ctx, &out, &errOut, cfg, resumeOptions{Study: "ghost"})
	assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err), "%v", err)

	require.NoError(t, runResume(ctx, &out, &errOut, cfg, resumeOptions{Study: "s", JSON: true, Quiet: true}))
	var doc sessionDoc
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc), out.String())
	assert.Equal(t, "s", doc.Study)
	assert.Equal(t, 3, doc.Target)
	assert.Equal(t, 3, doc.Finished)
	require.NotNil(t, doc.Recommendation)

	out.Reset()
	require.NoError(t, runOptimize(ctx, &out, &errOut, cfg, optimizeOptions{Refs: []string{tiny}, JSON: true, Quiet: true}))
	doc = sessionDoc{}
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc), out.String())
	assert.Equal(t, tiny, doc.Study, "named after its workload")
	assert.Equal(t, 3, doc.Finished)

	t.Run("worker", func(t *testing.T) {
		var out, errOut bytes.Buffer
		err := runWorker(ctx, &out, &errOut, cfg, workerOptions{Retries: 1})
		assert.EqualError(t, err, "worker needs --study NAME (see 'gctune studies list')")
		assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
		err = runWorker(ctx, &out, &errOut, cfg, workerOptions{Study: "s", Retries: 0})
		assert.EqualError(t, err, "--retries 0: want 1 to 1000")
		require.NoError(t, runWorker(ctx, &out, &errOut, cfg, workerOptions{Study: "s", Trials: 4, Retries: 1, JSON: true, Quiet: true}))
		var wd workerDoc
		require.NoError(t, json.Unmarshal(out.Bytes(), &wd), out.String())
		assert.Equal(t, 4, wd.Finished)
		assert.Equal(t, 1, wd.Goroutines)
	})

	t.Run("export", func(t *testing.T) {
		var out bytes.Buffer
		require.NoError(t, runExport(ctx, &out, io.Discard, cfg, exportOptions{Study: "s", Format: export.JSON}))
		var c export.Config
		require.NoError(t, json.Unmarshal(out.Bytes(), &c), out.String())
		assert.Equal(t, "s", c.Study)
		out.Reset()
		require.NoError(t, runExport(ctx, &out, io.Discard, cfg, exportOptions{Study: "s", Format: export.ST, Pareto: true, JSON: true}))
		var front []export.ParetoRow
		require.NoError(t, json.Unmarshal(out.Bytes(), &front), out.String())
		assert.NotEmpty(t, front)
		err := runExport(ctx, &out, io.Discard, cfg, exportOptions{Study: "s", Format: "xml"})
		assert.EqualError(t, err, `--format "xml": want st, json, yaml or flags`)
		assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
		err = runExport(ctx, &out, io.Discard, cfg, exportOptions{Study: "s", Format: export.ST, Trial: 99, TrialSet: true})
		assert.EqualError(t, err, `study "s" has no trial 99`)
	})

	t.Run("explain", func(t *testing.T) {
		var out, errOut bytes.Buffer
		err := runExplain(ctx, &out, &errOut, cfg, explainOptions{studyTrialOptions: studyTrialOptions{Study: "s", Workers: -1}})
		assert.EqualError(t, err, "--workers -1: want 0 to 256 (0 = one per core)")
		require.NoError(t, runExplain(ctx, &out, &errOut, cfg, explainOptions{studyTrialOptions: studyTrialOptions{Study: "s", Workers: 1}, JSON: true}))
		var ed struct {
			Study     string          `json:"study"`
			Diagnosis json.RawMessage `json:"diagnosis"`
		}
		require.NoError(t, json.Unmarshal(out.Bytes(), &ed), out.String())
		assert.Equal(t, "s", ed.Study)
		assert.NotEmpty(t, ed.Diagnosis)
		assert.Contains(t, errOut.String(), tiny, "how the profile was read")
	})

	t.Run("report", func(t *testing.T) {
		var out, errOut bytes.Buffer
		page := filepath.Join(t.TempDir(), "r.html")
		err := runReport(ctx, &out, &errOut, cfg, reportOptions{studyTrialOptions: studyTrialOptions{Study: "s"}, Output: page, SweepPoints: 2})
		assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err), "%v", err)
		require.NoError(t, runReport(ctx, &out, &errOut, cfg, reportOptions{studyTrialOptions: studyTrialOptions{Study: "s", Workers: 1}, Output: page, SweepPoints: 3}))
		assert.Contains(t, out.String(), "wrote "+page)
		html, err := os.ReadFile(page)
		require.NoError(t, err)
		assert.Contains(t, string(html), "<svg")
	})

	t.Run("verify", func(t *testing.T) {
		var out, errOut bytes.Buffer
		err := runVerify(ctx, &out, &errOut, cfg, verifyOptions{Study: "s", Argv: []string{"true"}})
		assert.EqualError(t, err, "--runs 0: want 1 to 10000")
		assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
		require.NoError(t, runVerify(ctx, &out, &errOut, cfg, verifyOptions{Study: "s", Argv: []string{"app"}, Runs: 2,
			NoWarmup: true, JSON: true, Runner: fixedRuns{}}))
		var vd verify.Report
		require.NoError(t, json.Unmarshal(out.Bytes(), &vd), out.String())
		assert.Len(t, vd.Measured, 4, "two rounds of the defaults and the recommendation")
		assert.Equal(t, []string{"app"}, vd.Command)
		assert.Empty(t, errOut.String(), "no line per run with --json")
	})

	t.Run("calibrate", func(t *testing.T) {
		var out, errOut bytes.Buffer
		require.NoError(t, runCalibrate(ctx, &out, &errOut, Config{}, calibrateOptions{Snippet: true}))
		assert.Equal(t, costfit.Snippet, out.String())
		err := runCalibrate(ctx, &out, &errOut, cfg, calibrateOptions{Profile: tiny})
		assert.EqualError(t, err, "calibrate needs the measured default run: --measured run.json or --from-study STUDY (one of them)")
		measured := filepath.Join(t.TempDir(), "run.json")
		require.NoError(t, os.WriteFile(measured, []byte(`{"wallSeconds": 2}`), 0o600))
		out.Reset()
		require.NoError(t, runCalibrate(ctx, &out, &errOut, cfg, calibrateOptions{Profile: tiny, Measured: measured, JSON: true}))
		var cd calibrateDoc
		require.NoError(t, json.Unmarshal(out.Bytes(), &cd), out.String())
		assert.InEpsilon(t, 2.0, cd.Simulated.WallSeconds, 1e-6)
		assert.Equal(t, measured, cd.MeasuredFrom)
	})

	t.Run("simulate", func(t *testing.T) {
		var out, errOut bytes.Buffer
		err := runSimulate(ctx, &out, &errOut, cfg, simulateOptions{Ref: tiny, Replicas: -1})
		assert.EqualError(t, err, "--replicas -1: want 0 (none) to "+itoa(uncertainty.MaxReplicas))
		assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
		require.NoError(t, runSimulate(ctx, &out, &errOut, cfg, simulateOptions{Ref: tiny, JSON: true, Replicas: 3, ReplicaSeed: 1}))
		var sd simulate.Report
		require.NoError(t, json.Unmarshal(out.Bytes(), &sd), out.String())
		assert.Equal(t, tiny, sd.Input.Ref)
		assert.Positive(t, sd.Speedup)
		require.NotNil(t, sd.Replicas)
		assert.Len(t, sd.Replicas.Given, 3)
	})
}

// fixedRuns is a verify.Runner whose every run succeeds in one second, without a process.
type fixedRuns struct{}

func (fixedRuns) Run(context.Context, verify.RunSpec) (verify.Outcome, error) {
	return verify.Outcome{Wall: time.Second}, nil
}

// optionsFrom runs `gctune ARGS` with the command args name built by newCmd with a run
// function that records its options and configuration instead of running (cli/cli's runF):
// what the arguments and flags give, without running the command.
func optionsFrom[O any](t *testing.T, newCmd func(*rootOptions, runFunc[O]) *cobra.Command, args ...string) (O, Config) {
	t.Helper()
	var (
		got O
		cfg Config
		ran bool
	)
	ro := &rootOptions{}
	root := newRootCmd(ro)
	cmd := newCmd(ro, func(_ context.Context, _, _ io.Writer, c Config, o O) error {
		got, cfg, ran = o, c, true
		return nil
	})
	old, _, err := root.Find(args)
	require.NoError(t, err)
	require.Equal(t, cmd.Name(), old.Name())
	parent := old.Parent()
	parent.RemoveCommand(old)
	parent.AddCommand(cmd)
	var errOut bytes.Buffer
	root.SetArgs(args)
	root.SetIn(strings.NewReader(""))
	root.SetOut(io.Discard)
	root.SetErr(&errOut)
	require.NoError(t, root.Execute(), errOut.String())
	require.True(t, ran, "the run function was called")
	return got, cfg
}

// Each command's RunE only builds its options struct from the arguments and flags and calls
// its run function: here the options, without running anything.
func TestFlagsToOptions(t *testing.T) {
	dir := t.TempDir()
	file := func(name string) string { return filepath.Join(dir, name) }

	sim, cfg := optionsFrom(t, NewSimulateCmd, "--json", "simulate", tiny, "--events", file("ev.csv"),
		"--replicas", "3", "--replica-seed", "7", "--scenario", "again", "--resolution", "0.5")
	assert.NotNil(t, sim.Stdin)
	sim.Stdin = nil
	assert.Equal(t, simulateOptions{Ref: tiny, Events: file("ev.csv"), JSON: true, Replicas: 3, ReplicaSeed: 7, Scenario: "again"}, sim)
	assert.Equal(t, 0.5, cfg.Workload.Resolution, "bound flags go to the configuration")
	sim, _ = optionsFrom(t, NewSimulateCmd, "simulate", "--batch", tiny)
	assert.True(t, sim.Batch)
	assert.Equal(t, 1, int(sim.ReplicaSeed), "the default seed")

	exp, cfg := optionsFrom(t, NewExportCmd, "--json", "export", "s", "--trial", "0", "-o", file("c.json"), "--force", "--storage", file("x.db"))
	assert.Equal(t, exportOptions{Study: "s", Format: export.JSON, TrialSet: true, Output: file("c.json"), Force: true, JSON: true}, exp)
	assert.Equal(t, file("x.db"), cfg.Storage)
	exp, _ = optionsFrom(t, NewExportCmd, "export", "s")
	assert.Equal(t, exportOptions{Study: "s", Format: export.ST}, exp)
	exp, _ = optionsFrom(t, NewExportCmd, "--json", "export", "s", "--pareto", "--format", "yaml")
	assert.Equal(t, exportOptions{Study: "s", Format: export.YAML, Pareto: true, JSON: true}, exp, "--json prints the front, the format stays")

	rep, _ := optionsFrom(t, NewReportCmd, "report", "s", "-o", file("r.html"), "--png", dir, "--trial", "2", "--sweep-points", "5", "--workers", "2")
	assert.Equal(t, reportOptions{studyTrialOptions: studyTrialOptions{Study: "s", Trial: 2, TrialSet: true, Workers: 2},
		Output: file("r.html"), PNGDir: dir, SweepPoints: 5}, rep)
	rep, _ = optionsFrom(t, NewReportCmd, "report", "s")
	assert.Equal(t, "report.html", rep.Output)
	assert.False(t, rep.TrialSet)

	ex, _ := optionsFrom(t, NewExplainCmd, "explain", "--json", "s", "--force", "--workers", "3")
	assert.Equal(t, explainOptions{studyTrialOptions: studyTrialOptions{Study: "s", Force: true, Workers: 3}, JSON: true}, ex)

	ver, _ := optionsFrom(t, NewVerifyCmd, "verify", "s", "--runs", "2", "--trial", "4", "--timeout", "1m", "--no-warmup",
		"--show-output", "-q", "--", "sh", "-c", "exit 0")
	assert.Equal(t, verifyOptions{Study: "s", Argv: []string{"sh", "-c", "exit 0"}, Runs: 2, Trial: 4, TrialSet: true,
		Timeout: time.Minute, NoWarmup: true, ShowOutput: true, Quiet: true}, ver)

	cal, cfg := optionsFrom(t, NewCalibrateCmd, "calibrate", tiny, "--measured", file("run.json"), "-o", file("cost.yaml"), "--json")
	assert.Equal(t, calibrateOptions{Profile: tiny, Measured: file("run.json"), Output: file("cost.yaml"), JSON: true}, cal)
	assert.Equal(t, defaultConfig().Search.Trials, cfg.Search.Trials, "the configuration loaded")
	cal, cfg = optionsFrom(t, NewCalibrateCmd, "calibrate", "--snippet")
	assert.Equal(t, calibrateOptions{Snippet: true}, cal)
	assert.Zero(t, cfg.Search.Trials, "--snippet reads no configuration")

	wk, cfg := optionsFrom(t, NewWorkerCmd, "worker", "--study", "s", "--trials", "9", "--retries", "3", "-q", "--workers", "2")
	assert.Equal(t, workerOptions{Study: "s", Trials: 9, Retries: 3, Quiet: true}, wk)
	assert.Equal(t, 2, cfg.Search.Workers)

	opt, cfg := optionsFrom(t, NewOptimizeCmd, "optimize", tiny, "--study", "o", "--trials", "7", "-q")
	assert.Equal(t, optimizeOptions{Refs: []string{tiny}, Study: "o", Quiet: true}, opt)
	assert.Equal(t, 7, cfg.Search.Trials)
	res, _ := optionsFrom(t, NewResumeCmd, "resume", "s", "--more", "5", "--force")
	assert.Equal(t, resumeOptions{Study: "s", More: 5, Force: true}, res)
	sc, _ := optionsFrom(t, NewStudyCreateCmd, "study", "create", "s", tiny, "-q")
	assert.Equal(t, studyCreateOptions{Study: "s", Refs: []string{tiny}, Quiet: true}, sc)
}
