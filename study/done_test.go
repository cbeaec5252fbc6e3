package study

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/trialstore"
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

// TestResume: a study at its target is done unless a new target is asked; --more counts from
// the trials held and --trials sets a new total, either saved with the problem.
func TestResume(t *testing.T) {
	ctx := context.Background()
	store, err := trialstore.Open(ctx, filepath.Join(t.TempDir(), "s.db"), trialstore.OpenOptions{})
	require.NoError(t, err)
	defer store.Close()
	p := newTiny(t, writeSpec(t, ""))
	p.Trials = 2
	st, err := Create(ctx, store, "tiny", p)
	require.NoError(t, err)
	prob, err := p.ReopenObjective(ReopenOptions{LongLivedThreshold: profile.DefaultLongLivedThreshold})
	require.NoError(t, err)

	d, err := p.Resume(store, st.ID, "tiny", 0, 0)
	require.NoError(t, err)
	assert.Nil(t, d, "no trial yet: not done")
	_, err = search.Optimize(ctx, store.Storage(), "tiny", prob, search.Settings{Trials: 2, Workers: 1, Seed: 1, Sampler: "random"})
	require.NoError(t, err)

	d, err = p.Resume(store, st.ID, "tiny", 0, 0)
	require.NoError(t, err)
	require.NotNil(t, d)
	assert.Equal(t, [2]int{2, 2}, [2]int{d.Counted, d.Target})
	assert.Len(t, d.Trials, 2)

	d, err = p.Resume(store, st.ID, "tiny", 0, 3)
	require.NoError(t, err)
	assert.Nil(t, d, "more asked: not done")
	_, loaded, err := Load(store, "tiny")
	require.NoError(t, err)
	assert.Equal(t, 5, loaded.Trials, "--more 3 on 2 trials, saved")

	d, err = loaded.Resume(store, st.ID, "tiny", 9, 0)
	require.NoError(t, err)
	assert.Nil(t, d)
	_, loaded, err = Load(store, "tiny")
	require.NoError(t, err)
	assert.Equal(t, 9, loaded.Trials, "--trials 9, saved")
}
