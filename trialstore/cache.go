package trialstore

import (
	"sort"
	"sync"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"
)

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
