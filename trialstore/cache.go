package trialstore

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"
)

// maxInList is the most unfinished trial IDs the cache names in one IN (...) list; past it,
// it reads every trial from the oldest unfinished one on and filters.
const maxInList = 500

// gormStorage is goptuna's rdb storage that also hands its database to the cache.
type gormStorage struct {
	*rdb.Storage
	db *gorm.DB
}

// gormBacked is implemented by storages whose tables the cache may query directly.
type gormBacked interface {
	gormDB() *gorm.DB
}

func (s *gormStorage) gormDB() *gorm.DB { return s.db }

// NewCachedStorage wraps inner with a cache of finished trials.
//
// goptuna reloads every trial of a study several times per trial it runs (to pop a waiting
// trial, in samplers, for the intersection search space), so on a database the cost of a
// trial grows with the study. A COMPLETE, PRUNED or FAIL trial never changes, so the wrapper
// keeps those and GetAllTrials reads from the database only the trials that are unfinished
// (RUNNING, WAITING) or newer than the newest one it has seen: trials other processes add
// appear on the next read. Every write passes through to inner and then forgets what it
// touched; GetTrial of a cached finished trial is served from the cache. Errors from inner are
// returned unchanged (goptuna compares some of them with ==).
//
// The incremental reads need the database: they happen when inner is a Store's RawStorage
// (the Store's Storage already is this wrapper). Any other inner storage is passed through.
//
// The trials GetAllTrials returns share their maps with the cache and with other callers:
// treat them as read-only. (The one write goptuna makes, IntersectionSearchSpace deleting from
// the Distributions map of the first COMPLETE trial, is on a copy made for it.) Copying every
// map of every trial on every call would cost more than the database reads it saves.
//
// What the cache assumes: finished trials are not modified (goptuna refuses to change their
// value or state, but will set attributes on them; doing that from another process is not seen
// by a process that has the trial cached), and trials of one study are committed in ID order
// (goptuna creates them under a lock on the study row, and SQLite serialises writers).
// A trial value that SQLite stored as NULL (goptuna writes NaN that way) is read back as NaN.
func NewCachedStorage(inner goptuna.Storage) goptuna.Storage {
	c := &cachedStorage{
		inner:   inner,
		studies: make(map[int]*studyCache),
		owner:   make(map[int]int),
		dirty:   make(map[int]uint64),
	}
	if g, ok := inner.(gormBacked); ok {
		if sqlDB, err := g.gormDB().DB(); err == nil {
			c.db = g.gormDB()
			c.rd = sqlReader{db: sqlDB, dollar: c.db.Dialector.Name() == "postgres"}
		}
	}
	return c
}

// cachedStorage is NewCachedStorage's wrapper.
type cachedStorage struct {
	inner goptuna.Storage
	db    *gorm.DB  // nil: GetAllTrials passes through
	rd    sqlReader // the hot reads, on db's connections

	mu      sync.Mutex
	studies map[int]*studyCache
	owner   map[int]int // cached finished trial ID → study ID
	// gen counts invalidations; dirty[id] is the gen of trial id's last invalidation. A read
	// that started before it may hold an old copy of the trial and must not cache it.
	gen   uint64
	dirty map[int]uint64
}

// studyCache is what the cache knows of one study.
type studyCache struct {
	// maxID is the largest trial ID read; every trial with a smaller ID is in finished or in
	// unfinished.
	maxID      int
	finished   map[int]goptuna.FrozenTrial
	unfinished map[int]struct{}      // re-read on every GetAllTrials
	sorted     []goptuna.FrozenTrial // finished, ordered by ID
}

// insertSorted adds t to sc.sorted (mostly at the end: trials finish roughly in ID order).
func (sc *studyCache) insertSorted(t goptuna.FrozenTrial) {
	i := sort.Search(len(sc.sorted), func(i int) bool { return sc.sorted[i].ID >= t.ID })
	if i < len(sc.sorted) && sc.sorted[i].ID == t.ID {
		sc.sorted[i] = t
		return
	}
	sc.sorted = append(sc.sorted, goptuna.FrozenTrial{})
	copy(sc.sorted[i+1:], sc.sorted[i:])
	sc.sorted[i] = t
}

// removeSorted removes trial id from sc.sorted.
func (sc *studyCache) removeSorted(id int) {
	i := sort.Search(len(sc.sorted), func(i int) bool { return sc.sorted[i].ID >= id })
	if i < len(sc.sorted) && sc.sorted[i].ID == id {
		sc.sorted = append(sc.sorted[:i], sc.sorted[i+1:]...)
	}
}

var _ goptuna.Storage = (*cachedStorage)(nil)

func (c *cachedStorage) study(studyID int) *studyCache {
	sc, ok := c.studies[studyID]
	if !ok {
		sc = &studyCache{
			finished:   make(map[int]goptuna.FrozenTrial),
			unfinished: make(map[int]struct{}),
		}
		c.studies[studyID] = sc
	}
	return sc
}

// invalidate forgets trial trialID after a write to it.
func (c *cachedStorage) invalidate(trialID int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.dirty[trialID] = c.gen
	if sid, ok := c.owner[trialID]; ok {
		sc := c.studies[sid]
		delete(sc.finished, trialID)
		sc.removeSorted(trialID)
		sc.unfinished[trialID] = struct{}{}
		delete(c.owner, trialID)
	}
}

// GetAllTrials returns the study's trials ordered by ID, reading only unfinished and new
// trials from the database.
func (c *cachedStorage) GetAllTrials(studyID int) ([]goptuna.FrozenTrial, error) {
	if c.db == nil {
		return c.inner.GetAllTrials(studyID)
	}
	c.mu.Lock()
	sc := c.study(studyID)
	maxID, startGen := sc.maxID, c.gen
	ids := make([]int, 0, len(sc.unfinished))
	for id := range sc.unfinished {
		ids = append(ids, id)
	}
	c.mu.Unlock()

	fresh, err := readStudyTrials(c.rd, studyID, maxID, ids)
	if err != nil {
		return nil, err
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.studies[studyID] != sc {
		// The study was deleted meanwhile: answer from this read alone.
		return guardIntersection(fresh), nil
	}
	var open []goptuna.FrozenTrial // fresh trials not (yet) cached
	for _, t := range fresh {
		if t.ID > sc.maxID {
			sc.maxID = t.ID
		}
		if _, ok := sc.finished[t.ID]; ok {
			continue // a newer read cached it; finished is final
		}
		if !t.State.IsFinished() {
			sc.unfinished[t.ID] = struct{}{}
			open = append(open, t)
			continue
		}
		if g, ok := c.dirty[t.ID]; ok {
			if g > startGen {
				// Written while we read: use it, but read it again next time.
				sc.unfinished[t.ID] = struct{}{}
				open = append(open, t)
				continue
			}
			delete(c.dirty, t.ID)
		}
		sc.finished[t.ID] = t
		sc.insertSorted(t)
		c.owner[t.ID] = studyID
		delete(sc.unfinished, t.ID)
	}
	return guardIntersection(merge(sc.sorted, open)), nil
}

// merge returns a new slice of the ID-ordered trials of finished and open (few), in ID order.
// It copies runs of finished in bulk: element by element, copying a thousand trials (with the
// write barriers of their maps) would cost more than the queries.
func merge(finished, open []goptuna.FrozenTrial) []goptuna.FrozenTrial {
	out := make([]goptuna.FrozenTrial, len(finished)+len(open))
	i, k := 0, 0
	for _, t := range open {
		n := sort.Search(len(finished)-i, func(n int) bool { return finished[i+n].ID > t.ID })
		k += copy(out[k:], finished[i:i+n])
		i += n
		out[k] = t
		k++
	}
	copy(out[k:], finished[i:])
	return out
}

// guardIntersection gives the first COMPLETE trial of trials its own Distributions map.
// goptuna's IntersectionSearchSpace (used with a RelativeSampler such as CMA-ES) takes that
// map as its result and deletes from it; every other map of the returned trials is shared
// with the cache.
func guardIntersection(trials []goptuna.FrozenTrial) []goptuna.FrozenTrial {
	for i := range trials {
		if trials[i].State == goptuna.TrialStateComplete {
			trials[i].Distributions = copyMap(trials[i].Distributions)
			break
		}
	}
	return trials
}

// copyTrial returns t with its maps copied.
func copyTrial(t goptuna.FrozenTrial) goptuna.FrozenTrial {
	t.IntermediateValues = copyMap(t.IntermediateValues)
	t.InternalParams = copyMap(t.InternalParams)
	t.Params = copyMap(t.Params)
	t.Distributions = copyMap(t.Distributions)
	t.UserAttrs = copyMap(t.UserAttrs)
	t.SystemAttrs = copyMap(t.SystemAttrs)
	return t
}

func copyMap[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// GetTrial serves cached finished trials (as copies) and reads the others as GetAllTrials
// does.
func (c *cachedStorage) GetTrial(trialID int) (goptuna.FrozenTrial, error) {
	c.mu.Lock()
	if sid, ok := c.owner[trialID]; ok {
		t := copyTrial(c.studies[sid].finished[trialID])
		c.mu.Unlock()
		return t, nil
	}
	c.mu.Unlock()
	if c.db == nil {
		return c.inner.GetTrial(trialID)
	}
	trials, err := readTrials(c.rd, "trial_id = ?", []any{trialID})
	if err != nil {
		return goptuna.FrozenTrial{}, err
	}
	if len(trials) == 0 {
		// What goptuna's rdb storage answers.
		return goptuna.FrozenTrial{}, gorm.ErrRecordNotFound
	}
	return trials[0], nil
}

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

// The rest of goptuna.Storage: writes pass through and then invalidate, reads pass through.

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
