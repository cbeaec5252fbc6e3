package session

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/tunable"
)

// TestStoppedShort: a session that a signal interrupted after it reached its target finished
// anyway; one short of it says how to go on, the name quoted for the message and the shell.
func TestStoppedShort(t *testing.T) {
	assert.Equal(t, "", (&Report{Study: "s", Interrupted: true, Finished: 5, Target: 5}).StoppedShort())
	assert.Equal(t, "", (&Report{Study: "s", Finished: 3, Target: 5}).StoppedShort())
	assert.Equal(t, "study s holds 3 of 5 trials, each finished one stored: go on with gctune resume s",
		(&Report{Study: "s", Interrupted: true, Finished: 3, Target: 5}).StoppedShort())
	assert.Equal(t, `study "a b#" holds 3 of 5 trials, each finished one stored: go on with gctune resume 'a b#'`,
		(&Report{Study: "a b#", Interrupted: true, Finished: 3, Target: 5}).StoppedShort())
}

// TestReportText: the summary of a session without a recommendation, in seconds (one
// workload) and as slowdowns (several, by the mean or the worst), with the lines beside.
func TestReportText(t *testing.T) {
	best := &study.Best{Number: 7, Value: 50, Speedup: 2, Point: tunable.DefaultPoint(heapsim.DefaultParams()),
		Metrics: map[string]string{trialattr.GCShare: "0.016", trialattr.Footprint: "13421772800"}}
	one := Report{Study: "s", TrialsRun: 4, Finished: 9, Target: 10, Interrupted: true, DefaultValue: 100,
		SearchRuns: "the profile", Best: best, Workloads: []study.WorkloadRef{{Ref: "w"}}, WorkloadNames: []string{"w"},
		Beside: []string{"simulated default run: 3 scavenges"}, seconds: true}
	var b bytes.Buffer
	require.NoError(t, one.WriteText(&b))
	assert.Equal(t, "study s: 4 trials run now, 9 of 10 finished, interrupted\n"+
		"the search's fastest trial: trial 7, "+describeDefaults(t)+"\n"+
		"  50.0 s against 100 s with the defaults, 2.00× faster, on the profile; GC share 1.6 %, peak footprint 12.5 GiB\n"+
		"w: simulated default run: 3 scavenges\n"+
		"apply it: gctune export s --format st > gctune-gc.st\n", b.String())

	two := Report{Study: "a b", TrialsRun: 2, Finished: 2, Target: 2, DefaultValue: 1, SearchRuns: "the profiles",
		Best: &study.Best{Number: 1, Value: 0.5, Speedup: 2, Point: tunable.DefaultPoint(heapsim.DefaultParams())}, Aggregate: "mean",
		Workloads: []study.WorkloadRef{{Ref: "x"}, {Ref: "y"}}, Beside: []string{"", "beside y"}}
	b.Reset()
	require.NoError(t, two.WriteText(&b))
	assert.Contains(t, b.String(), "  a run time 0.500× the defaults' on average over the workloads, 2.00× faster, on the profiles; \n")
	assert.Contains(t, b.String(), "\ny: beside y\n")
	assert.NotContains(t, b.String(), "x: ")
	assert.Contains(t, b.String(), "apply it: gctune export 'a b' --format st")

	b.Reset()
	require.NoError(t, (&Report{Study: "s", Target: 3}).WriteText(&b))
	assert.Equal(t, "study s: 0 trials run now, 0 of 3 finished\nno feasible trial yet\n", b.String())
}

// describeDefaults is the VM defaults in the summary's words.
func describeDefaults(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	r := Report{Best: &study.Best{Point: tunable.DefaultPoint(heapsim.DefaultParams())}, seconds: true}
	require.NoError(t, r.WriteText(&b))
	line := bytes.Split(b.Bytes(), []byte("\n"))[1]
	return string(bytes.TrimPrefix(line, []byte("the search's fastest trial: trial 0, ")))
}

// TestReportDocument: the report's JSON carries neither the lines beside nor the unit, and
// NewBest rounds the trial's configuration and marks an infeasible trial.
func TestReportDocument(t *testing.T) {
	data, err := json.Marshal(Report{Study: "s", Beside: []string{"x"}, seconds: true})
	require.NoError(t, err)
	assert.NotContains(t, string(data), `"x"`)
	assert.NotContains(t, string(data), "seconds")
	assert.NotContains(t, string(data), `"best"`)

	p := tunable.DefaultPoint(heapsim.DefaultParams())
	params := map[string]interface{}{}
	for _, tu := range tunable.All() {
		params[tu.Name] = tu.Get(p)
	}
	tr := goptuna.FrozenTrial{Number: 3, Value: 25, Params: params, UserAttrs: map[string]string{trialattr.Feasible: "false"}}
	b := study.NewBest(tr, 100)
	assert.Equal(t, 3, b.Number)
	assert.InDelta(t, 4, b.Speedup, 1e-12)
	assert.False(t, b.Feasible)
	assert.Equal(t, p.Rounded(), b.Point)
}

// TestProgressOffTerminal: off a terminal (a log file) the progress draws no bar and writes
// nothing but the notes.
func TestProgressOffTerminal(t *testing.T) {
	log, err := os.Create(filepath.Join(t.TempDir(), "log"))
	require.NoError(t, err)
	defer log.Close()
	p := NewProgress(log, false, 1, true)
	p.Start(3, 0)
	p.TrialDone(search.TrialReport{Value: 0.5, Feasible: true})
	p.Note("a notice")
	p.Finish()
	assert.Nil(t, p.bar, "a bar was drawn into a file")
	assert.Equal(t, "fastest 500 ms (2.00×)", p.description())
	b, err := os.ReadFile(log.Name())
	require.NoError(t, err)
	assert.Equal(t, "a notice\n", string(b))
}
