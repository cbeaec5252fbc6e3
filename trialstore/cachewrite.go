package trialstore

import (
	"context"

	"github.com/c-bata/goptuna"
)

// The rest of goptuna.Storage on the caching storage: writes pass through and then
// invalidate, reads pass through.

// CreateNewStudy passes through.
func (c *cachedStorage) CreateNewStudy(name string) (int, error) {
	return c.inner.CreateNewStudy(name)
}

// DeleteStudy passes through and drops the study's cache.
func (c *cachedStorage) DeleteStudy(studyID int) error {
	err := c.inner.DeleteStudy(studyID)
	c.forgetStudy(studyID)
	return err
}

func (c *cachedStorage) forgetStudy(studyID int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sc, ok := c.studies[studyID]; ok {
		for id := range sc.finished {
			delete(c.owner, id)
		}
		delete(c.studies, studyID)
	}
}

// SetStudyDirection passes through.
func (c *cachedStorage) SetStudyDirection(studyID int, direction goptuna.StudyDirection) error {
	return c.inner.SetStudyDirection(studyID, direction)
}

// SetStudyUserAttr passes through.
func (c *cachedStorage) SetStudyUserAttr(studyID int, key string, value string) error {
	return c.inner.SetStudyUserAttr(studyID, key, value)
}

// SetStudySystemAttr passes through.
func (c *cachedStorage) SetStudySystemAttr(studyID int, key string, value string) error {
	return c.inner.SetStudySystemAttr(studyID, key, value)
}

// GetStudyIDFromName passes through.
func (c *cachedStorage) GetStudyIDFromName(name string) (int, error) {
	return c.inner.GetStudyIDFromName(name)
}

// GetStudyIDFromTrialID passes through.
func (c *cachedStorage) GetStudyIDFromTrialID(trialID int) (int, error) {
	return c.inner.GetStudyIDFromTrialID(trialID)
}

// GetStudyNameFromID passes through.
func (c *cachedStorage) GetStudyNameFromID(studyID int) (string, error) {
	return c.inner.GetStudyNameFromID(studyID)
}

// GetStudyDirection passes through.
func (c *cachedStorage) GetStudyDirection(studyID int) (goptuna.StudyDirection, error) {
	return c.inner.GetStudyDirection(studyID)
}

// GetStudyUserAttrs passes through.
func (c *cachedStorage) GetStudyUserAttrs(studyID int) (map[string]string, error) {
	return c.inner.GetStudyUserAttrs(studyID)
}

// GetStudySystemAttrs passes through.
func (c *cachedStorage) GetStudySystemAttrs(studyID int) (map[string]string, error) {
	return c.inner.GetStudySystemAttrs(studyID)
}

// GetAllStudySummaries passes through.
func (c *cachedStorage) GetAllStudySummaries() ([]goptuna.StudySummary, error) {
	return c.inner.GetAllStudySummaries()
}

// CreateNewTrial passes through; the new trial is read as new.
func (c *cachedStorage) CreateNewTrial(studyID int) (int, error) {
	return c.inner.CreateNewTrial(studyID)
}

// CloneTrial passes through; the new trial is read as new.
func (c *cachedStorage) CloneTrial(studyID int, baseTrial goptuna.FrozenTrial) (int, error) {
	return c.inner.CloneTrial(studyID, baseTrial)
}

// SetTrialValue passes through and invalidates the trial.
func (c *cachedStorage) SetTrialValue(trialID int, value float64) error {
	defer c.invalidate(trialID)
	return c.inner.SetTrialValue(trialID, value)
}

// SetTrialIntermediateValue passes through and invalidates the trial.
func (c *cachedStorage) SetTrialIntermediateValue(trialID int, step int, value float64) error {
	defer c.invalidate(trialID)
	return c.inner.SetTrialIntermediateValue(trialID, step, value)
}

// SetTrialParam passes through and invalidates the trial.
func (c *cachedStorage) SetTrialParam(trialID int, paramName string, paramValueInternal float64,
	distribution interface{}) error {
	defer c.invalidate(trialID)
	return c.inner.SetTrialParam(trialID, paramName, paramValueInternal, distribution)
}

// SetTrialState passes through and invalidates the trial. When it starts a trial (goptuna
// pops a WAITING trial from the queue so), it also writes the trial's first heartbeat: the
// trial keeps the start time it was enqueued with, which Reap would otherwise take for a
// heartbeat long stopped.
func (c *cachedStorage) SetTrialState(trialID int, state goptuna.TrialState) error {
	defer c.invalidate(trialID)
	err := c.inner.SetTrialState(trialID, state)
	if err == nil && state == goptuna.TrialStateRunning && c.db != nil {
		_ = beat(context.Background(), c.db, trialID) // best effort, as every beat
	}
	return err
}

// SetTrialUserAttr passes through and invalidates the trial.
func (c *cachedStorage) SetTrialUserAttr(trialID int, key string, value string) error {
	defer c.invalidate(trialID)
	return c.inner.SetTrialUserAttr(trialID, key, value)
}

// SetTrialSystemAttr passes through and invalidates the trial.
func (c *cachedStorage) SetTrialSystemAttr(trialID int, key string, value string) error {
	defer c.invalidate(trialID)
	return c.inner.SetTrialSystemAttr(trialID, key, value)
}

// GetTrialNumberFromID serves cached trials and passes the others through.
func (c *cachedStorage) GetTrialNumberFromID(trialID int) (int, error) {
	c.mu.Lock()
	if sid, ok := c.owner[trialID]; ok {
		n := c.studies[sid].finished[trialID].Number
		c.mu.Unlock()
		return n, nil
	}
	c.mu.Unlock()
	if c.db != nil {
		// A trial's number never changes once assigned: one indexed row read instead of
		// goptuna's full trial load (its params and attributes).
		var numbers []int
		if err := c.db.Table("trials").Where("trial_id = ?", trialID).Pluck("number", &numbers).Error; err != nil {
			return -1, err
		}
		if len(numbers) == 1 {
			return numbers[0], nil
		}
	}
	return c.inner.GetTrialNumberFromID(trialID)
}

// GetTrialParam passes through.
func (c *cachedStorage) GetTrialParam(trialID int, paramName string) (float64, error) {
	return c.inner.GetTrialParam(trialID, paramName)
}

// GetBestTrial passes through. Like goptuna's, it returns a zero trial and no error when no
// trial is complete: use trialattr.Best instead.
func (c *cachedStorage) GetBestTrial(studyID int) (goptuna.FrozenTrial, error) {
	return c.inner.GetBestTrial(studyID)
}

// GetTrialParams passes through GetTrial.
func (c *cachedStorage) GetTrialParams(trialID int) (map[string]interface{}, error) {
	t, err := c.GetTrial(trialID)
	if err != nil {
		return nil, err
	}
	return t.Params, nil
}

// GetTrialUserAttrs passes through.
func (c *cachedStorage) GetTrialUserAttrs(trialID int) (map[string]string, error) {
	return c.inner.GetTrialUserAttrs(trialID)
}

// GetTrialSystemAttrs passes through.
func (c *cachedStorage) GetTrialSystemAttrs(trialID int) (map[string]string, error) {
	return c.inner.GetTrialSystemAttrs(trialID)
}
