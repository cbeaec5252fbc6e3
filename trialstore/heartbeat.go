package trialstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"

	"github.com/gctune/gctune/trialattr"
)

// Defaults of the heartbeat interval (package session) and of Reap.
const (
	DefaultHeartbeatInterval = 5 * time.Second
	DefaultReapTimeout       = 30 * time.Second
)

// Beat records that the worker running trial trialID is alive: it writes the trial's system
// attribute AttrHeartbeat (Unix nanoseconds, now), only while the trial is RUNNING. Package
// session calls it every heartbeat interval; a worker that cannot beat for the reap timeout is,
// as far as others can tell, dead. A trial popped from the queue keeps the start time it was
// enqueued with; the Store's caching storage writes its first beat when goptuna pops it, so that
// Reap does not take it for dead.
func Beat(ctx context.Context, store *Store, trialID int) error {
	if err := beat(ctx, store.db, trialID); err != nil {
		return fmt.Errorf("trialstore: heartbeat of trial %d: %w", trialID, err)
	}
	return nil
}

// beat writes one heartbeat of a RUNNING trial.
func beat(ctx context.Context, db *gorm.DB, trialID int) error {
	now := strconv.FormatInt(time.Now().UnixNano(), 10)
	db = db.WithContext(ctx)
	res := db.Exec(`UPDATE trial_system_attributes SET value = ?
		WHERE trial_id = ? AND key = ?
		AND EXISTS (SELECT 1 FROM trials WHERE trial_id = ? AND state = ?)`,
		now, trialID, AttrHeartbeat, trialID, stateRunning)
	if res.Error != nil || res.RowsAffected > 0 {
		return res.Error
	}
	// The first beat: only this trial's worker writes its heartbeat, so nobody races this
	// insert.
	return db.Exec(`INSERT INTO trial_system_attributes (trial_id, key, value)
		SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM trials WHERE trial_id = ? AND state = ?)
		AND NOT EXISTS (SELECT 1 FROM trial_system_attributes WHERE trial_id = ? AND key = ?)`,
		trialID, AttrHeartbeat, now, trialID, stateRunning, trialID, AttrHeartbeat).Error
}

// errNotReaped rolls back a reap another reaper won, or whose trial turned out alive.
var errNotReaped = errors.New("trialstore: not reaped")

// Reap fails the RUNNING trials of study studyID whose worker looks dead: whose last heartbeat
// (AttrHeartbeat), or start time if they have none, is more than timeout ago (zero means
// DefaultReapTimeout). Each is marked FAIL with system attribute trialattr.Reaped "true" and, if it
// had parameters (written, or fixed when it was enqueued), they are enqueued again, once, as goptuna's Study.EnqueueTrial does: a
// WAITING trial with system attribute AttrFixedParams (and AttrRetryOf naming the reaped
// trial's number), so that the next worker evaluates them. Reap returns the IDs of the trials
// it reaped.
//
// Reapers may run at once, in several processes: each trial is failed by a conditional update
// (state still RUNNING) in a transaction that also re-enqueues it, so exactly one reaper wins
// it and its parameters are enqueued exactly once. Heartbeats and the timeout are compared
// with this machine's clock: keep the workers' clocks in step (NTP) when they run on several
// machines.
func Reap(ctx context.Context, store *Store, studyID int, timeout time.Duration) (reaped []int, err error) {
	if timeout <= 0 {
		timeout = DefaultReapTimeout
	}
	db := store.db.WithContext(ctx)
	var running []trialRow
	if err := db.Table("trials").Select("trial_id, number, study_id, state, datetime_start").
		Where("study_id = ? AND state = ?", studyID, stateRunning).Order("trial_id").
		Find(&running).Error; err != nil {
		return nil, fmt.Errorf("trialstore: reap study %d: %w", studyID, err)
	}
	if len(running) == 0 {
		return nil, nil
	}
	ids := make([]int, len(running))
	for i, r := range running {
		ids[i] = r.ID
	}
	beats, err := heartbeats(db, ids)
	if err != nil {
		return nil, fmt.Errorf("trialstore: reap study %d: %w", studyID, err)
	}
	cutoff := time.Now().Add(-timeout)
	for _, r := range running {
		last, ok := beats[r.ID]
		if !ok {
			if r.DatetimeStart == nil {
				continue
			}
			last = *r.DatetimeStart
		}
		if !last.Before(cutoff) {
			continue
		}
		won, err := reapOne(db, studyID, r, cutoff)
		if err != nil {
			return reaped, fmt.Errorf("trialstore: reap trial %d of study %d: %w", r.Number, studyID, err)
		}
		if won {
			reaped = append(reaped, r.ID)
		}
	}
	sort.Ints(reaped)
	return reaped, nil
}

// heartbeats returns the last heartbeat of each of the trials that has one.
func heartbeats(db *gorm.DB, trialIDs []int) (map[int]time.Time, error) {
	out := make(map[int]time.Time, len(trialIDs))
	for start := 0; start < len(trialIDs); start += maxInList {
		end := min(start+maxInList, len(trialIDs))
		var rows []attrRow
		if err := db.Table("trial_system_attributes").Select("trial_id, key, value").
			Where("key = ? AND trial_id IN ?", AttrHeartbeat, trialIDs[start:end]).
			Find(&rows).Error; err != nil {
			return nil, err
		}
		for _, r := range rows {
			if n, err := strconv.ParseInt(r.Value, 10, 64); err == nil {
				out[r.TrialID] = time.Unix(0, n)
			}
		}
	}
	return out, nil
}

// reapOne fails trial r and re-enqueues its parameters, unless another reaper already did or
// the trial beat after cutoff. It reports whether it reaped the trial.
func reapOne(db *gorm.DB, studyID int, r trialRow, cutoff time.Time) (bool, error) {
	err := db.Transaction(func(tx *gorm.DB) error {
		res := tx.Table("trials").Where("trial_id = ? AND state = ?", r.ID, stateRunning).
			Updates(map[string]any{"state": stateFail, "datetime_complete": time.Now()})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return errNotReaped // finished meanwhile, or another reaper won
		}
		// Look again, now that this transaction holds the trial: a beat since the first look
		// means the worker lives.
		beats, err := heartbeats(tx, []int{r.ID})
		if err != nil {
			return err
		}
		if last, ok := beats[r.ID]; ok && !last.Before(cutoff) {
			return errNotReaped
		}
		st := rdb.NewStorage(tx)
		if err := st.SetTrialSystemAttr(r.ID, trialattr.Reaped, "true"); err != nil {
			return err
		}
		var params []paramRow
		if err := tx.Table("trial_params").Select("trial_id, param_name, param_value").
			Where("trial_id = ?", r.ID).Find(&params).Error; err != nil {
			return err
		}
		var b []byte
		if len(params) == 0 {
			// It died before writing its parameters: an enqueued trial (a seed, or one
			// re-queued before) still has them as fixed parameters, to enqueue again; a
			// trial of the sampler has nothing to retry.
			var fixed []attrRow
			if err := tx.Table("trial_system_attributes").Select("trial_id, key, value").
				Where("trial_id = ? AND key = ?", r.ID, AttrFixedParams).Find(&fixed).Error; err != nil {
				return err
			}
			if len(fixed) == 0 {
				return nil
			}
			b = []byte(fixed[0].Value)
		} else {
			fixed := make(map[string]float64, len(params))
			for _, p := range params {
				fixed[p.Name] = p.Value
			}
			if b, err = json.Marshal(fixed); err != nil {
				return err
			}
		}
		_, err = st.CloneTrial(studyID, goptuna.FrozenTrial{
			State:              goptuna.TrialStateWaiting,
			DatetimeStart:      time.Now(),
			IntermediateValues: map[int]float64{},
			InternalParams:     map[string]float64{},
			Params:             map[string]interface{}{},
			Distributions:      map[string]interface{}{},
			UserAttrs:          map[string]string{},
			SystemAttrs: map[string]string{
				AttrFixedParams: string(b),
				AttrRetryOf:     strconv.Itoa(r.Number),
			},
		})
		return err
	})
	if errors.Is(err, errNotReaped) {
		return false, nil
	}
	return err == nil, err
}
