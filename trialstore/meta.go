package trialstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/c-bata/goptuna"
	"github.com/c-bata/goptuna/rdb.v2"
	"gorm.io/gorm"
)

// Study and trial system attributes gctune writes. goptuna's own is AttrFixedParams.
const (
	// AttrProblem holds the JSON of the study's problem (SaveProblem), or its first chunk.
	AttrProblem = "gctune:problem"
	// AttrProblemKind names what AttrProblem holds, for LoadProblem's caller.
	AttrProblemKind = "gctune:problem_kind"
	// AttrProblemChunks is the number of chunks of the problem's JSON: chunk 0 is in
	// AttrProblem, chunk i > 0 in AttrProblem+":"+i.
	AttrProblemChunks = "gctune:problem_chunks"
	// AttrProblemSHA256 is the hex SHA-256 of the whole JSON, checked by LoadProblem.
	AttrProblemSHA256 = "gctune:problem_sha256"
	// AttrVersion is the gctune build that created the study (module version, "(devel)" for a
	// local build).
	AttrVersion = "gctune:version"
	// AttrCreated is when the study was created, RFC 3339 with nanoseconds, UTC.
	AttrCreated = "gctune:created"
	// AttrHeartbeat is a RUNNING trial's last heartbeat, Unix nanoseconds (Beat).
	AttrHeartbeat = "gctune:heartbeat"
	// AttrRetryOf is, on a trial Reap enqueued, the number of the reaped trial it retries.
	AttrRetryOf = "gctune:retry_of"
	// AttrClaim is, on a trial a retrying storage created or claimed (NewRetryStorage), the
	// random token of that call: a repeat of the call finds by it what its first attempt did.
	AttrClaim = "gctune:claim"
	// AttrFixedParams is goptuna's system attribute of an enqueued (WAITING) trial: the JSON
	// object of the internal values of the parameters to evaluate (Study.EnqueueTrial).
	AttrFixedParams = "fixed_params"
)

// chunkBytes bounds one chunk of the problem's JSON. goptuna declares attribute values
// varchar(2048), which PostgreSQL enforces (in characters); a chunk of at most 2,000 bytes is
// at most 2,000 characters.
const chunkBytes = 2000

// ErrNoProblem: the study has no problem stored (LoadProblem).
var ErrNoProblem = errors.New("trialstore: study has no problem stored")

// CreateStudy creates the study name, which must not exist yet, with its direction and, when
// problem is not nil, its problem (SaveProblem, with the problem's Go type as kind), and
// returns it loaded with store's storage, goptuna's logger silenced and then opts (sampler,
// relative sampler, pruner, logger...).
//
// The study row, its direction and its attributes are written in one transaction, so no other
// worker sees a half-made study. When two workers create the same name at once, the database's
// unique constraint on study names lets exactly one win; the other gets an error that matches
// ErrStudyExists:
//
//	trialstore: study "x" already exists
func CreateStudy(ctx context.Context, store *Store, name string, direction goptuna.StudyDirection,
	problem any, opts ...goptuna.StudyOption) (*goptuna.Study, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	var dir string
	switch direction {
	case goptuna.StudyDirectionMinimize, "":
		direction = goptuna.StudyDirectionMinimize
	case goptuna.StudyDirectionMaximize:
	default:
		return nil, fmt.Errorf("trialstore: study %q: bad direction %q: want %q or %q",
			name, direction, goptuna.StudyDirectionMinimize, goptuna.StudyDirectionMaximize)
	}
	dir = string(direction)
	var problemJSON []byte
	kind := ""
	if problem != nil {
		var err error
		if problemJSON, err = json.Marshal(problem); err != nil {
			return nil, fmt.Errorf("trialstore: study %q: encode problem: %w", name, err)
		}
		kind = reflect.TypeOf(problem).String()
	}
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
		if err := st.SetStudyDirection(id, goptuna.StudyDirection(dir)); err != nil {
			return err
		}
		if err := st.SetStudySystemAttr(id, AttrVersion, buildVersion()); err != nil {
			return err
		}
		if err := st.SetStudySystemAttr(id, AttrCreated, time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
			return err
		}
		if problemJSON != nil {
			return writeProblem(tx, id, kind, problemJSON)
		}
		return nil
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

// buildVersion returns the version of the running gctune build.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += "+" + s.Value[:12]
		}
	}
	return v
}

// SaveProblem stores v, JSON-encoded, as the problem of study studyID, with kind naming what
// it is (LoadProblem returns it): in the study system attribute AttrProblem, split into
// chunks of at most 2,000 bytes when longer (AttrProblemChunks), with its SHA-256. It replaces
// a problem stored before. The attributes are written in one transaction.
func (s *Store) SaveProblem(studyID int, kind string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("trialstore: encode problem: %w", err)
	}
	err = s.db.Transaction(func(tx *gorm.DB) error {
		return writeProblem(tx, studyID, kind, b)
	})
	if err != nil {
		return fmt.Errorf("trialstore: save problem of study %d: %w", studyID, err)
	}
	return nil
}

// writeProblem writes the problem attributes inside transaction tx.
func writeProblem(tx *gorm.DB, studyID int, kind string, b []byte) error {
	chunks := splitChunks(string(b), chunkBytes)
	sum := sha256.Sum256(b)
	if err := tx.Exec("DELETE FROM study_system_attributes WHERE study_id = ? AND key LIKE ?",
		studyID, AttrProblem+":%").Error; err != nil {
		return err
	}
	st := rdb.NewStorage(tx)
	attrs := [][2]string{
		{AttrProblemKind, kind},
		{AttrProblemChunks, strconv.Itoa(len(chunks))},
		{AttrProblemSHA256, hex.EncodeToString(sum[:])},
		{AttrProblem, chunks[0]},
	}
	for i := 1; i < len(chunks); i++ {
		attrs = append(attrs, [2]string{AttrProblem + ":" + strconv.Itoa(i), chunks[i]})
	}
	for _, a := range attrs {
		if err := st.SetStudySystemAttr(studyID, a[0], a[1]); err != nil {
			return err
		}
	}
	return nil
}

// splitChunks splits s into pieces of at most n bytes, cutting only between runes.
func splitChunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

// LoadProblem decodes the problem of study studyID into v (a pointer, as for json.Unmarshal)
// and returns the kind it was saved with. A study without one gives an error matching
// ErrNoProblem.
func (s *Store) LoadProblem(studyID int, v any) (kind string, err error) {
	attrs, err := s.raw.GetStudySystemAttrs(studyID)
	if err != nil {
		return "", fmt.Errorf("trialstore: load problem of study %d: %w", studyID, err)
	}
	first, ok := attrs[AttrProblem]
	if !ok {
		return "", fmt.Errorf("trialstore: study %d: %w", studyID, ErrNoProblem)
	}
	n := 1
	if c, ok := attrs[AttrProblemChunks]; ok {
		if n, err = strconv.Atoi(c); err != nil || n < 1 {
			return "", damaged(fmt.Errorf("trialstore: study %d in %s: stored problem is damaged: bad %s %q", studyID, s.url, AttrProblemChunks, c))
		}
	}
	var b strings.Builder
	b.WriteString(first)
	for i := 1; i < n; i++ {
		chunk, ok := attrs[AttrProblem+":"+strconv.Itoa(i)]
		if !ok {
			return "", damaged(fmt.Errorf("trialstore: study %d in %s: stored problem is damaged: chunk %d of %d missing", studyID, s.url, i, n))
		}
		b.WriteString(chunk)
	}
	data := []byte(b.String())
	if want, ok := attrs[AttrProblemSHA256]; ok {
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != want {
			return "", damaged(fmt.Errorf("trialstore: study %d in %s: stored problem is damaged (sha256 %s, want %s)", studyID, s.url, got, want))
		}
	}
	if err := json.Unmarshal(data, v); err != nil {
		return "", damaged(fmt.Errorf("trialstore: study %d in %s: stored problem is damaged: %w", studyID, s.url, err))
	}
	return attrs[AttrProblemKind], nil
}
