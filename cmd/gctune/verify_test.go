package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/verify"
)

// standin takes 0.3 s under --edenSize=16m (the defaults) and 0.1 s otherwise.
const standin = "../../verify/testdata/standin.sh"

// TestVerifyEndToEnd optimizes gcdemo, verifies its best configuration with the stand-in
// (about 3x, with its interval), checks that the runs are stored and that the report shows
// them, calibrates on the stored default runs, and goes through a failing command and an
// interrupt, whose runs are stored too.
func TestVerifyEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "v.db")
	best := reportStudy(t, db)

	var doc verify.Report
	gctuneJSON(t, &doc, "verify", "demo", "--storage", db, "--runs", "3", "--trial", "0", "--", "sh", standin, "{eden}", "{st}")
	require.Len(t, doc.Configs, 3)
	assert.Equal(t, []string{"default", "best", "trial-0"}, []string{doc.Configs[0].Name, doc.Configs[1].Name, doc.Configs[2].Name})
	assert.Equal(t, best, doc.Configs[1].Trial)
	require.Len(t, doc.Measured, 12, "one warm-up and three rounds of three configurations")
	sp := doc.Configs[1].Speedup
	require.NotNil(t, sp)
	// About 3x (0.3 s over 0.1 s, plus the shell's start-up on both sides); the value is
	// timing, which a test never asserts (verify's TestSessionPlaceholdersAndWild checks the arithmetic).
	assert.Equal(t, 3, sp.Pairs)
	assert.Less(t, sp.Low, sp.Estimate)
	assert.Greater(t, sp.High, sp.Estimate)
	assert.Greater(t, doc.Configs[1].PredictedSpeedup, 1.0)
	// Trial 0 is the VM defaults (the first seed): it ran under eden 16m, as the stand-in's
	// stats line says (its GC time is the defaults'); its measured speedup is timing, not
	// asserted.
	require.NotNil(t, doc.Configs[0].Stats, "the stand-in's gctune-stats lines are read")
	assert.InDelta(t, 0.2, *doc.Configs[0].Stats.GCSeconds, 1e-9)
	require.NotNil(t, doc.Configs[2].Stats)
	assert.InDelta(t, 0.2, *doc.Configs[2].Stats.GCSeconds, 1e-9)

	// The text form prints the predicted and the measured speedup with its interval.
	out, errOut, code := gctune(t, "verify", "demo", "--storage", db, "--runs", "2", "--", "sh", standin, "{eden}", "{st}", "gc-only")
	require.Equal(t, 0, code, errOut)
	// (The predicted speedup has its interval when the study has an uncertainty model.)
	// (The recommendation may keep the default eden, so the measured speedup is about 1× and
	// its two-round interval as wide as the machine's noise makes it: "[0.00-1,565×]".)
	assert.Regexp(t, `best \(trial \d+\) +2 .* \d\.\d\d×( \[\d\.\d\d-\d\.\d\d×\])? +[\d.,]+× \[[\d.,]+-[\d.,]+×\]`, out)
	assert.Contains(t, errOut, "1/6 warm-up  default")

	// calibrate --from-study fits on the latest session's default runs (wall and GC time).
	var cal calibrateDoc
	gctuneJSON(t, &cal, "calibrate", "--from-study", "demo", "--storage", db)
	assert.InDelta(t, 0.3, cal.Measured.WallSeconds, 1e-9)
	assert.InEpsilon(t, 0.3, cal.Simulated.WallSeconds, 0.05)
	assert.InEpsilon(t, 0.2, cal.Simulated.GCSeconds, 0.05)
	assert.Contains(t, cal.MeasuredFrom, "mean of 2 default runs")

	// The report shows the latest session: predicted against measured.
	html := filepath.Join(dir, "r.html")
	_, errOut = gctuneOK(t, "report", "demo", "--storage", db, "-o", html, "--sweep-points", "3")
	page, err := os.ReadFile(html)
	require.NoError(t, err)
	assert.Contains(t, string(page), `<section id="measured">`)
	assert.Contains(t, string(page), `href="#measured"`)
	assert.Contains(t, string(page), "Predicted against measured")
	assert.Regexp(t, `best \(trial \d+\)</td><td class="num">2</td>`, string(page))

	// A failing command: its exit code and stderr, exit 1, the runs so far stored.
	_, errOut, code = gctune(t, "verify", "demo", "--storage", db, "-q", "--", "sh", standin, "{eden}", "{st}", "fail-best")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "gctune: the command's warm-up run under best failed with exit code 3; its last standard error lines: standin: best broke")
	assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
	// A command that cannot start is the user's to fix: exit 2.
	_, errOut, code = gctune(t, "verify", "demo", "--storage", db, "-q", "--", filepath.Join(dir, "no-such-command"))
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "cannot start the command")

	// An interrupt (SIGINT cancels the context main passes down): cancelled after the third
	// run, verify stops, prints what it has and returns an interruption (exit 130); the
	// finished runs are stored.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := defaultConfig()
	cfg.Storage = db
	var outB, errB bytes.Buffer
	runner := &cancelAfter{n: 3, cancel: cancel}
	err = runVerify(ctx, &outB, &errB, cfg, verifyOptions{Study: "demo", Argv: []string{"sh", standin, "{eden}", "{st}"}, Runs: 50, JSON: true, Runner: runner})
	require.Equal(t, cmdutil.ExitInterrupted, cmdutil.ExitCode(err), "%v: %s", err, errB.String())
	var intr verify.Report
	require.NoError(t, json.Unmarshal(outB.Bytes(), &intr))
	assert.True(t, intr.Interrupted)
	assert.Len(t, intr.Measured, 3)

	store, err := openStore(context.Background(), db, true)
	require.NoError(t, err)
	defer store.Close()
	id, _, err := study.Load(store, "demo")
	require.NoError(t, err)
	runs, err := verify.MeasuredRuns(store, id)
	require.NoError(t, err)
	assert.Len(t, runs, 12+6+2+len(intr.Measured), "every finished run is stored, failed ones included")
}

func TestVerifyBadInput(t *testing.T) {
	db := filepath.Join(t.TempDir(), "v.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", "demo", "--storage", db}, "gctune verify STUDY -- COMMAND"},
		{[]string{"verify", "--storage", db, "--", "true"}, "gctune verify STUDY -- COMMAND"},
		{[]string{"verify", "demo", "--storage", db, "--runs", "0", "--", "true"}, "--runs 0"},
		{[]string{"verify", "demo", "--storage", db, "--", "true"}, "v.db"},
	} {
		_, errOut, code := gctune(t, c.args...)
		assert.Equal(t, 2, code, c.args)
		assert.Contains(t, errOut, c.want, c.args)
	}
}

// cancelAfter runs processes for real and cancels the context after its n-th run, as SIGINT
// would.
type cancelAfter struct {
	n      int
	cancel func()
}

func (c *cancelAfter) Run(ctx context.Context, spec verify.RunSpec) (verify.Outcome, error) {
	out, err := verify.ExecRunner{}.Run(ctx, spec)
	if c.n--; c.n == 0 {
		c.cancel()
	}
	return out, err
}
