package search

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/testfixture"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/tunable"
)

// testProblem is a small workload with large direct-to-old allocations (so the headroom
// matters) and long-lived data (so the ratio matters).
func testProblem(t testing.TB) (*objective.Problem, *lifetimes.Summary) {
	t.Helper()
	w := testfixture.Spec(t, "searchdemo", `
name: searchdemo
allocate: 300MB
resolution: 0.005
classes:
  - {name: Temp, size: 48}
  - {name: Keep, size: 64}
  - {name: Array, size: 24MB}
phases:
  - name: run
    allocate: 100%
    mix:
      - {class: Temp, share: 0.8, lifetime: immediate}
      - {class: Keep, share: 0.2, lifetime: until-end}
    large:
      - {class: Array, size: 24MB, count: 12, lifetime: until-end}
`)
	return testfixture.Problem(t, objective.Settings{}, w), testfixture.Summary(t, w)
}

type recorder struct {
	mu      sync.Mutex
	toRun   int
	reports []TrialReport
}

func (r *recorder) Start(n int, _ float64) { r.toRun = n }
func (r *recorder) TrialDone(t TrialReport) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reports = append(r.reports, t)
}

func newStudy(t *testing.T, name string) (goptuna.Storage, *goptuna.Study) {
	t.Helper()
	st := goptuna.NewInMemoryStorage()
	study, err := goptuna.CreateStudy(name, goptuna.StudyOptionStorage(st), goptuna.StudyOptionLogger(nil))
	require.NoError(t, err)
	return st, study
}

func TestOptimizeRunsSeedsFirstAndReachesBudget(t *testing.T) {
	prob, sum := testProblem(t)
	plan, err := PlanSearch([]*lifetimes.Summary{sum}, prob.Base(), tunable.DefaultSpace(), PlanOptions{})
	require.NoError(t, err)
	require.Len(t, plan.Seeds, 2, "defaults and the lifetime-informed seed")
	st, study := newStudy(t, "s")
	require.NoError(t, Enqueue(study, plan.Seeds))
	rec := &recorder{}
	res, err := Optimize(context.Background(), st, "s", prob, Settings{Trials: 15, Workers: 1, Seed: 3, Sampler: SamplerTPE, Space: plan.Space, Recorder: rec})
	require.NoError(t, err)
	require.Equal(t, 15, res.Ran)
	require.Equal(t, 15, res.Finished)
	require.Equal(t, StatusBudgetReached, res.Status)
	require.Equal(t, 15, rec.toRun)
	trials, err := study.GetTrials()
	require.NoError(t, err)
	require.Equal(t, 15, Finished(trials))
	// The first trial is the defaults, clamped into the constrained space (the headroom
	// constraint lifts the 16 MiB default to the 24 MB arrays).
	require.Equal(t, "vm-defaults", plan.Seeds[0].Name)
	want, err := prob.Evaluate(plan.Seeds[0].Point.Params(prob.Base()))
	require.NoError(t, err)
	require.InDelta(t, want.Value, trials[0].Value, 1e-9*want.Value)
	require.Equal(t, "true", trials[0].UserAttrs[trialattr.Feasible])
	// The informed seed (headroom above the 24 MB arrays) beats the defaults.
	require.Less(t, trials[1].Value, trials[0].Value)
	best := trials[0]
	for _, tr := range trials {
		if tr.Value < best.Value {
			best = tr
		}
	}
	require.True(t, res.HasBest)
	require.Equal(t, best.Number, res.Best.Number, "the result names the best trial")
	for _, tr := range trials {
		require.Equal(t, goptuna.TrialStateComplete, tr.State)
		p, err := tunable.PointFromParams(tr.Params)
		require.NoError(t, err)
		require.True(t, plan.Space.Contains(p), "trial %d outside the space: %+v", tr.Number, p)
	}
	// Resuming with a larger budget runs only the difference.
	res, err = Optimize(context.Background(), st, "s", prob, Settings{Trials: 20, Workers: 1, Seed: 3, Sampler: SamplerTPE, Space: plan.Space})
	require.NoError(t, err)
	require.Equal(t, 5, res.Ran)
	require.Equal(t, 20, res.Finished)
}

// TestOptimizeWorkersNeverOvershoot is the regression test of "optimize --trials 5 says 6 of
// 5" (issue 13) and "resume --more N runs one too many" (issue 11): the workers of one call
// read the study, saw one place left, and each created a trial. Many workers on a small
// budget with two queued seeds made it happen in about one run in six.
func TestOptimizeWorkersNeverOvershoot(t *testing.T) {
	prob, sum := testProblem(t)
	plan, err := PlanSearch([]*lifetimes.Summary{sum}, prob.Base(), tunable.DefaultSpace(), PlanOptions{})
	require.NoError(t, err)
	for run := range 20 {
		st, study := newStudy(t, "s")
		require.NoError(t, Enqueue(study, plan.Seeds))
		res, err := Optimize(context.Background(), st, "s", prob, Settings{Trials: 5, Workers: 8, Seed: uint64(run), Sampler: SamplerRandom, Space: plan.Space})
		require.NoError(t, err)
		require.Equal(t, 5, res.Finished, "run %d: 5 of 5", run)
		require.Equal(t, 5, res.Ran, "run %d", run)
		// And a resume with a larger budget runs exactly the difference.
		res, err = Optimize(context.Background(), st, "s", prob, Settings{Trials: 9, Workers: 8, Seed: uint64(run), Sampler: SamplerRandom, Space: plan.Space})
		require.NoError(t, err)
		require.Equal(t, 4, res.Ran, "run %d: --more 4", run)
		require.Equal(t, 9, res.Finished, "run %d", run)
	}
}

func TestOptimizeInterrupted(t *testing.T) {
	prob, _ := testProblem(t)
	st, _ := newStudy(t, "c")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Optimize(ctx, st, "c", prob, Settings{Trials: 5})
	require.NoError(t, err)
	require.Equal(t, StatusInterrupted, res.Status)
	require.Zero(t, res.Ran)
	require.False(t, res.HasBest)
}

func TestOptimizeIsDeterministicWithOneWorker(t *testing.T) {
	prob, _ := testProblem(t)
	values := func(sampler string) []float64 {
		st, _ := newStudy(t, "d")
		_, err := Optimize(context.Background(), st, "d", prob, Settings{Trials: 14, Workers: 1, Seed: 11, Sampler: sampler, Space: tunable.DefaultSpace()})
		require.NoError(t, err)
		trials, err := st.GetAllTrials(1)
		require.NoError(t, err)
		var v []float64
		for _, tr := range trials {
			v = append(v, tr.Value)
		}
		return v
	}
	for _, s := range []string{SamplerTPE, SamplerTPEIndependent, SamplerRandom, SamplerCMAES} {
		require.Equal(t, values(s), values(s), s)
	}
}

func TestSettingsValidate(t *testing.T) {
	good := Settings{Trials: 1, Workers: 1, Space: tunable.DefaultSpace()}
	require.NoError(t, good.Validate())
	bad := good
	bad.Sampler = "bayes"
	require.ErrorContains(t, bad.Validate(), `sampler "bayes"`)
	bad = good
	bad.Space.HeadroomBytes = tunable.Bounds{Low: 1 << 30, High: 1 << 20}
	require.ErrorContains(t, bad.Validate(), "space.headroom: low")
	bad = good
	bad.Workers = -1
	require.ErrorContains(t, bad.Validate(), "workers")
	// Zero values mean something: one worker, the default sampler, the default space.
	require.NoError(t, Settings{}.Validate())
}

func TestPlanRules(t *testing.T) {
	prob, sum := testProblem(t)
	plan, err := PlanSearch([]*lifetimes.Summary{sum}, prob.Base(), tunable.DefaultSpace(), PlanOptions{})
	require.NoError(t, err)
	names := map[string]bool{}
	for _, r := range plan.Rules {
		names[r.Name] = true
		require.NotEmpty(t, r.Reason)
	}
	require.True(t, names["headroom-above-largest-old-allocation"])
	require.GreaterOrEqual(t, plan.Space.HeadroomBytes.Low, float64(24e6))
	off, err := PlanSearch([]*lifetimes.Summary{sum}, prob.Base(), tunable.DefaultSpace(), PlanOptions{NoSeed: true, NoConstrain: true})
	require.NoError(t, err)
	require.Empty(t, off.Seeds)
	require.Empty(t, off.Rules)
	require.Equal(t, tunable.DefaultSpace(), off.Space)
}

func TestDefaultPointRoundTrips(t *testing.T) {
	base := heapsim.DefaultParams()
	p := tunable.DefaultPoint(base).Params(base)
	require.Equal(t, base.SurvivorsToKeep(), p.SurvivorsToKeep(), "the defaults as a point keep Pharo's N")
	require.Equal(t, base.NewSpaceBytes, p.NewSpaceBytes)
}

func TestProcessSeed(t *testing.T) {
	start := time.Unix(1700000000, 5)
	a := ProcessSeed(42, "host:1", start)
	assert.Equal(t, a, ProcessSeed(42, "host:1", start), "a function of its inputs")
	assert.NotEqual(t, a, ProcessSeed(42, "host:2", start), "two processes at the same moment")
	assert.NotEqual(t, a, ProcessSeed(42, "host:1", start.Add(time.Nanosecond)), "one process started again")
	assert.NotEqual(t, a, ProcessSeed(43, "host:1", start), "another study")
}
