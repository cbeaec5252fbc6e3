package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/costfit"
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/simulate"
	"github.com/gctune/gctune/study"
)

// iwst23p is [IWST23-P] Table 1's 3.1 GB default run (5,599 s total, 5,158 s of GC).
const iwst23p = "../../costfit/testdata/iwst23p-3.1gb.json"

// TestLongCalibrateIWST23P calibrates dataframe-3.1gb on [IWST23-P]'s default run, then checks
// that the cost file it writes makes simulate land within 5 % of both published times, that
// optimize stores that cost with the study and that resume and report refuse another.
func TestLongCalibrateIWST23P(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the 3.1 GB DataFrame workload (slow under the race detector): runs without -short")
	}
	// A quarter of the spec's records: calibrate solves its equations exactly at any
	// resolution, and every command here reads the workload at the same one.
	const coarse = "0.005"
	dir := t.TempDir()
	cost := filepath.Join(dir, "cost.yaml")
	var doc calibrateDoc
	gctuneJSON(t, &doc, "calibrate", "dataframe-3.1gb", "--resolution", coarse, "--measured", iwst23p, "-o", cost)
	assert.InEpsilon(t, 5599.0, doc.Simulated.WallSeconds, 0.05)
	assert.InEpsilon(t, 5158.0, doc.Simulated.GCSeconds, 0.05)
	assert.Equal(t, doc.BaseSimulated.Scavenges, doc.Simulated.Scavenges, "counts are not fitted")
	assert.Equal(t, [][]string{{"mutator"}, {"scavenge", "fullGC"}}, doc.Fit.Groups)
	assert.Equal(t, cost, doc.Output)
	assert.Equal(t, doc.Fit.Scales.Mutator*heapsim.DefaultCost().MutatorSecondsPerByte, doc.Coefficients.MutatorSecondsPerByte)

	// The text form of the same document (runCalibrate prints it with Calibration.WriteText without
	// --json): measured beside simulated, counts included.
	var text strings.Builder
	require.NoError(t, doc.WriteText(&text, doc.Profile))
	out := text.String()
	assert.Regexp(t, `wall time +5,599 s +5,599 s +[\d,]+ s`, out)
	assert.Regexp(t, `GC time +5,158 s +5,158 s`, out)
	assert.Regexp(t, `full GCs +— +\d+ +\d+`, out)

	// simulate --cost uses it.
	var sim simulate.Report
	gctuneJSON(t, &sim, "simulate", "dataframe-3.1gb", "--resolution", coarse, "--cost", cost)
	assert.InEpsilon(t, 5599.0, sim.Default.Stats.TotalSeconds, 0.05)
	assert.InEpsilon(t, 5158.0, sim.Default.Stats.GCSeconds, 0.05)
	// ... and so does the config key, through its environment variable.
	t.Run("env", func(t *testing.T) {
		withEnv(t, []string{"GCTUNE_COST=" + cost}, func() {
			var sim2 simulate.Report
			gctuneJSON(t, &sim2, "simulate", "dataframe-3.1gb", "--resolution", coarse)
			assert.Equal(t, sim.Default.Stats.TotalSeconds, sim2.Default.Stats.TotalSeconds)
		})
	})

	// A study stores the cost it ran with; resume uses it and refuses another.
	f, err := os.Open(cost)
	require.NoError(t, err)
	_, want, err := costfit.ReadFile(f, cost)
	f.Close()
	require.NoError(t, err)
	db := filepath.Join(dir, "s.db")
	gctune(t, "optimize", gcdemo, "--trials", "2", "--workers", "1", "--storage", db, "--study", "c", "--cost", cost, "-q")
	var show struct {
		Problem study.Problem `json:"problem"`
	}
	gctuneJSON(t, &show, "studies", "show", "c", "--storage", db)
	assert.Equal(t, want, show.Problem.Cost)
	_, errOut, code := gctune(t, "resume", "c", "--storage", db, "--more", "1", "-q")
	assert.Equal(t, 0, code, errOut)
	gctune(t, "optimize", gcdemo, "--trials", "1", "--workers", "1", "--storage", db, "--study", "builtin", "-q")
	for _, args := range [][]string{
		{"resume", "builtin", "--more", "1"},
		{"explain", "builtin"},
		{"worker", "--study", "builtin"},
	} {
		_, errOut, code = gctune(t, append(args, "--storage", db, "--cost", cost)...)
		assert.Equal(t, 2, code, args)
		assert.Contains(t, errOut, `differs from the cost model study "builtin" was created with`, args)
	}
}

func TestCalibrateSnippet(t *testing.T) {
	var b strings.Builder
	require.NoError(t, runCalibrate(t.Context(), &b, io.Discard, Config{}, calibrateOptions{Snippet: true}))
	out := b.String()
	for _, s := range []string{"parameterAt: i", "#(7 8 9 10)", "Time millisecondsToRun:", "'gctune-stats '", "'run.json' asFileReference", "'scavengeMs'"} {
		assert.Contains(t, out, s)
	}
}

func TestCalibrateBadInput(t *testing.T) {
	dir := t.TempDir()
	notCost := filepath.Join(dir, "notes.yaml")
	require.NoError(t, os.WriteFile(notCost, []byte("mine: true\n"), 0o644))
	bad := writeFile(t, "run.json", `{"wallSeconds": 10, "gcSeconds": 12}`)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"calibrate", "dataframe-500mb"}, "--measured run.json or --from-study STUDY"},
		{[]string{"calibrate", "--measured", iwst23p}, "needs the profile"},
		{[]string{"calibrate", "dataframe-500mb", "--measured", filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"calibrate", "dataframe-500mb", "--measured", bad}, "gcSeconds = 12 s is more than wallSeconds = 10 s"},
		{[]string{"calibrate", "dataframe-500mb", "--measured", iwst23p, "-o", notCost}, "exists and is not a gctune cost file"},
		{[]string{"simulate", "dataframe-500mb", "--cost", notCost}, "notes.yaml: unmarshal errors: line 1: field mine not found"},
		{[]string{"calibrate", "--from-study", "nope", "--storage", filepath.Join(dir, "none.db")}, "none.db"},
	} {
		_, errOut, code := gctune(t, c.args...)
		assert.Equal(t, 2, code, c.args)
		assert.Contains(t, errOut, c.want, c.args)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %s", errOut)
	}
	b, err := os.ReadFile(notCost)
	require.NoError(t, err)
	assert.Equal(t, "mine: true\n", string(b), "a file that is not a cost file is not replaced")
}

// TestCalibrateReadsProfileLikeEveryCommand: calibrate takes --clock and --rebuild and says
// how it read the profile, on standard error and in --json, as every command that reads one.
func TestCalibrateReadsProfileLikeEveryCommand(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "run.csv")
	gctuneOK(t, "sample", "testdata/tiny.yaml", "--rate", "1/7", "-o", csv)
	measured := filepath.Join(dir, "measured.json")
	require.NoError(t, os.WriteFile(measured, []byte(`{"wallSeconds": 3}`), 0o644))

	var doc calibrateDoc
	gctuneJSON(t, &doc, "calibrate", csv, "--measured", measured)
	assert.Equal(t, "bytes", doc.ProfileInfo.Clock)
	assert.InDelta(t, 1.0/7, doc.ProfileInfo.SamplingRate, 1e-9)
	assert.Contains(t, doc.ProfileInfo.Line, "clock bytes")

	gctuneJSON(t, &doc, "calibrate", csv, "--measured", measured, "--clock", "us", "--rebuild", "off")
	assert.Equal(t, "us", doc.ProfileInfo.Clock)

	_, errOut, code := gctune(t, "calibrate", csv, "--measured", measured)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, doc.ProfileInfo.Ref)
	assert.Contains(t, errOut, "clock bytes")
}
