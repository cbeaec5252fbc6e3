package trialstore

import (
	"context"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/c-bata/goptuna"
)

// NewRetryStorage wraps inner (usually a Store's Storage) so that every call that fails with a
// transient error (IsTransient) is tried again as policy says, and returns a *RetryError when
// it still fails; other errors are returned unchanged (goptuna compares some with ==).
//
// Retrying a write whose first attempt failed is not always the same as running it once: the
// first attempt may have committed and only its answer been lost. The wrapper makes the
// writes a worker makes safe to repeat:
//
//   - SetTrialState to a finished state (COMPLETE, FAIL, PRUNED) that the repeat refuses with
//     goptuna.ErrTrialCannotBeUpdated succeeds if the trial is in that state: the first
//     attempt did it.
//   - A claim (SetTrialState from WAITING to RUNNING) on a Store's storage writes a random
//     token (AttrClaim) with the state, in one transaction; a repeat first looks for its
//     token, so a claim whose first attempt committed succeeds once, and one that another
//     worker made is refused as before. (On another storage a repeated claim is refused: the
//     trial is left RUNNING without a heartbeat, which Reap fails and re-queues.)
//   - CreateNewTrial creates the trial with a random token (AttrClaim, through CloneTrial, in
//     one transaction); a repeat returns the trial that holds its token when the first attempt
//     committed, instead of creating a second one (which no one would run: Reap failed it,
//     and the study held one trial more than its budget, issue 22).
//   - SetTrialParam that the repeat refuses as a duplicate succeeds if the stored value is the
//     one being set.
//   - CloneTrial (Reap's re-queue runs in its own transaction, not through here) may leave an
//     extra WAITING trial behind, which runs.
//
// A done ctx stops the waiting between attempts.
func NewRetryStorage(ctx context.Context, inner goptuna.Storage, policy RetryPolicy) goptuna.Storage {
	return &retryStorage{ctx: ctx, inner: inner, policy: policy}
}

type retryStorage struct {
	ctx    context.Context
	inner  goptuna.Storage
	policy RetryPolicy
}

func (r *retryStorage) do(op string, f func(retry bool) error) error {
	return Retry(r.ctx, r.policy, op, f)
}

func retry1[T any](r *retryStorage, op string, f func() (T, error)) (T, error) {
	var out T
	err := r.do(op, func(bool) error {
		var err error
		out, err = f()
		return err
	})
	return out, err
}

func (r *retryStorage) CreateNewStudy(name string) (int, error) {
	return retry1(r, "CreateNewStudy", func() (int, error) { return r.inner.CreateNewStudy(name) })
}

func (r *retryStorage) DeleteStudy(studyID int) error {
	return r.do("DeleteStudy", func(bool) error { return r.inner.DeleteStudy(studyID) })
}

func (r *retryStorage) SetStudyDirection(studyID int, direction goptuna.StudyDirection) error {
	return r.do("SetStudyDirection", func(bool) error { return r.inner.SetStudyDirection(studyID, direction) })
}

func (r *retryStorage) SetStudyUserAttr(studyID int, key, value string) error {
	return r.do("SetStudyUserAttr", func(bool) error { return r.inner.SetStudyUserAttr(studyID, key, value) })
}

func (r *retryStorage) SetStudySystemAttr(studyID int, key, value string) error {
	return r.do("SetStudySystemAttr", func(bool) error { return r.inner.SetStudySystemAttr(studyID, key, value) })
}

func (r *retryStorage) GetStudyIDFromName(name string) (int, error) {
	return retry1(r, "GetStudyIDFromName", func() (int, error) { return r.inner.GetStudyIDFromName(name) })
}

func (r *retryStorage) GetStudyIDFromTrialID(trialID int) (int, error) {
	return retry1(r, "GetStudyIDFromTrialID", func() (int, error) { return r.inner.GetStudyIDFromTrialID(trialID) })
}

func (r *retryStorage) GetStudyNameFromID(studyID int) (string, error) {
	return retry1(r, "GetStudyNameFromID", func() (string, error) { return r.inner.GetStudyNameFromID(studyID) })
}

func (r *retryStorage) GetStudyDirection(studyID int) (goptuna.StudyDirection, error) {
	return retry1(r, "GetStudyDirection", func() (goptuna.StudyDirection, error) { return r.inner.GetStudyDirection(studyID) })
}

func (r *retryStorage) GetStudyUserAttrs(studyID int) (map[string]string, error) {
	return retry1(r, "GetStudyUserAttrs", func() (map[string]string, error) { return r.inner.GetStudyUserAttrs(studyID) })
}

func (r *retryStorage) GetStudySystemAttrs(studyID int) (map[string]string, error) {
	return retry1(r, "GetStudySystemAttrs", func() (map[string]string, error) { return r.inner.GetStudySystemAttrs(studyID) })
}

func (r *retryStorage) GetAllStudySummaries() ([]goptuna.StudySummary, error) {
	return retry1(r, "GetAllStudySummaries", r.inner.GetAllStudySummaries)
}

func (r *retryStorage) CreateNewTrial(studyID int) (int, error) {
	token := newClaimToken()
	id := -1
	err := r.do("CreateNewTrial", func(retry bool) error {
		if retry {
			// The first attempt may have committed and lost its answer: its trial holds the
			// token.
			trials, err := r.inner.GetAllTrials(studyID)
			if err != nil && len(trials) == 0 {
				return err
			}
			for _, t := range trials {
				if t.SystemAttrs[AttrClaim] == token {
					id = t.ID
					return nil
				}
			}
		}
		var err error
		id, err = r.inner.CloneTrial(studyID, goptuna.FrozenTrial{
			State:              goptuna.TrialStateRunning,
			DatetimeStart:      time.Now(),
			IntermediateValues: map[int]float64{},
			InternalParams:     map[string]float64{},
			Params:             map[string]interface{}{},
			Distributions:      map[string]interface{}{},
			UserAttrs:          map[string]string{},
			SystemAttrs:        map[string]string{AttrClaim: token},
		})
		return err
	})
	return id, err
}

func (r *retryStorage) CloneTrial(studyID int, baseTrial goptuna.FrozenTrial) (int, error) {
	return retry1(r, "CloneTrial", func() (int, error) { return r.inner.CloneTrial(studyID, baseTrial) })
}

func (r *retryStorage) SetTrialValue(trialID int, value float64) error {
	return r.do("SetTrialValue", func(bool) error { return r.inner.SetTrialValue(trialID, value) })
}

func (r *retryStorage) SetTrialIntermediateValue(trialID int, step int, value float64) error {
	return r.do("SetTrialIntermediateValue", func(retry bool) error {
		err := r.inner.SetTrialIntermediateValue(trialID, step, value)
		if err != nil && retry && isDuplicateMessage(err) {
			if t, gerr := r.inner.GetTrial(trialID); gerr == nil {
				if v, ok := t.IntermediateValues[step]; ok && v == value {
					return nil
				}
			}
		}
		return err
	})
}

func (r *retryStorage) SetTrialParam(trialID int, paramName string, paramValueInternal float64,
	distribution interface{}) error {
	return r.do("SetTrialParam", func(retry bool) error {
		err := r.inner.SetTrialParam(trialID, paramName, paramValueInternal, distribution)
		if err != nil && retry && isDuplicateMessage(err) {
			if v, gerr := r.inner.GetTrialParam(trialID, paramName); gerr == nil && v == paramValueInternal {
				return nil // the first attempt wrote it
			}
		}
		return err
	})
}

func (r *retryStorage) SetTrialState(trialID int, state goptuna.TrialState) error {
	if claimer, ok := r.inner.(TrialClaimer); ok && state == goptuna.TrialStateRunning {
		token := newClaimToken()
		claimed := true
		err := r.do("SetTrialState", func(retry bool) error {
			if retry {
				t, err := r.inner.GetTrial(trialID)
				if err != nil {
					return err
				}
				if t.State == goptuna.TrialStateRunning && t.SystemAttrs[AttrClaim] == token {
					return nil // the first attempt claimed it
				}
			}
			var err error
			claimed, err = claimer.ClaimWaitingTrial(trialID, token)
			return err
		})
		if claimed {
			return err
		}
	}
	return r.do("SetTrialState", func(retry bool) error {
		err := r.inner.SetTrialState(trialID, state)
		if retry && state.IsFinished() && errors.Is(err, goptuna.ErrTrialCannotBeUpdated) {
			if t, gerr := r.inner.GetTrial(trialID); gerr == nil && t.State == state {
				return nil // the first attempt did it
			}
		}
		return err
	})
}

func (r *retryStorage) SetTrialUserAttr(trialID int, key, value string) error {
	return r.do("SetTrialUserAttr", func(bool) error { return r.inner.SetTrialUserAttr(trialID, key, value) })
}

// SetTrialUserAttrs writes several user attributes of a trial at once when inner can (a Store's
// caching storage does, in one statement; search's loop uses it), else one by one. Writing an
// attribute again is harmless, so the whole batch is retried.
func (r *retryStorage) SetTrialUserAttrs(trialID int, attrs map[string]string) error {
	if b, ok := r.inner.(interface {
		SetTrialUserAttrs(trialID int, attrs map[string]string) error
	}); ok {
		return r.do("SetTrialUserAttrs", func(bool) error { return b.SetTrialUserAttrs(trialID, attrs) })
	}
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := r.SetTrialUserAttr(trialID, k, attrs[k]); err != nil {
			return err
		}
	}
	return nil
}

func (r *retryStorage) SetTrialSystemAttr(trialID int, key, value string) error {
	return r.do("SetTrialSystemAttr", func(bool) error { return r.inner.SetTrialSystemAttr(trialID, key, value) })
}

func (r *retryStorage) GetTrialNumberFromID(trialID int) (int, error) {
	return retry1(r, "GetTrialNumberFromID", func() (int, error) { return r.inner.GetTrialNumberFromID(trialID) })
}

func (r *retryStorage) GetTrialParam(trialID int, paramName string) (float64, error) {
	return retry1(r, "GetTrialParam", func() (float64, error) { return r.inner.GetTrialParam(trialID, paramName) })
}

func (r *retryStorage) GetTrial(trialID int) (goptuna.FrozenTrial, error) {
	return retry1(r, "GetTrial", func() (goptuna.FrozenTrial, error) { return r.inner.GetTrial(trialID) })
}

func (r *retryStorage) GetAllTrials(studyID int) ([]goptuna.FrozenTrial, error) {
	return retry1(r, "GetAllTrials", func() ([]goptuna.FrozenTrial, error) { return r.inner.GetAllTrials(studyID) })
}

func (r *retryStorage) GetBestTrial(studyID int) (goptuna.FrozenTrial, error) {
	return retry1(r, "GetBestTrial", func() (goptuna.FrozenTrial, error) { return r.inner.GetBestTrial(studyID) })
}

func (r *retryStorage) GetTrialParams(trialID int) (map[string]interface{}, error) {
	return retry1(r, "GetTrialParams", func() (map[string]interface{}, error) { return r.inner.GetTrialParams(trialID) })
}

func (r *retryStorage) GetTrialUserAttrs(trialID int) (map[string]string, error) {
	return retry1(r, "GetTrialUserAttrs", func() (map[string]string, error) { return r.inner.GetTrialUserAttrs(trialID) })
}

func (r *retryStorage) GetTrialSystemAttrs(trialID int) (map[string]string, error) {
	return retry1(r, "GetTrialSystemAttrs", func() (map[string]string, error) { return r.inner.GetTrialSystemAttrs(trialID) })
}

// isDuplicateMessage reports whether err is a unique-constraint violation, by its message or
// SQLSTATE (the storage's dialect is not known here).
func isDuplicateMessage(err error) bool {
	var pg interface{ SQLState() string }
	if errors.As(err, &pg) && pg.SQLState() == "23505" {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "SQLSTATE 23505") ||
		strings.Contains(msg, "duplicate key")
}
