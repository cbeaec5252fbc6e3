package trialstore

import (
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/c-bata/goptuna"
)

// maxInList is the most unfinished trial IDs the cache names in one IN (...) list; past it,
// it reads every trial from the oldest unfinished one on and filters.
const maxInList = 500

// Rows of goptuna's tables, as the cache reads them.
type (
	trialRow struct {
		ID               int             `gorm:"column:trial_id"`
		Number           int             `gorm:"column:number"`
		StudyID          int             `gorm:"column:study_id"`
		State            string          `gorm:"column:state"`
		Value            sql.NullFloat64 `gorm:"column:value"`
		DatetimeStart    *time.Time      `gorm:"column:datetime_start"`
		DatetimeComplete *time.Time      `gorm:"column:datetime_complete"`
	}
	paramRow struct {
		TrialID int     `gorm:"column:trial_id"`
		Name    string  `gorm:"column:param_name"`
		Value   float64 `gorm:"column:param_value"`
	}
	attrRow struct {
		TrialID int    `gorm:"column:trial_id"`
		Key     string `gorm:"column:key"`
		Value   string `gorm:"column:value"`
	}
)

// readStudyTrials reads the study's trials with an ID above maxID or in ids.
//
// The predicates say +study_id, not study_id: the unary plus keeps SQLite (without ANALYZE
// statistics) and PostgreSQL from choosing the study index, which would walk every trial of
// the study, over the primary key, which goes straight to the few trials wanted.
func readStudyTrials(db sqlReader, studyID, maxID int, ids []int) ([]goptuna.FrozenTrial, error) {
	switch {
	case len(ids) == 0:
		return readTrials(db, "trial_id > ? AND +study_id = ?", []any{maxID, studyID})
	case len(ids) <= maxInList:
		return readTrials(db, "(trial_id > ? OR trial_id IN ?) AND +study_id = ?", []any{maxID, ids, studyID})
	}
	// Too many to list: read from the oldest on and keep the ones asked for.
	low := ids[0]
	want := make(map[int]bool, len(ids))
	for _, id := range ids {
		low = min(low, id)
		want[id] = true
	}
	trials, err := readTrials(db, "trial_id >= ? AND +study_id = ?", []any{low, studyID})
	if err != nil {
		return nil, err
	}
	kept := trials[:0]
	for _, t := range trials {
		if t.ID > maxID || want[t.ID] {
			kept = append(kept, t)
		}
	}
	return kept, nil
}

// readTrials reads the trials that the WHERE clause pred selects, ordered by ID: the trial
// rows, then their params, intermediate values and attributes.
//
// The queries (four) are short and simple on purpose. The pure-Go SQLite driver parses every
// statement anew, and its allocator maps and unmaps memory for a large statement: short
// queries cost a fraction of one that unions the five tables.
//
// The statements are separate, so a trial may change between them; a trial is read whole again
// on every call while it is unfinished, and a finished trial's rows are all written before
// it is marked finished, so what is cached is complete.
func readTrials(db sqlReader, pred string, args []any) ([]goptuna.FrozenTrial, error) {
	rows, err := db.query("SELECT trial_id, number, study_id, state, value, datetime_start, datetime_complete FROM trials WHERE "+
		pred+" ORDER BY trial_id", args...)
	if err != nil {
		return nil, err
	}
	var trials []goptuna.FrozenTrial
	err = scanRows(rows, func(r *sql.Rows) error {
		var (
			t      goptuna.FrozenTrial
			state  string
			value  sql.NullFloat64
			t1, t2 anyTime
		)
		if err := r.Scan(&t.ID, &t.Number, &t.StudyID, &state, &value, &t1, &t2); err != nil {
			return damaged(err)
		}
		var err error
		if t.State, err = parseState(state); err != nil {
			return damaged(err)
		}
		t.Value = math.NaN()
		if value.Valid {
			t.Value = value.Float64
		}
		t.DatetimeStart, t.DatetimeComplete = t1.Time, t2.Time
		t.IntermediateValues = map[int]float64{}
		t.InternalParams = map[string]float64{}
		t.Params = map[string]interface{}{}
		t.Distributions = map[string]interface{}{}
		t.UserAttrs = map[string]string{}
		t.SystemAttrs = map[string]string{}
		trials = append(trials, t)
		return nil
	})
	if err != nil || len(trials) == 0 {
		return nil, err
	}
	index := make(map[int]*goptuna.FrozenTrial, len(trials))
	ids := make([]int, len(trials))
	for i := range trials {
		index[trials[i].ID] = &trials[i]
		ids[i] = trials[i].ID
	}
	// The children of the trials read: by ID when they are few, else by the same predicate.
	where, wargs := "trial_id IN ?", []any{ids}
	if len(ids) > maxInList {
		where, wargs = "trial_id IN (SELECT trial_id FROM trials WHERE "+pred+")", args
	}
	if err := childQuery(db, "SELECT trial_id, param_name, param_value, distribution_json FROM trial_params", where, wargs,
		func(r *sql.Rows) error {
			var (
				id   int
				name string
				v    float64
				dist string
			)
			if err := r.Scan(&id, &name, &v, &dist); err != nil {
				return damaged(err)
			}
			t, ok := index[id]
			if !ok {
				return nil
			}
			d, err := goptuna.JSONToDistribution([]byte(dist))
			if err != nil {
				return damaged(fmt.Errorf("trial %d: parameter %s: distribution: %w", id, name, err))
			}
			x, err := goptuna.ToExternalRepresentation(d, v)
			if err != nil {
				return damaged(fmt.Errorf("trial %d: parameter %s: %w", id, name, err))
			}
			t.Distributions[name], t.InternalParams[name], t.Params[name] = d, v, x
			return nil
		}); err != nil {
		return nil, err
	}
	if err := childQuery(db, "SELECT trial_id, step, value FROM trial_values", where, wargs,
		func(r *sql.Rows) error {
			var (
				id, step int
				v        float64
			)
			if err := r.Scan(&id, &step, &v); err != nil {
				return damaged(err)
			}
			if t, ok := index[id]; ok {
				t.IntermediateValues[step] = v
			}
			return nil
		}); err != nil {
		return nil, err
	}
	attrs := "SELECT trial_id, key, value, 0 FROM trial_user_attributes WHERE " + where +
		" UNION ALL SELECT trial_id, key, value, 1 FROM trial_system_attributes"
	if err := childQuery(db, attrs, where, append(append([]any(nil), wargs...), wargs...),
		func(r *sql.Rows) error {
			var (
				id, system int
				key, value string
			)
			if err := r.Scan(&id, &key, &value, &system); err != nil {
				return damaged(err)
			}
			if t, ok := index[id]; ok {
				if system == 1 {
					t.SystemAttrs[key] = value
				} else {
					t.UserAttrs[key] = value
				}
			}
			return nil
		}); err != nil {
		return nil, err
	}
	return trials, nil
}

// childQuery runs sel WHERE where and calls scan for each row.
func childQuery(db sqlReader, sel, where string, args []any, scan func(*sql.Rows) error) error {
	rows, err := db.query(sel+" WHERE "+where, args...)
	if err != nil {
		return err
	}
	return scanRows(rows, scan)
}

// sqlReader runs the cache's queries on database/sql directly: they are many and small, and
// gorm's statement building would be a good part of their cost.
type sqlReader struct {
	db     *sql.DB
	dollar bool // PostgreSQL's $1 placeholders instead of ?
}

// query runs q, where each ? is an argument and a []int argument is a parenthesised list
// (for IN ?; never empty).
func (r sqlReader) query(q string, args ...any) (*sql.Rows, error) {
	var b strings.Builder
	b.Grow(len(q) + 16)
	flat := make([]any, 0, len(args))
	placeholder := func() {
		if r.dollar {
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(len(flat)))
		} else {
			b.WriteByte('?')
		}
	}
	next := 0
	for i := 0; i < len(q); i++ {
		if q[i] != '?' {
			b.WriteByte(q[i])
			continue
		}
		a := args[next]
		next++
		if ids, ok := a.([]int); ok {
			b.WriteByte('(')
			for j, id := range ids {
				if j > 0 {
					b.WriteByte(',')
				}
				flat = append(flat, id)
				placeholder()
			}
			b.WriteByte(')')
			continue
		}
		flat = append(flat, a)
		placeholder()
	}
	return r.db.Query(b.String(), flat...)
}

// scanRows calls scan for each row and closes rows.
func scanRows(rows *sql.Rows, scan func(*sql.Rows) error) error {
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// anyTime scans a time that the driver returns as a time.Time, or as text.
type anyTime struct{ time.Time }

// Scan implements sql.Scanner.
func (t *anyTime) Scan(v any) error {
	switch v := v.(type) {
	case nil:
		t.Time = time.Time{}
	case time.Time:
		t.Time = v
	case string:
		return t.parse(v)
	case []byte:
		return t.parse(string(v))
	default:
		return &timeError{v: fmt.Sprint(v)}
	}
	return nil
}

func (t *anyTime) parse(s string) error {
	// time.Time.String's monotonic clock suffix.
	if i := strings.Index(s, " m="); i >= 0 {
		s = s[:i]
	}
	for _, layout := range []string{
		"2006-01-02 15:04:05.999999999-07:00", // glebarez/go-sqlite writes this
		"2006-01-02T15:04:05.999999999-07:00",
		"2006-01-02 15:04:05.999999999 -0700 MST",
		"2006-01-02 15:04:05.999999999-07",
		"2006-01-02 15:04:05.999999999",
		"2006-01-02T15:04:05.999999999",
		"2006-01-02",
	} {
		if v, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			t.Time = v
			return nil
		}
	}
	return &timeError{v: s}
}

type timeError struct{ v string }

func (e *timeError) Error() string { return "trialstore: cannot read time " + strconv.Quote(e.v) }

// Trial states as goptuna's rdb.v2 stores them.
const (
	stateRunning  = "RUNNING"
	stateComplete = "COMPLETE"
	statePruned   = "PRUNED"
	stateFail     = "FAIL"
	stateWaiting  = "WAITING"
)

func parseState(s string) (goptuna.TrialState, error) {
	switch s {
	case stateRunning:
		return goptuna.TrialStateRunning, nil
	case stateComplete:
		return goptuna.TrialStateComplete, nil
	case statePruned:
		return goptuna.TrialStatePruned, nil
	case stateFail:
		return goptuna.TrialStateFail, nil
	case stateWaiting:
		return goptuna.TrialStateWaiting, nil
	}
	return 0, &stateError{state: s}
}

type stateError struct{ state string }

func (e *stateError) Error() string { return "trialstore: unknown trial state " + e.state }
