package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/trialstore"
)

// DefaultMaxRestarts is what Config.MaxRestarts' zero value means.
const DefaultMaxRestarts = 20

// Config is one session's work and the hooks it reports through. Each field's zero value is
// said in its comment; Storage, Study, Problem and Keeper are required.
type Config struct {
	// Storage holds the study (a trialstore.Store's Storage, or that wrapped by
	// trialstore.NewRetryStorage to ride out database failures).
	Storage goptuna.Storage
	// Study is the study's name and StudyID its ID in Storage.
	Study   string
	StudyID int
	// Problem is the objective the trials evaluate.
	Problem *objective.Problem
	// Search configures the trials: Search.Trials is the target the study should hold (the
	// budget, counted in the database across workers), Search.Recorder receives each trial
	// (its Start once per run of trials: a session may run several, after a restart or to run
	// reaped trials again). Search.OnTrialStart must be nil: the session beats for its trials.
	Search search.Settings
	// Keeper beats and reaps (StoreKeeper).
	Keeper Keeper
	// Clock is the source of time; nil means RealClock().
	Clock Clock
	// HeartbeatInterval is how often a running trial beats; zero means
	// trialstore.DefaultHeartbeatInterval.
	HeartbeatInterval time.Duration
	// ReapTimeout is how long a running trial may go without a beat before it is taken for a
	// dead worker's, reaped and run again; zero means trialstore.DefaultReapTimeout. The reaper
	// looks at the start and every quarter of it (at least every 20 ms).
	ReapTimeout time.Duration
	// Retry is how the reaper retries a database error that may pass; the zero value is
	// trialstore.DefaultRetryPolicy(), and a nil Retry.After waits on Clock.
	Retry trialstore.RetryPolicy
	// MaxRestarts bounds how often the session starts over after one of its own trials was
	// reaped while it ran; zero means DefaultMaxRestarts, negative means never.
	MaxRestarts int
	// Notify, when set, receives the session's notices (reaps, restarts, waits), one call at a
	// time; nil means they are dropped.
	Notify func(Notice)
}

// Validate checks the configuration.
func (c Config) Validate() error {
	switch {
	case c.Storage == nil:
		return errors.New("session: storage: none given")
	case c.Study == "":
		return errors.New("session: study: no name given")
	case c.Problem == nil:
		return errors.New("session: problem: none given")
	case c.Keeper == nil:
		return errors.New("session: keeper: none given")
	case c.Search.OnTrialStart != nil:
		return errors.New("session: search.OnTrialStart: must be nil, the session beats for its trials")
	case c.HeartbeatInterval < 0:
		return fmt.Errorf("session: heartbeat interval: %v must not be negative", c.HeartbeatInterval)
	case c.ReapTimeout < 0:
		return fmt.Errorf("session: reap timeout: %v must not be negative", c.ReapTimeout)
	}
	if err := c.Search.Validate(); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.Clock == nil {
		c.Clock = RealClock()
	}
	if c.HeartbeatInterval == 0 {
		c.HeartbeatInterval = trialstore.DefaultHeartbeatInterval
	}
	if c.ReapTimeout == 0 {
		c.ReapTimeout = trialstore.DefaultReapTimeout
	}
	if c.Retry.After == nil {
		c.Retry.After = c.Clock.After
	}
	if c.MaxRestarts == 0 {
		c.MaxRestarts = DefaultMaxRestarts
	}
	return c
}

// reapEvery is how often the reaper looks.
func (c Config) reapEvery() time.Duration { return max(c.ReapTimeout/4, 20*time.Millisecond) }

// pollEvery is how often a session that waits for other workers' trials looks at the study.
func (c Config) pollEvery() time.Duration {
	return min(max(c.HeartbeatInterval, 20*time.Millisecond), 500*time.Millisecond)
}

// Result is what a session did and where the study stands after it.
type Result struct {
	// Result is the study at the end: its best trial and finished trials, the trials this
	// session ran (over all its runs) and why it stopped.
	search.Result
	// Target is the number of trials the session worked towards (Config.Search.Trials).
	Target int
	// Reaped are the IDs of the trials this session reaped, sorted.
	Reaped []int
	// Restarts is how often the session started over after one of its trials was reaped.
	Restarts int
}

// Run runs the session: it reaps the trials of dead workers, then runs trials until the study
// holds its target and no trial is waiting or running, or ctx is cancelled (the trials running
// then finish and are stored, and still beat meanwhile). Its own trials beat every
// HeartbeatInterval; the reaper looks every quarter of ReapTimeout. A trial of its own reaped
// by another worker starts it over (MaxRestarts times at most). The error is a storage error
// the search or the reaper could not get past, or a bad Config.
func Run(ctx context.Context, c Config) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{Result: search.Result{Status: search.StatusFailed}}, err
	}
	s := &session{c: c.withDefaults(), ctx: ctx}
	return s.run()
}

// optimizeFunc is search.Optimize's signature; tests replace it to hold trials running.
type optimizeFunc func(ctx context.Context, storage goptuna.Storage, study string, problem *objective.Problem, s search.Settings) (search.Result, error)

// session is one Run.
type session struct {
	c   Config
	ctx context.Context
	// optimize is search.Optimize unless a test says otherwise.
	optimize optimizeFunc

	notifyMu sync.Mutex
	reapMu   sync.Mutex
	reaped   []int
	// waitedFor are the other workers' running trials the session said it waits for.
	waitedFor map[int]bool
}

func (s *session) run() (Result, error) {
	c := s.c
	res := Result{Target: c.Search.Trials}
	fail := func(err error) (Result, error) {
		res.Status = search.StatusFailed
		res.Reaped = s.reapedIDs()
		return res, fmt.Errorf("session: %w", err)
	}
	if err := s.reap(s.ctx); err != nil && s.ctx.Err() == nil {
		return fail(err)
	}
	reapCtx, stopReaper := context.WithCancel(s.ctx)
	var reaper sync.WaitGroup
	reaper.Go(func() { s.reaper(reapCtx) })
	defer func() {
		stopReaper()
		reaper.Wait()
	}()

	settings := c.Search
	settings.OnTrialStart = s.heartbeat
	for {
		optimize := s.optimize
		if optimize == nil {
			optimize = search.Optimize
		}
		r, err := optimize(s.ctx, c.Storage, c.Study, c.Problem, settings)
		res.Ran += r.Ran
		if errors.Is(err, goptuna.ErrTrialCannotBeUpdated) && s.ctx.Err() == nil && res.Restarts < c.MaxRestarts {
			// One of this session's trials was reaped while it ran: its beats did not get
			// through for the reap timeout. Its parameters are queued again; carry on.
			res.Restarts++
			s.notify(Notice{Kind: NoticeRestarted, Err: err})
			continue
		}
		if err != nil {
			return fail(err)
		}
		more, err := s.awaitOthers(r.Ran == 0)
		if err != nil {
			return fail(err)
		}
		if !more {
			break
		}
	}
	stopReaper()
	reaper.Wait()

	trials, err := c.Storage.GetAllTrials(c.StudyID)
	if err != nil {
		return fail(err)
	}
	res.Finished = search.Finished(trials)
	res.Best, res.HasBest = trialattr.Best(trials)
	res.Status = search.StatusBudgetReached
	if s.ctx.Err() != nil {
		res.Status = search.StatusInterrupted
	}
	res.Reaped = s.reapedIDs()
	return res, nil
}

// awaitOthers is called when the session's search stopped with the target reached from its
// side. It reports more when there is something to run again: a waiting trial (one reaped
// meanwhile) or room under the target. Otherwise it waits while trials of other workers run,
// since one whose worker died is reaped and its parameters queued here, and reports false
// once none runs or ctx is done. After a run that ran nothing (idle), it looks twice, one
// poll apart, before it reports more: a trial that another worker queued and claimed at once
// never makes the session spin.
func (s *session) awaitOthers(idle bool) (more bool, err error) {
	c := s.c
	for first := true; s.ctx.Err() == nil; first = false {
		trials, err := c.Storage.GetAllTrials(c.StudyID)
		if err != nil {
			return false, err
		}
		var running []goptuna.FrozenTrial
		waiting := 0
		for _, t := range trials {
			switch t.State {
			case goptuna.TrialStateRunning:
				running = append(running, t)
			case goptuna.TrialStateWaiting:
				waiting++
			}
		}
		switch {
		case waiting > 0 || search.Counted(trials) < c.Search.Trials:
			if !idle || !first {
				return true, nil
			}
		case len(running) == 0:
			return false, nil
		case s.newlyWaiting(running):
			since := c.Clock.Now().Sub(lastBeat(running))
			s.notify(Notice{Kind: NoticeWaiting, Running: len(running), SinceBeat: since,
				Wait: max(c.ReapTimeout-since, 0) + c.reapEvery()})
		}
		select {
		case <-s.ctx.Done():
		case <-c.Clock.After(c.pollEvery()):
		}
	}
	return false, nil
}

// newlyWaiting reports whether the session waits for a running trial it did not say it waits
// for yet, and remembers them all: the notice is given once per trial.
func (s *session) newlyWaiting(running []goptuna.FrozenTrial) bool {
	if s.waitedFor == nil {
		s.waitedFor = map[int]bool{}
	}
	news := false
	for _, t := range running {
		news = news || !s.waitedFor[t.ID]
		s.waitedFor[t.ID] = true
	}
	return news
}

// lastBeat returns the most recent heartbeat of the trials (or start, for a trial that never
// beat).
func lastBeat(trials []goptuna.FrozenTrial) time.Time {
	var last time.Time
	for _, t := range trials {
		at := t.DatetimeStart
		if n, err := strconv.ParseInt(t.SystemAttrs[trialstore.AttrHeartbeat], 10, 64); err == nil {
			at = time.Unix(0, n)
		}
		if at.After(last) {
			last = at
		}
	}
	return last
}

// heartbeat is the search's OnTrialStart hook: it beats for trial trialID at once and then
// every HeartbeatInterval until the returned stop is called. A cancelled session does not stop
// the beats: the trials running then finish and must not be taken for dead meanwhile. A
// failed beat is not reported: the next one tries again, and a worker that cannot beat for the
// reap timeout is, as far as others can tell, dead.
func (s *session) heartbeat(trialID int) (stop func()) {
	c := s.c
	ctx, cancel := context.WithCancel(context.WithoutCancel(s.ctx))
	_ = c.Keeper.Beat(ctx, trialID)
	var beats sync.WaitGroup
	beats.Go(func() { every(ctx, c.Clock, c.HeartbeatInterval, func() { _ = c.Keeper.Beat(ctx, trialID) }) })
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			beats.Wait()
		})
	}
}

// reaper reaps every quarter of the reap timeout until ctx is done. A lasting database
// failure is not reported here: the search, which reads the same database, stops on it.
func (s *session) reaper(ctx context.Context) {
	every(ctx, s.c.Clock, s.c.reapEvery(), func() { _ = s.reap(ctx) })
}

// every calls f every d on clock until ctx is done.
func every(ctx context.Context, clock Clock, d time.Duration, f func()) {
	t := clock.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
			f()
		}
	}
}

// reap reaps once, retrying database errors that may pass as Config.Retry says.
func (s *session) reap(ctx context.Context) error {
	var got []int
	err := trialstore.Retry(ctx, s.c.Retry, "reap", func(bool) error {
		r, err := s.c.Keeper.Reap(ctx, s.c.ReapTimeout)
		got = append(got, r...) // trials reaped before a failure stay reaped
		return err
	})
	if len(got) > 0 {
		slices.Sort(got)
		s.reapMu.Lock()
		s.reaped = append(s.reaped, got...)
		s.reapMu.Unlock()
		s.notify(Notice{Kind: NoticeReaped, Trials: got})
	}
	if ctx.Err() != nil {
		return nil // cancelled meanwhile: nothing went wrong
	}
	return err
}

func (s *session) reapedIDs() []int {
	s.reapMu.Lock()
	defer s.reapMu.Unlock()
	out := slices.Clone(s.reaped)
	slices.Sort(out)
	return out
}

func (s *session) notify(n Notice) {
	if s.c.Notify == nil {
		return
	}
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	s.c.Notify(n)
}
