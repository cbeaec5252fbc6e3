package study

import (
	"bytes"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/trialattr"
)

// TestDone: a study at its target with none running is done, its fastest feasible trial
// stated against the defaults; one short of it, or with a trial running, is not.
func TestDone(t *testing.T) {
	p := &Problem{Trials: 3, DefaultValue: 100, Workloads: []WorkloadRef{{Ref: "w"}}}
	tr := func(n int, v float64, attrs map[string]string) goptuna.FrozenTrial {
		return goptuna.FrozenTrial{Number: n, Value: v, State: goptuna.TrialStateComplete, UserAttrs: attrs}
	}
	all := []goptuna.FrozenTrial{tr(0, 100, nil), tr(1, 40, map[string]string{trialattr.Feasible: "false"}), tr(2, 50, nil)}
	_, ok := p.Done("s", all[:2])
	assert.False(t, ok, "short of the target")
	_, ok = p.Done("s", append(all, goptuna.FrozenTrial{Number: 3, State: goptuna.TrialStateRunning}))
	assert.False(t, ok, "a trial running")

	d, ok := p.Done("my study", all)
	require.True(t, ok)
	require.NotNil(t, d.Best)
	assert.Equal(t, 2, d.Best.Number, "the infeasible trial is not the fastest")
	var b bytes.Buffer
	require.NoError(t, d.WriteText(&b))
	assert.Equal(t, `study my study is finished (3 of 3 trials): to run more, gctune resume 'my study' --more 10 (or --trials N for a new total)
the search's fastest trial: trial 2, 50.0 s against 100 s with the defaults on the search's runs, 2.00× faster
the recommendation: gctune export 'my study' (why: gctune explain 'my study')
`, b.String())

	// Several workloads: a slowdown, no seconds; a target of 40 suggests 20 more.
	p.Workloads, p.Trials, p.DefaultValue = append(p.Workloads, WorkloadRef{Ref: "v"}), 3, 1
	d, ok = p.Done("s", []goptuna.FrozenTrial{tr(0, 1, nil), tr(1, 0.8, nil), tr(2, 0.5, nil)})
	require.True(t, ok)
	b.Reset()
	require.NoError(t, d.WriteText(&b))
	assert.Contains(t, b.String(), "the search's fastest trial: trial 2, 2.00× faster than the defaults on the search's runs\n")
	d.Target = 40
	assert.Contains(t, d.Hint(), "--more 20 ")
}
