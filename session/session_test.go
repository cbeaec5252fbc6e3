package session

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/tunable"
)

const (
	interval = time.Second
	timeout  = 8 * time.Second // the reaper looks every 2 s
)

// config is a session on m with the fake clock: beats every second, reaped after 8 s.
func config(m *memStudy, prob *objective.Problem, trials int, n *notices) Config {
	return Config{Storage: m.st, Study: "s", StudyID: m.id, Problem: prob, Keeper: m, Clock: m.clock,
		Search:            search.Settings{Trials: trials, Workers: 1, Seed: 1, Sampler: search.SamplerRandom},
		HeartbeatInterval: interval, ReapTimeout: timeout, Notify: n.add,
		Retry: trialstore.RetryPolicy{Attempts: 3, Initial: 100 * time.Millisecond, Jitter: -1}}
}

// runAsync starts s.run in the bubble and returns a function that waits for its outcome.
func runAsync(s *session) func() (Result, error) {
	var (
		res Result
		err error
		wg  sync.WaitGroup
	)
	wg.Go(func() { res, err = s.run() })
	return func() (Result, error) {
		wg.Wait()
		return res, err
	}
}

// step advances the clock by d, n times, letting every goroutine settle after each step.
func step(clock *fakeClock, d time.Duration, n int) {
	for range n {
		clock.Advance(d)
		synctest.Wait()
	}
}

// TestHeartbeatsAtInterval holds a trial running for 3.5 s: it beats at once, then every
// second, and never after it ended.
func TestHeartbeatsAtInterval(t *testing.T) {
	prob := tinyProblem(t)
	synctest.Test(t, func(t *testing.T) {
		clock := newFakeClock(epoch)
		m := newMemStudy(t, clock)
		id := m.addTrial(t, goptuna.TrialStateWaiting, epoch)
		release := make(chan struct{})
		s := &session{c: config(m, prob, 1, &notices{}).withDefaults(), ctx: context.Background()}
		s.optimize = func(_ context.Context, st goptuna.Storage, _ string, _ *objective.Problem, set search.Settings) (search.Result, error) {
			require.NoError(t, st.SetTrialState(id, goptuna.TrialStateRunning))
			stop := set.OnTrialStart(id)
			<-release
			require.NoError(t, st.SetTrialValue(id, 1))
			require.NoError(t, st.SetTrialState(id, goptuna.TrialStateComplete))
			stop()
			return search.Result{Ran: 1, Status: search.StatusBudgetReached}, nil
		}
		wait := runAsync(s)
		synctest.Wait()
		assert.Equal(t, []time.Duration{0}, m.beatsOf(id), "a beat at once")
		step(clock, 500*time.Millisecond, 7)
		assert.Equal(t, []time.Duration{0, time.Second, 2 * time.Second, 3 * time.Second}, m.beatsOf(id))
		close(release)
		res, err := wait()
		require.NoError(t, err)
		step(clock, time.Second, 5)
		assert.Len(t, m.beatsOf(id), 4, "no beat after the trial ended")
		assert.Equal(t, 1, res.Ran)
		assert.Equal(t, 1, res.Finished)
		assert.Equal(t, search.StatusBudgetReached, res.Status)
		assert.True(t, res.HasBest)
	})
}

// TestReaperLooksEveryQuarterTimeout: the reaper looks at the start and every 2 s while the
// session runs, and reaps a trial whose last beat is older than the timeout.
func TestReaperReapsStaleTrials(t *testing.T) {
	prob := tinyProblem(t)
	synctest.Test(t, func(t *testing.T) {
		clock := newFakeClock(epoch)
		m := newMemStudy(t, clock)
		// A dead worker's trial, last beat 5 s ago: stale 3 s from now, reaped at the look at 4 s.
		dead := m.addTrial(t, goptuna.TrialStateRunning, epoch.Add(-5*time.Second))
		release := make(chan struct{})
		var n notices
		s := &session{c: config(m, prob, 0, &n).withDefaults(), ctx: context.Background()}
		s.optimize = func(ctx context.Context, _ goptuna.Storage, _ string, _ *objective.Problem, _ search.Settings) (search.Result, error) {
			<-release
			return search.Result{Status: search.StatusBudgetReached}, nil
		}
		wait := runAsync(s)
		synctest.Wait()
		step(clock, time.Second, 3)
		assert.Equal(t, []time.Duration{0, 2 * time.Second}, m.reapTimes())
		assert.Empty(t, n.of(NoticeReaped), "not stale yet")
		step(clock, time.Second, 2)
		assert.Equal(t, []time.Duration{0, 2 * time.Second, 4 * time.Second}, m.reapTimes())
		require.Len(t, n.of(NoticeReaped), 1)
		assert.Equal(t, []int{dead}, n.of(NoticeReaped)[0].Trials)
		trials := m.trials(t)
		assert.Equal(t, goptuna.TrialStateFail, trials[dead].State)
		assert.Equal(t, goptuna.TrialStateWaiting, trials[len(trials)-1].State, "its parameters are queued again")
		// The session sees the waiting trial and runs it with the real search.
		s.optimize = search.Optimize
		close(release)
		synctest.Wait()
		step(clock, 500*time.Millisecond, 1) // a run that ran nothing: one poll before the next
		res, err := wait()
		require.NoError(t, err)
		assert.Equal(t, []int{dead}, res.Reaped)
		assert.Equal(t, 1, res.Ran, "the re-queued trial ran")
		assert.Equal(t, 1, res.Finished)
	})
}

// TestRestartWhenOwnTrialReaped: a search that fails because one of its trials was reaped
// meanwhile (goptuna.ErrTrialCannotBeUpdated) starts over, counting what both runs ran; past
// MaxRestarts the error is returned.
func TestRestartWhenOwnTrialReaped(t *testing.T) {
	prob := tinyProblem(t)
	synctest.Test(t, func(t *testing.T) {
		clock := newFakeClock(epoch)
		m := newMemStudy(t, clock)
		var n notices
		calls := 0
		s := &session{c: config(m, prob, 0, &n).withDefaults(), ctx: context.Background()}
		s.optimize = func(context.Context, goptuna.Storage, string, *objective.Problem, search.Settings) (search.Result, error) {
			calls++
			if calls == 1 {
				return search.Result{Ran: 2, Status: search.StatusFailed}, fmt.Errorf("search: trial 3: %w", goptuna.ErrTrialCannotBeUpdated)
			}
			return search.Result{Ran: 3, Status: search.StatusBudgetReached}, nil
		}
		res, err := s.run()
		require.NoError(t, err)
		assert.Equal(t, 2, calls)
		assert.Equal(t, 1, res.Restarts)
		assert.Equal(t, 5, res.Ran)
		require.Len(t, n.of(NoticeRestarted), 1)
		assert.Contains(t, n.of(NoticeRestarted)[0].String(), "reaped by another worker (search: trial 3:")

		c := config(m, prob, 0, &n)
		c.MaxRestarts = 2
		s = &session{c: c.withDefaults(), ctx: context.Background()}
		calls = 0
		s.optimize = func(context.Context, goptuna.Storage, string, *objective.Problem, search.Settings) (search.Result, error) {
			calls++
			return search.Result{Status: search.StatusFailed}, goptuna.ErrTrialCannotBeUpdated
		}
		res, err = s.run()
		require.ErrorIs(t, err, goptuna.ErrTrialCannotBeUpdated)
		assert.Equal(t, 3, calls, "the first run and two restarts")
		assert.Equal(t, search.StatusFailed, res.Status)
	})
}

// TestResumeRightAfterCrash is issue 11.4 at the package level: the study holds its target
// counting two trials a killed worker left RUNNING, beaten 1 s ago. The session says it waits,
// reaps them once stale (8 s after their last beat, at the reaper's next look), runs their
// parameters again and ends with the target finished.
func TestResumeRightAfterCrash(t *testing.T) {
	prob := tinyProblem(t)
	synctest.Test(t, func(t *testing.T) {
		clock := newFakeClock(epoch)
		m := newMemStudy(t, clock)
		for range 3 {
			m.addTrial(t, goptuna.TrialStateComplete, epoch)
		}
		a := m.addTrial(t, goptuna.TrialStateRunning, epoch.Add(-time.Second))
		b := m.addTrial(t, goptuna.TrialStateRunning, epoch.Add(-2500*time.Millisecond))
		var n notices
		wait := runAsync(&session{c: config(m, prob, 5, &n).withDefaults(), ctx: context.Background()})
		synctest.Wait()
		waits := n.of(NoticeWaiting)
		require.Len(t, waits, 1)
		assert.Equal(t, Notice{Kind: NoticeWaiting, Running: 2, SinceBeat: time.Second, Wait: 7*time.Second + 2*time.Second}, waits[0])
		assert.Equal(t, "waiting up to 9.0s for 2 running trials of a worker that may have died (last beat 1.0s ago)", waits[0].String())
		step(clock, 500*time.Millisecond, 11) // 5.5 s: b is stale after 5.5 s, reaped at the look at 6 s
		assert.Empty(t, n.of(NoticeReaped))
		step(clock, 500*time.Millisecond, 1)
		require.Len(t, n.of(NoticeReaped), 1)
		assert.Equal(t, []int{b}, n.of(NoticeReaped)[0].Trials)
		step(clock, 500*time.Millisecond, 4) // 8 s: a is stale after 7 s, reaped at the look at 8 s
		step(clock, 500*time.Millisecond, 1) // and run at the next poll
		assert.Len(t, n.of(NoticeWaiting), 1, "said once")
		res, err := wait()
		require.NoError(t, err)
		assert.Equal(t, []int{a, b}, res.Reaped)
		assert.Equal(t, 2, res.Ran)
		assert.Equal(t, 5, res.Finished, "the target is reached")
		trials := m.trials(t)
		assert.Equal(t, 5, search.Counted(trials))
		for _, tr := range trials {
			assert.NotEqual(t, goptuna.TrialStateRunning, tr.State, "trial %d", tr.Number)
			if tr.SystemAttrs[trialstore.AttrRetryOf] != "" {
				assert.Equal(t, goptuna.TrialStateComplete, tr.State)
				assert.Equal(t, 2.0, tr.Params[tunable.ParamRatio], "the reaped trial's parameters ran again")
			}
		}
	})
}

// TestBudgetReachedByOtherWorkers: the running trial belongs to a live worker, which beats on
// and finishes it: the session waits without reaping it, runs nothing and ends.
func TestBudgetReachedByOtherWorkers(t *testing.T) {
	prob := tinyProblem(t)
	synctest.Test(t, func(t *testing.T) {
		clock := newFakeClock(epoch)
		m := newMemStudy(t, clock)
		m.addTrial(t, goptuna.TrialStateComplete, epoch)
		other := m.addTrial(t, goptuna.TrialStateRunning, epoch)
		var n notices
		wait := runAsync(&session{c: config(m, prob, 2, &n).withDefaults(), ctx: context.Background()})
		synctest.Wait()
		require.Len(t, n.of(NoticeWaiting), 1)
		for range 20 { // the other worker beats every second for 20 s: never stale
			step(clock, 500*time.Millisecond, 2)
			require.NoError(t, m.Beat(context.Background(), other))
		}
		require.NoError(t, m.st.SetTrialValue(other, 0.5))
		require.NoError(t, m.st.SetTrialState(other, goptuna.TrialStateComplete))
		step(clock, 500*time.Millisecond, 1)
		res, err := wait()
		require.NoError(t, err)
		assert.Zero(t, res.Ran)
		assert.Empty(t, res.Reaped)
		assert.Empty(t, n.of(NoticeReaped))
		assert.Len(t, n.of(NoticeWaiting), 1, "said once")
		assert.Equal(t, 2, res.Finished)
		assert.Equal(t, other, res.Best.ID)
	})
}

// TestCancelFinishesRunningTrials cancels a session of two workers in the middle: it stops
// starting trials, the running ones finish and are stored, and nothing is left RUNNING.
func TestCancelFinishesRunningTrials(t *testing.T) {
	prob := tinyProblem(t)
	synctest.Test(t, func(t *testing.T) {
		clock := newFakeClock(epoch)
		m := newMemStudy(t, clock)
		ctx, cancel := context.WithCancel(context.Background())
		c := config(m, prob, 1000, &notices{})
		c.Search.Workers = 2
		var done sync.Mutex
		finished := 0
		c.Search.Recorder = recorderFunc(func(search.TrialReport) {
			done.Lock()
			defer done.Unlock()
			if finished++; finished == 5 {
				cancel()
			}
		})
		res, err := Run(ctx, c)
		require.NoError(t, err)
		assert.Equal(t, search.StatusInterrupted, res.Status)
		trials := m.trials(t)
		complete := 0
		for _, tr := range trials {
			require.NotEqual(t, goptuna.TrialStateRunning, tr.State, "trial %d left running", tr.Number)
			if tr.State == goptuna.TrialStateComplete {
				complete++
			}
		}
		assert.Equal(t, res.Ran, complete, "every trial it ran is stored")
		assert.GreaterOrEqual(t, res.Ran, 5)
		assert.LessOrEqual(t, res.Ran, 6, "one more at most, the other worker's running trial")
	})
}

type recorderFunc func(search.TrialReport)

func (recorderFunc) Start(int, float64)               {}
func (f recorderFunc) TrialDone(r search.TrialReport) { f(r) }

// TestReapRetriesWithBackoff: a reap that fails with an error that may pass is tried again
// after 100 ms, then 200 ms, on the session's clock; one that keeps failing stops the session
// with the retry error.
func TestReapRetriesWithBackoff(t *testing.T) {
	prob := tinyProblem(t)
	synctest.Test(t, func(t *testing.T) {
		clock := newFakeClock(epoch)
		m := newMemStudy(t, clock)
		m.reapErrs = []error{driver.ErrBadConn, driver.ErrBadConn}
		var waits []time.Duration
		c := config(m, prob, 0, &notices{})
		c.Retry.OnRetry = func(_ string, _ int, wait time.Duration, _ error) { waits = append(waits, wait) }
		wait := runAsync(&session{c: c.withDefaults(), ctx: context.Background()})
		synctest.Wait()
		assert.Equal(t, []time.Duration{0}, m.reapTimes())
		step(clock, 100*time.Millisecond, 1)
		assert.Equal(t, []time.Duration{0, 100 * time.Millisecond}, m.reapTimes())
		step(clock, 100*time.Millisecond, 1)
		assert.Len(t, m.reapTimes(), 2, "the second wait is 200 ms")
		step(clock, 100*time.Millisecond, 1)
		_, err := wait()
		require.NoError(t, err)
		assert.Equal(t, []time.Duration{0, 100 * time.Millisecond, 300 * time.Millisecond}, m.reapTimes())
		assert.Equal(t, []time.Duration{100 * time.Millisecond, 200 * time.Millisecond}, waits)

		m.reapErrs = []error{driver.ErrBadConn, driver.ErrBadConn, driver.ErrBadConn}
		wait = runAsync(&session{c: c.withDefaults(), ctx: context.Background()})
		synctest.Wait()
		step(clock, 100*time.Millisecond, 3)
		res, err := wait()
		require.ErrorIs(t, err, trialstore.ErrUnreachable)
		assert.ErrorContains(t, err, "reap failed 3 times")
		assert.Equal(t, search.StatusFailed, res.Status)
	})
}

func TestConfigValidate(t *testing.T) {
	m := newMemStudy(t, newFakeClock(epoch))
	good := config(m, tinyProblem(t), 1, &notices{})
	require.NoError(t, good.Validate())
	for name, bad := range map[string]func(*Config){
		"storage":      func(c *Config) { c.Storage = nil },
		"study":        func(c *Config) { c.Study = "" },
		"problem":      func(c *Config) { c.Problem = nil },
		"keeper":       func(c *Config) { c.Keeper = nil },
		"OnTrialStart": func(c *Config) { c.Search.OnTrialStart = func(int) func() { return func() {} } },
		"heartbeat":    func(c *Config) { c.HeartbeatInterval = -1 },
		"reap timeout": func(c *Config) { c.ReapTimeout = -1 },
		"workers":      func(c *Config) { c.Search.Workers = -1 },
	} {
		c := good
		bad(&c)
		_, err := Run(context.Background(), c)
		assert.ErrorContains(t, err, name, name)
	}
	assert.True(t, errors.Is(trialstore.ErrUnreachable, trialstore.ErrUnreachable))
}
