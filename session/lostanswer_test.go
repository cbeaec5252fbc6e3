package session

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/tunable"
)

// errAnswerLost is what a write whose commit went through but whose answer did not (the
// database crashed between the two) returns: a transient error.
var errAnswerLost = fmt.Errorf("read: %w", io.ErrUnexpectedEOF)

// losingStorage is a Store's Storage whose chosen writes commit and then lose their answer.
type losingStorage struct {
	goptuna.Storage
	claimer trialstore.TrialClaimer
	mu      sync.Mutex
	lose    map[string]int // operation → answers still to lose
	lost    map[string]int // operation → answers lost
}

func (l *losingStorage) loses(op string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lose[op] == 0 {
		return false
	}
	l.lose[op]--
	l.lost[op]++
	return true
}

func (l *losingStorage) CreateNewTrial(studyID int) (int, error) {
	id, err := l.Storage.CreateNewTrial(studyID)
	if err == nil && l.loses("create") {
		return -1, errAnswerLost
	}
	return id, err
}

func (l *losingStorage) CloneTrial(studyID int, t goptuna.FrozenTrial) (int, error) {
	id, err := l.Storage.CloneTrial(studyID, t)
	if err == nil && t.State == goptuna.TrialStateRunning && l.loses("create") {
		return -1, errAnswerLost
	}
	return id, err
}

func (l *losingStorage) ClaimWaitingTrial(trialID int, token string) (bool, error) {
	ok, err := l.claimer.ClaimWaitingTrial(trialID, token)
	if err == nil && l.loses("claim") {
		return ok, errAnswerLost
	}
	return ok, err
}

// TestLostAnswersKeepTheBudget: a worker on a study of 6 trials whose trial creations and
// claims of waiting trials commit and then lose their answer (as when PostgreSQL crashes
// between the two) retries them and finishes with 6 trials, all complete: the retried write
// finds its first attempt instead of making a second trial that no one runs (issue 22: a study
// of 150 finished with 151 trials, the extra one RUNNING until reaped).
func TestLostAnswersKeepTheBudget(t *testing.T) {
	ctx := context.Background()
	prob := tinyProblem(t)
	store, err := trialstore.Open(ctx, filepath.Join(t.TempDir(), "s.db"), trialstore.OpenOptions{})
	require.NoError(t, err)
	defer store.Close()
	study, err := goptuna.CreateStudy("s", goptuna.StudyOptionStorage(store.Storage()), goptuna.StudyOptionLogger(nil))
	require.NoError(t, err)
	def := tunable.DefaultPoint(prob.Base())
	require.NoError(t, search.Enqueue(study, []search.Seed{{Name: "a", Point: def}, {Name: "b", Point: def}}))

	claimer, ok := store.Storage().(trialstore.TrialClaimer)
	require.True(t, ok, "a Store's Storage claims with a token")
	losing := &losingStorage{Storage: store.Storage(), claimer: claimer,
		lose: map[string]int{"create": 2, "claim": 2}, lost: map[string]int{}}
	policy := trialstore.RetryPolicy{Attempts: 5, Initial: time.Millisecond, Jitter: -1}
	res, err := Run(ctx, Config{
		Storage: trialstore.NewRetryStorage(ctx, losing, policy), Study: "s", StudyID: study.ID, Problem: prob,
		Keeper: StoreKeeper(store, study.ID),
		Search: search.Settings{Trials: 6, Workers: 1, Seed: 1, Sampler: search.SamplerRandom},
		// A trial left behind is reaped (and counted) after 5 s instead of waited for. The
		// timeout is a hundred heartbeats: a live trial's beats, late on a loaded machine under
		// the race detector, never reach it (at 500 ms they did, 3 runs in 15).
		HeartbeatInterval: 50 * time.Millisecond, ReapTimeout: 5 * time.Second, Retry: policy,
	})
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"create": 2, "claim": 2}, losing.lost, "answers lost")
	assert.Empty(t, res.Reaped)
	trials, err := store.Storage().GetAllTrials(study.ID)
	require.NoError(t, err)
	assert.Len(t, trials, 6)
	for _, tr := range trials {
		assert.Equal(t, goptuna.TrialStateComplete, tr.State, "trial %d", tr.Number)
	}
}
