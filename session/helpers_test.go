package session

import (
	"context"
	"encoding/json"
	"maps"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/testfixture"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/tunable"
)

// tinyProblem is a workload whose simulation costs microseconds.
func tinyProblem(t testing.TB) *objective.Problem {
	t.Helper()
	return testfixture.Problem(t, objective.Settings{}, testfixture.Spec(t, "tiny", `
name: tiny
allocate: 2MB
classes: [{name: T, size: 32}]
phases: [{name: run, allocate: 100%, mix: [{class: T, share: 1, lifetime: immediate}]}]
`))
}

// memStudy is a study in goptuna's in-memory storage with a Keeper that beats and reaps on
// it as package studies does on a database, on the fake clock's time.
type memStudy struct {
	st    *lockedStorage
	id    int
	clock *fakeClock

	mu    sync.Mutex
	beats []beat
	reaps []time.Time
	// reapErrs are returned by the next Reap calls, in order, before any reaping.
	reapErrs []error
}

type beat struct {
	trial int
	at    time.Time
}

func newMemStudy(t *testing.T, clock *fakeClock) *memStudy {
	t.Helper()
	st := &lockedStorage{Storage: goptuna.NewInMemoryStorage()}
	study, err := goptuna.CreateStudy("s", goptuna.StudyOptionStorage(st), goptuna.StudyOptionLogger(nil))
	require.NoError(t, err)
	return &memStudy{st: st, id: study.ID, clock: clock}
}

// addTrial adds a trial in state with, for a RUNNING one, a heartbeat at beatAt and
// parameters, as a worker that died mid-trial leaves it.
func (m *memStudy) addTrial(t *testing.T, state goptuna.TrialState, beatAt time.Time) int {
	t.Helper()
	ft := goptuna.FrozenTrial{State: state, DatetimeStart: beatAt, Value: 1,
		IntermediateValues: map[int]float64{}, InternalParams: map[string]float64{}, Params: map[string]interface{}{},
		Distributions: map[string]interface{}{}, UserAttrs: map[string]string{}, SystemAttrs: map[string]string{}}
	if state == goptuna.TrialStateRunning {
		ft.SystemAttrs[trialstore.AttrHeartbeat] = strconv.FormatInt(beatAt.UnixNano(), 10)
		ft.InternalParams[tunable.ParamRatio] = 2 // what re-queuing carries over
	}
	id, err := m.st.CloneTrial(m.id, ft)
	require.NoError(t, err)
	return id
}

func (m *memStudy) Beat(_ context.Context, trialID int) error {
	now := m.clock.Now()
	m.mu.Lock()
	m.beats = append(m.beats, beat{trialID, now})
	m.mu.Unlock()
	_ = m.st.SetTrialSystemAttr(trialID, trialstore.AttrHeartbeat, strconv.FormatInt(now.UnixNano(), 10))
	return nil
}

// Reap is trialstore.Reap on the in-memory storage. Like trialstore.Reap's transaction, it is
// atomic: nobody reads the study between a trial's failure and its parameters' re-queuing.
func (m *memStudy) Reap(_ context.Context, timeout time.Duration) ([]int, error) {
	now := m.clock.Now()
	m.mu.Lock()
	m.reaps = append(m.reaps, now)
	if len(m.reapErrs) > 0 {
		err := m.reapErrs[0]
		m.reapErrs = m.reapErrs[1:]
		m.mu.Unlock()
		return nil, err
	}
	m.mu.Unlock()
	m.st.mu.Lock()
	defer m.st.mu.Unlock()
	st := m.st.Storage // the lock is held
	trials, err := st.GetAllTrials(m.id)
	if err != nil {
		return nil, err
	}
	var reaped []int
	for _, tr := range trials {
		if tr.State != goptuna.TrialStateRunning {
			continue
		}
		last := tr.DatetimeStart
		if n, err := strconv.ParseInt(tr.SystemAttrs[trialstore.AttrHeartbeat], 10, 64); err == nil {
			last = time.Unix(0, n)
		}
		if now.Sub(last) <= timeout {
			continue
		}
		if err := st.SetTrialSystemAttr(tr.ID, trialattr.Reaped, "true"); err != nil {
			return reaped, err
		}
		if err := st.SetTrialState(tr.ID, goptuna.TrialStateFail); err != nil {
			return reaped, err
		}
		fixed, _ := json.Marshal(tr.InternalParams)
		if _, err := st.CloneTrial(m.id, goptuna.FrozenTrial{State: goptuna.TrialStateWaiting, DatetimeStart: now,
			IntermediateValues: map[int]float64{}, InternalParams: map[string]float64{}, Params: map[string]interface{}{},
			Distributions: map[string]interface{}{}, UserAttrs: map[string]string{},
			SystemAttrs: map[string]string{trialstore.AttrFixedParams: string(fixed), trialstore.AttrRetryOf: strconv.Itoa(tr.Number)},
		}); err != nil {
			return reaped, err
		}
		reaped = append(reaped, tr.ID)
	}
	return reaped, nil
}

func (m *memStudy) beatsOf(trialID int) []time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []time.Duration
	for _, b := range m.beats {
		if b.trial == trialID {
			out = append(out, b.at.Sub(epoch))
		}
	}
	return out
}

func (m *memStudy) reapTimes() []time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []time.Duration
	for _, r := range m.reaps {
		out = append(out, r.Sub(epoch))
	}
	return out
}

func (m *memStudy) trials(t *testing.T) []goptuna.FrozenTrial {
	t.Helper()
	trials, err := m.st.GetAllTrials(m.id)
	require.NoError(t, err)
	return trials
}

// epoch is where the fake clocks start.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// notices collects a session's notices.
type notices struct {
	mu   sync.Mutex
	list []Notice
}

func (n *notices) add(x Notice) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.list = append(n.list, x)
}

func (n *notices) of(kind NoticeKind) []Notice {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []Notice
	for _, x := range n.list {
		if x.Kind == kind {
			out = append(out, x)
		}
	}
	return out
}

// lockedStorage is goptuna's in-memory storage made safe for this package's tests: that
// storage hands out the maps of the trials it holds, so a reader races the next write.
// Reads return copies, and reads and writes of the maps take one lock.
type lockedStorage struct {
	goptuna.Storage
	mu sync.Mutex
}

func (l *lockedStorage) SetTrialSystemAttr(id int, key, value string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.Storage.SetTrialSystemAttr(id, key, value)
}

func (l *lockedStorage) SetTrialUserAttr(id int, key, value string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.Storage.SetTrialUserAttr(id, key, value)
}

func (l *lockedStorage) SetTrialParam(id int, name string, v float64, d interface{}) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.Storage.SetTrialParam(id, name, v, d)
}

func (l *lockedStorage) GetTrial(id int) (goptuna.FrozenTrial, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t, err := l.Storage.GetTrial(id)
	return copyTrial(t), err
}

func (l *lockedStorage) GetAllTrials(studyID int) ([]goptuna.FrozenTrial, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	trials, err := l.Storage.GetAllTrials(studyID)
	out := make([]goptuna.FrozenTrial, len(trials))
	for i, t := range trials {
		out[i] = copyTrial(t)
	}
	return out, err
}

func (l *lockedStorage) GetTrialSystemAttrs(id int) (map[string]string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, err := l.Storage.GetTrialSystemAttrs(id)
	return maps.Clone(m), err
}

func (l *lockedStorage) GetTrialUserAttrs(id int) (map[string]string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, err := l.Storage.GetTrialUserAttrs(id)
	return maps.Clone(m), err
}

func (l *lockedStorage) GetTrialParams(id int) (map[string]interface{}, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, err := l.Storage.GetTrialParams(id)
	return maps.Clone(m), err
}

func copyTrial(t goptuna.FrozenTrial) goptuna.FrozenTrial {
	t.IntermediateValues = maps.Clone(t.IntermediateValues)
	t.InternalParams = maps.Clone(t.InternalParams)
	t.Params = maps.Clone(t.Params)
	t.Distributions = maps.Clone(t.Distributions)
	t.UserAttrs = maps.Clone(t.UserAttrs)
	t.SystemAttrs = maps.Clone(t.SystemAttrs)
	return t
}
