package trialstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"
)

// NewStudy is what CreateStudy writes with a new study's row, in the same transaction.
type NewStudy struct {
	// Direction is goptuna.StudyDirectionMinimize ("" too) or goptuna.StudyDirectionMaximize.
	Direction goptuna.StudyDirection
	// Version is the build that creates the study (AttrVersion), given by the caller: the
	// storage does not know which program it serves.
	Version string
	// Kind names the record Attrs hold (AttrProblemKind), "" when none; listings show it.
	Kind string
	// Attrs are further study system attributes: a record its owner encoded (package study's
	// problem), so that no other worker sees the study without it.
	Attrs [][2]string
}

// CreateStudy creates the study name, which must not exist yet, with ns (its direction, the
// version, AttrCreated and the caller's attributes), and returns it loaded with store's
// storage, goptuna's logger silenced and then opts (sampler, relative sampler, pruner,
// logger...).
//
// The study row, its direction and its attributes are written in one transaction, so no other
// worker sees a half-made study. When two workers create the same name at once, the database's
// unique constraint on study names lets exactly one win; the other gets an error that matches
// ErrStudyExists:
//
//	trialstore: study "x" already exists
func CreateStudy(ctx context.Context, store *Store, name string, ns NewStudy, opts ...goptuna.StudyOption) (*goptuna.Study, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	direction := ns.Direction
	switch direction {
	case goptuna.StudyDirectionMinimize, "":
		direction = goptuna.StudyDirectionMinimize
	case goptuna.StudyDirectionMaximize:
	default:
		return nil, fmt.Errorf("trialstore: study %q: bad direction %q: want %q or %q",
			name, direction, goptuna.StudyDirectionMinimize, goptuna.StudyDirectionMaximize)
	}
	attrs := [][2]string{{AttrVersion, ns.Version}, {AttrCreated, time.Now().UTC().Format(time.RFC3339Nano)}}
	if ns.Kind != "" {
		attrs = append(attrs, [2]string{AttrProblemKind, ns.Kind})
	}
	attrs = append(attrs, ns.Attrs...)
	exists := &studyError{msg: fmt.Sprintf("trialstore: study %q already exists", name), kind: ErrStudyExists}
	err := store.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Table("studies").Where("study_name = ?", name).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return exists
		}
		st := rdb.NewStorage(tx)
		id, err := st.CreateNewStudy(name)
		if err != nil {
			if isDuplicate(store.db, err) {
				return exists
			}
			return err
		}
		if err := st.SetStudyDirection(id, direction); err != nil {
			return err
		}
		return setStudyAttrs(st, id, attrs)
	})
	if err != nil {
		if errors.Is(err, ErrStudyExists) {
			return nil, exists
		}
		if isDuplicate(store.db, err) {
			return nil, exists
		}
		return nil, fmt.Errorf("trialstore: create study %q in %s: %w", name, store.url, err)
	}
	return LoadStudy(store, name, opts...)
}

// LoadStudy loads the existing study name with store's storage, goptuna's logger silenced
// and then opts (sampler, relative sampler, pruner, logger...). An unknown name is an error
// that matches ErrNoStudy:
//
//	trialstore: no study named "x" in gctune.db
func LoadStudy(store *Store, name string, opts ...goptuna.StudyOption) (*goptuna.Study, error) {
	if _, err := studyID(store, name); err != nil {
		return nil, err
	}
	all := append([]goptuna.StudyOption{
		goptuna.StudyOptionStorage(store.Storage()),
		goptuna.StudyOptionLogger(nil),
	}, opts...)
	study, err := goptuna.LoadStudy(name, all...)
	if err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, noStudy(store, name)
		}
		return nil, fmt.Errorf("trialstore: load study %q from %s: %w", name, store.url, err)
	}
	return study, nil
}

// studyID returns the ID of the study name.
func studyID(store *Store, name string) (int, error) {
	var ids []int
	if err := store.db.Table("studies").Where("study_name = ?", name).Pluck("study_id", &ids).Error; err != nil {
		return 0, fmt.Errorf("trialstore: find study %q in %s: %w", name, store.url, err)
	}
	if len(ids) == 0 {
		return 0, noStudy(store, name)
	}
	return ids[0], nil
}

func noStudy(store *Store, name string) error {
	return &studyError{msg: fmt.Sprintf("trialstore: no study named %q in %s", name, store.url), kind: ErrNoStudy}
}

// studyError is an error with a fixed message that matches a sentinel.
type studyError struct {
	msg  string
	kind error
}

func (e *studyError) Error() string { return e.msg }
func (e *studyError) Unwrap() error { return e.kind }

// isDuplicate reports whether err is a unique-constraint violation.
func isDuplicate(db *gorm.DB, err error) bool {
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return true
	}
	if tr, ok := db.Dialector.(gorm.ErrorTranslator); ok {
		for e := err; e != nil; e = errors.Unwrap(e) {
			if errors.Is(tr.Translate(e), gorm.ErrDuplicatedKey) {
				return true
			}
		}
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "SQLSTATE 23505")
}
