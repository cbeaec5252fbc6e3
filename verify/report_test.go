package verify

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/costfit"
	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/uncertainty"
)

// TestReportText: the table pads by runes (× and — are one cell each), names the best's trial,
// states each verdict and warns of wild runs; a report with no run says so.
func TestReportText(t *testing.T) {
	r := Report{Study: "df", Session: "s1", Command: []string{"./bench.sh", "x"}, Runs: 2, Measured: make([]MeasuredRun, 4),
		Configs: []ConfigSummary{
			{Name: DefaultName, Trial: -1, Runs: 2, MeanSeconds: 3, MedianSeconds: 3, CV: 0.01, PredictedSpeedup: 1},
			{Name: BestName, Trial: 7, Runs: 2, MeanSeconds: 1.5, MedianSeconds: 1.5, CV: 0.3, Wild: true, PredictedSpeedup: 2.1,
				PredictedInterval: &uncertainty.Interval{Lo: 1.9, Hi: 2.3, Coverage: 0.99},
				Speedup:           &Speedup{Estimate: 2, Low: 1.8, High: 2.2, Pairs: 2},
				Comparison:        &Comparison{Predicted: uncertainty.Interval{Lo: 1.9, Hi: 2.3, Coverage: 0.99}, Side: "inside"}},
		}}
	var b bytes.Buffer
	require.NoError(t, r.WriteText(&b))
	lines := strings.Split(b.String(), "\n")
	assert.Equal(t, "verified study df: ./bench.sh x", lines[0])
	assert.Contains(t, lines[1], "predicted (99 % of runs)")
	assert.Contains(t, lines[3], "best (trial 7)")
	assert.Contains(t, lines[3], "2.10× [1.90-2.30×]")
	assert.Contains(t, lines[3], "2.00× [1.80-2.20×]")
	assert.Equal(t, strings.Index(lines[1], "runs")+len("runs"), strings.Index(lines[2], "2")+1, "right-aligned by runes")
	assert.Equal(t, "best: "+r.Configs[1].Verdict(), lines[4])
	assert.Contains(t, lines[5], "warning: the runs under best vary wildly (coefficient of variation 30 % > 20 %)")
	assert.Contains(t, lines[6], "stored 4 run(s) in study df (session s1)")

	b.Reset()
	require.NoError(t, (&Report{Study: "df", Interrupted: true}).WriteText(&b))
	assert.Contains(t, b.String(), "verified study df (interrupted): \nno run measured\n")
}

// TestRunLine: a warm-up, a round with Pharo's figures, an unreadable stats line.
func TestRunLine(t *testing.T) {
	gc := 0.2
	var b bytes.Buffer
	require.NoError(t, WriteRunLine(&b, 1, 6, Run{Config: DefaultName, Round: -1, Outcome: Outcome{Wall: 300 * time.Millisecond}}))
	require.NoError(t, WriteRunLine(&b, 2, 6, Run{Config: BestName, Round: 0, Outcome: Outcome{Wall: time.Second,
		Measured: &costfit.Measured{WallSeconds: 0.9, GCSeconds: &gc}}}))
	require.NoError(t, WriteRunLine(&b, 3, 6, Run{Config: BestName, Round: 1, Outcome: Outcome{Wall: time.Second, StatsErr: "bad"}}))
	assert.Equal(t, "  1/6 warm-up  default    300 ms\n"+
		"  2/6 round 1  best       1.00 s  (in Pharo: 900 ms, GC 200 ms)\n"+
		"  3/6 round 2  best       1.00 s  (gctune-stats line unreadable: bad)\n", b.String())
	p := Plan{Configs: make([]Config, 3), Argv: []string{"a", "b"}, Runs: 2, Warmup: true}
	assert.Equal(t, 9, p.TotalRuns())
	p.Warmup = false
	assert.Equal(t, 6, p.TotalRuns())
}

// TestConfigs: the defaults first, then best and the trial, each with its st script, launch
// flag and predicted speedup; the plan they make is valid.
func TestConfigs(t *testing.T) {
	vm := heapsim.DefaultParams()
	best := &export.Config{Trial: 4, VM: vm, Predicted: export.Prediction{Speedup: 1.5}}
	best.VM.NewSpaceBytes = 64 << 20
	trial := &export.Config{Trial: 9, VM: vm, Predicted: export.Prediction{Speedup: 1.2}}
	cs, err := Configs(vm, best, trial)
	require.NoError(t, err)
	require.Len(t, cs, 3)
	assert.Equal(t, []string{DefaultName, BestName, "trial-9"}, []string{cs[0].Name, cs[1].Name, cs[2].Name})
	assert.Equal(t, []int{-1, 4, 9}, []int{cs[0].Trial, cs[1].Trial, cs[2].Trial})
	assert.Equal(t, export.LaunchFlagOf(vm), cs[0].EdenFlag)
	assert.Equal(t, "--edenSize=64m", cs[1].EdenFlag)
	assert.Equal(t, 1.5, cs[1].PredictedSpeedup)
	assert.NotEmpty(t, cs[1].Script)
	require.NoError(t, Plan{Configs: cs, Argv: []string{"x"}, Runs: 1}.Validate())
	cs, err = Configs(vm, best, nil)
	require.NoError(t, err)
	assert.Len(t, cs, 2)
}
