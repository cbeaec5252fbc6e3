package trialstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"

	"github.com/c-bata/goptuna"
	"gorm.io/gorm"
)

// newClaimToken returns a random token for AttrClaim.
func newClaimToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// TrialClaimer is a storage that claims a WAITING trial and records the claim's token in one
// transaction (a Store's Storage does), so that a repeated claim can tell its own first
// attempt, committed with its answer lost, from another worker's. NewRetryStorage claims
// through it when its inner storage is one; a storage that wraps a Store's Storage can pass
// it on.
type TrialClaimer interface {
	// ClaimWaitingTrial sets trial trialID from WAITING to RUNNING and its AttrClaim to
	// token, or fails as goptuna's SetTrialState does: goptuna.ErrTrialCannotBeUpdated when
	// the trial is not WAITING, goptuna.ErrInvalidTrialID when there is none. ok is false
	// when the storage cannot (no database of its own): the caller uses SetTrialState.
	ClaimWaitingTrial(trialID int, token string) (ok bool, err error)
}

// ClaimWaitingTrial implements TrialClaimer on the database, and beats for the trial as
// SetTrialState to RUNNING does.
func (c *cachedStorage) ClaimWaitingTrial(trialID int, token string) (bool, error) {
	if c.db == nil {
		return false, nil
	}
	defer c.invalidate(trialID)
	err := c.db.Transaction(func(tx *gorm.DB) error {
		res := tx.Table("trials").Where("trial_id = ? AND state = ?", trialID, stateWaiting).Update("state", stateRunning)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			var n int64
			if err := tx.Table("trials").Where("trial_id = ?", trialID).Count(&n).Error; err != nil {
				return err
			}
			if n == 0 {
				return goptuna.ErrInvalidTrialID
			}
			return goptuna.ErrTrialCannotBeUpdated
		}
		return tx.Exec(`INSERT INTO trial_system_attributes (trial_id, key, value) VALUES (?, ?, ?)
			ON CONFLICT (trial_id, key) DO UPDATE SET value = excluded.value`, trialID, AttrClaim, token).Error
	})
	if err == nil {
		_ = beat(context.Background(), c.db, trialID) // best effort, as every beat
	}
	return true, err
}
