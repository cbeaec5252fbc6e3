package trialstore

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/c-bata/goptuna"
	"gorm.io/gorm"

	"github.com/gctune/gctune/trialattr"
)

// Counts are a study's trials by state.
type Counts struct {
	Running, Waiting, Complete, Pruned, Fail int
}

// Total returns the number of trials.
func (c Counts) Total() int { return c.Running + c.Waiting + c.Complete + c.Pruned + c.Fail }

// Summary describes one study for listings.
type Summary struct {
	ID        int
	Name      string
	Direction goptuna.StudyDirection
	Trials    Counts
	// HasBest is false while no trial is COMPLETE, feasible and finite; Best and BestNumber
	// are then NaN and -1.
	HasBest    bool
	Best       float64
	BestNumber int
	// Created and Version are the study's AttrCreated and AttrVersion: zero and "" for a
	// study gctune did not create.
	Created time.Time
	Version string
	// ProblemKind is the kind its problem was saved with (SaveProblem), "" if none.
	ProblemKind string
}

// ListStudies summarises every study in store, ordered by ID. It reads the counts and the
// best values with a few aggregate queries instead of loading every trial.
func ListStudies(store *Store) ([]Summary, error) {
	db := store.db
	wrap := func(err error) error { return fmt.Errorf("trialstore: list studies in %s: %w", store.url, err) }
	var studies []struct {
		ID        int    `gorm:"column:study_id"`
		Name      string `gorm:"column:study_name"`
		Direction string `gorm:"column:direction"`
	}
	if err := db.Table("studies").Select("study_id, study_name, direction").Order("study_id").
		Find(&studies).Error; err != nil {
		return nil, wrap(err)
	}
	out := make([]Summary, len(studies))
	index := make(map[int]*Summary, len(studies))
	for i, s := range studies {
		dir := goptuna.StudyDirectionMinimize
		if s.Direction == "MAXIMIZE" {
			dir = goptuna.StudyDirectionMaximize
		}
		out[i] = Summary{ID: s.ID, Name: s.Name, Direction: dir, Best: math.NaN(), BestNumber: -1}
		index[s.ID] = &out[i]
	}

	var counts []struct {
		StudyID int    `gorm:"column:study_id"`
		State   string `gorm:"column:state"`
		N       int    `gorm:"column:n"`
	}
	if err := db.Table("trials").Select("study_id, state, COUNT(*) AS n").
		Group("study_id, state").Find(&counts).Error; err != nil {
		return nil, wrap(err)
	}
	for _, c := range counts {
		s, ok := index[c.StudyID]
		if !ok {
			continue
		}
		switch c.State {
		case stateRunning:
			s.Trials.Running += c.N
		case stateWaiting:
			s.Trials.Waiting += c.N
		case stateComplete:
			s.Trials.Complete += c.N
		case statePruned:
			s.Trials.Pruned += c.N
		case stateFail:
			s.Trials.Fail += c.N
		}
	}

	var candidates []struct {
		StudyID int             `gorm:"column:study_id"`
		Number  int             `gorm:"column:number"`
		Value   sql.NullFloat64 `gorm:"column:value"`
	}
	if err := db.Table("trials AS t").Select("t.study_id, t.number, t.value").
		Where("t.state = ?", stateComplete).
		Where("NOT EXISTS (?)", db.Table("trial_user_attributes AS a").Select("1").
			Where("a.trial_id = t.trial_id AND a.key = ? AND a.value = ?", trialattr.Feasible, "false")).
		Find(&candidates).Error; err != nil {
		return nil, wrap(err)
	}
	for _, c := range candidates {
		s, ok := index[c.StudyID]
		if !ok || !c.Value.Valid || !trialattr.ValidValue(c.Value.Float64) {
			continue
		}
		if !s.HasBest || trialattr.Better(c.Value.Float64, c.Number, s.Best, s.BestNumber, s.Direction) {
			s.HasBest, s.Best, s.BestNumber = true, c.Value.Float64, c.Number
		}
	}

	var attrs []struct {
		StudyID int    `gorm:"column:study_id"`
		Key     string `gorm:"column:key"`
		Value   string `gorm:"column:value"`
	}
	if err := db.Table("study_system_attributes").Select("study_id, key, value").
		Where("key IN ?", []string{AttrCreated, AttrVersion, AttrProblemKind}).
		Find(&attrs).Error; err != nil {
		return nil, wrap(err)
	}
	for _, a := range attrs {
		s, ok := index[a.StudyID]
		if !ok {
			continue
		}
		switch a.Key {
		case AttrCreated:
			s.Created, _ = time.Parse(time.RFC3339Nano, a.Value)
		case AttrVersion:
			s.Version = a.Value
		case AttrProblemKind:
			s.ProblemKind = a.Value
		}
	}
	return out, nil
}

// DeleteStudy deletes the study name and all its trials. An unknown name is an error that
// matches ErrNoStudy. Unless force is set, a study with RUNNING trials is refused with an error
// matching ErrStudyRunning: deleting it under a running optimizer or worker makes it fail on a
// foreign key.
func DeleteStudy(store *Store, name string, force bool) error {
	id, err := studyID(store, name)
	if err != nil {
		return err
	}
	// Children first, explicitly: SQLite files written without foreign keys enabled would
	// otherwise keep orphans.
	err = store.db.Transaction(func(tx *gorm.DB) error {
		if !force {
			// In the same transaction as the deletion: no trial starts in between.
			var running int64
			if err := tx.Table("trials").Where("study_id = ? AND state = ?", id, stateRunning).Count(&running).Error; err != nil {
				return err
			}
			if running > 0 {
				return &sentinelError{is: ErrStudyRunning, msg: fmt.Sprintf(
					"trialstore: study %q has %d running trial(s): its workers would fail; stop them first, or force the deletion (a worker that died leaves its trials running until they are reaped)", name, running)}
			}
		}
		trials := tx.Table("trials").Select("trial_id").Where("study_id = ?", id)
		for _, t := range []string{"trial_params", "trial_values", "trial_user_attributes", "trial_system_attributes"} {
			if err := tx.Exec("DELETE FROM "+t+" WHERE trial_id IN (?)", trials).Error; err != nil {
				return err
			}
		}
		for _, t := range []string{"trials", "study_user_attributes", "study_system_attributes", "studies"} {
			if err := tx.Exec("DELETE FROM "+t+" WHERE study_id = ?", id).Error; err != nil {
				return err
			}
		}
		return nil
	})
	if c, ok := store.storage.(*cachedStorage); ok {
		c.forgetStudy(id)
	}
	if errors.Is(err, ErrStudyRunning) {
		return err
	}
	if err != nil {
		return fmt.Errorf("trialstore: delete study %q from %s: %w", name, store.url, err)
	}
	return nil
}
