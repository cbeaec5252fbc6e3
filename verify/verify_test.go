package verify

import (
	"context"
	"errors"
	"math"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func plan(mode ...string) Plan {
	argv := append([]string{"sh", "testdata/standin.sh", "{eden}", "{st}"}, mode...)
	return Plan{
		Configs: []Config{
			{Name: DefaultName, Trial: -1, EdenFlag: "--edenSize=16m", Script: "\"defaults\"\n", PredictedSpeedup: 1},
			{Name: "best", Trial: 3, EdenFlag: "--edenSize=632m", Script: "Smalltalk vm parameterAt: 25 put: 1.\n", PredictedSpeedup: 2.8},
		},
		Argv: argv, Runs: 3, Warmup: true, Timeout: 20 * time.Second,
	}
}

func needSh(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
}

// TestSessionStandIn runs the stand-in for real: about 3x, with an interval, the stats read,
// the runs in alternating order after one warm-up each.
func TestSessionStandIn(t *testing.T) {
	needSh(t)
	var recorded []Run
	runs, interrupted, err := Session(context.Background(), plan(), ExecRunner{}, func(r Run) error {
		recorded = append(recorded, r)
		return nil
	})
	require.NoError(t, err)
	assert.False(t, interrupted)
	require.Len(t, runs, 8)
	assert.Equal(t, runs, recorded)
	var order []string
	for _, r := range runs {
		order = append(order, r.Config)
		require.Zero(t, r.ExitCode, r.StderrTail)
		require.NotNil(t, r.Measured, r.StatsErr)
	}
	assert.Equal(t, []string{"default", "best", "default", "best", "best", "default", "default", "best"}, order)
	assert.Equal(t, -1, runs[0].Round)
	assert.Equal(t, 0.3, runs[0].Measured.WallSeconds)

	var samples []Sample
	for _, r := range runs {
		samples = append(samples, Sample{Config: r.Config, Trial: r.Trial, Round: r.Round, WallSeconds: r.Wall.Seconds(), OK: true, Measured: r.Measured})
	}
	sum := Summarize(samples)
	require.Len(t, sum, 2)
	assert.Equal(t, 3, sum[0].Runs)
	require.NotNil(t, sum[1].Speedup)
	sp := sum[1].Speedup
	// Real processes: the speedup's value is timing, which a unit test never asserts
	// (TestSessionPlaceholdersAndWild checks the arithmetic on exact durations).
	assert.True(t, sp.HasInterval())
	assert.LessOrEqual(t, sp.Low, sp.Estimate)
	assert.GreaterOrEqual(t, sp.High, sp.Estimate)
	require.NotNil(t, sum[1].Stats)
	assert.InDelta(t, 0.005, *sum[1].Stats.GCSeconds, 1e-12)
}

func TestSessionFailure(t *testing.T) {
	needSh(t)
	var recorded []Run
	runs, _, err := Session(context.Background(), plan("fail-best"), ExecRunner{}, func(r Run) error {
		recorded = append(recorded, r)
		return nil
	})
	var re *RunError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "best", re.Config)
	assert.Equal(t, 3, re.ExitCode)
	assert.Contains(t, err.Error(), "warm-up run under best failed with exit code 3")
	assert.Contains(t, err.Error(), "standin: best broke")
	require.Len(t, runs, 2, "the default warm-up and the failed run")
	assert.Len(t, recorded, 2, "the failed run is recorded too")
}

func TestSessionTimeout(t *testing.T) {
	needSh(t)
	p := plan("hang")
	p.Timeout = 300 * time.Millisecond
	start := time.Now()
	_, _, err := Session(context.Background(), p, ExecRunner{}, func(Run) error { return nil })
	var re *RunError
	require.ErrorAs(t, err, &re)
	assert.True(t, re.TimedOut)
	assert.Contains(t, err.Error(), "did not finish within --timeout 300ms")
	assert.Less(t, time.Since(start), 30*time.Second, "the hung process group was killed")
}

// TestSessionInterrupt cancels during the fourth run: the three finished runs are kept and
// recorded, the killed one is not.
func TestSessionInterrupt(t *testing.T) {
	needSh(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	runs, interrupted, err := Session(ctx, plan(), ExecRunner{}, func(Run) error {
		n++
		if n == 3 {
			go func() { time.Sleep(50 * time.Millisecond); cancel() }()
		}
		return nil
	})
	require.NoError(t, err)
	assert.True(t, interrupted)
	assert.Len(t, runs, 3)
	assert.Equal(t, 3, n)
}

// fakeRunner returns set times per configuration, in order.
type fakeRunner struct {
	walls map[string][]float64
	seen  []RunSpec
}

func (f *fakeRunner) Run(_ context.Context, spec RunSpec) (Outcome, error) {
	f.seen = append(f.seen, spec)
	var name string
	for _, e := range spec.Env {
		if v, ok := strings.CutPrefix(e, EnvConfig+"="); ok {
			name = v
		}
	}
	ws := f.walls[name]
	if len(ws) == 0 {
		return Outcome{}, errors.New("no more times")
	}
	f.walls[name] = ws[1:]
	return Outcome{Wall: time.Duration(ws[0] * float64(time.Second))}, nil
}

func TestSessionPlaceholdersAndWild(t *testing.T) {
	p := plan()
	p.Argv = []string{"pharo", "--headless", "{eden}", "App.image", "st", "{st}", "bench.st"}
	p.Configs = append(p.Configs, Config{Name: "trial-7", Trial: 7, EdenFlag: "--edenSize=64m", PredictedSpeedup: 1.5})
	f := &fakeRunner{walls: map[string][]float64{
		"default": {9, 3, 3.1, 2.9},
		"best":    {9, 1, 1.02, 0.98},
		"trial-7": {9, 1, 2, 3},
	}}
	runs, _, err := Session(context.Background(), p, f, func(Run) error { return nil })
	require.NoError(t, err)
	require.Len(t, runs, 12)
	first := f.seen[1]
	assert.Equal(t, "--edenSize=632m", first.Argv[2])
	assert.True(t, strings.HasSuffix(first.Argv[5], "gctune-best.st"), first.Argv[5])
	assert.Contains(t, first.Env, "GCTUNE_EDEN_FLAG=--edenSize=632m")
	assert.Contains(t, first.Env, "GCTUNE_CONFIG=best")
	assert.Contains(t, first.Env, "GCTUNE_ST="+first.Argv[5])

	var samples []Sample
	for _, r := range runs {
		samples = append(samples, Sample{Config: r.Config, Trial: r.Trial, Round: r.Round, WallSeconds: r.Wall.Seconds(), OK: true})
	}
	sum := Summarize(samples)
	require.Len(t, sum, 3)
	assert.False(t, sum[0].Wild)
	assert.False(t, sum[1].Wild)
	assert.True(t, sum[2].Wild, "1, 2, 3 s vary by 50 %%")
	// The paired log ratios of best: ln 3, ln(3.1/1.02), ln(2.9/0.98).
	logs := []float64{math.Log(3), math.Log(3.1 / 1.02), math.Log(2.9 / 0.98)}
	mean := (logs[0] + logs[1] + logs[2]) / 3
	assert.InDelta(t, math.Exp(mean), sum[1].Speedup.Estimate, 1e-12)
	var ss float64
	for _, l := range logs {
		ss += (l - mean) * (l - mean)
	}
	se := math.Sqrt(ss/2) / math.Sqrt(3)
	assert.InDelta(t, math.Exp(mean-4.302652729911275*se), sum[1].Speedup.Low, 1e-9)
	assert.InDelta(t, math.Exp(mean+4.302652729911275*se), sum[1].Speedup.High, 1e-9)
}

func TestPlanValidate(t *testing.T) {
	p := plan()
	p.Runs = 0
	require.ErrorContains(t, p.Validate(), "runs = 0")
	p = plan()
	p.Configs = p.Configs[1:]
	require.Error(t, p.Validate())
	p = plan()
	p.Argv = nil
	require.ErrorContains(t, p.Validate(), "no command")
}

func TestCommandNotFound(t *testing.T) {
	p := plan()
	p.Argv = []string{"/nonexistent/gctune-standin"}
	_, _, err := Session(context.Background(), p, ExecRunner{}, func(Run) error { return nil })
	require.ErrorIs(t, err, ErrStart)
	require.ErrorContains(t, err, "verify: cannot start the command /nonexistent/gctune-standin")
}
