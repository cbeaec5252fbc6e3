package session

import (
	"context"
	"time"

	"github.com/gctune/gctune/trialstore"
)

// Keeper is what a session needs of the study's database beside goptuna's storage: the
// heartbeats of the trials it runs and the recovery of the trials of workers that died.
// StoreKeeper is the one on a trialstore.Store. It must be safe for concurrent use.
type Keeper interface {
	// Beat records that the worker running trial trialID is alive (a no-op unless the trial
	// is RUNNING).
	Beat(ctx context.Context, trialID int) error
	// Reap fails the study's RUNNING trials whose last beat (or start) is more than timeout
	// ago, queues their parameters again and returns their IDs (trialstore.Reap).
	Reap(ctx context.Context, timeout time.Duration) (reaped []int, err error)
}

// StoreKeeper returns the Keeper of study studyID in store.
func StoreKeeper(store *trialstore.Store, studyID int) Keeper {
	return storeKeeper{store: store, studyID: studyID}
}

type storeKeeper struct {
	store   *trialstore.Store
	studyID int
}

func (k storeKeeper) Beat(ctx context.Context, trialID int) error {
	return trialstore.Beat(ctx, k.store, trialID)
}

func (k storeKeeper) Reap(ctx context.Context, timeout time.Duration) ([]int, error) {
	return trialstore.Reap(ctx, k.store, k.studyID, timeout)
}
