package verify

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gctune/gctune/trialstore"
)

// AttrMeasuredPrefix starts the study system attributes that hold runs of the real application
// measured by `gctune verify`: AttrMeasuredPrefix + session + ":" + sequence number (six
// digits), each holding one MeasuredRun as JSON. Study attributes need no schema change, are
// deleted with the study and work alike on SQLite and PostgreSQL.
const AttrMeasuredPrefix = "gctune:measured:"

// maxMeasuredJSON bounds one run's JSON (attribute values are varchar(2048)).
const maxMeasuredJSON = 2000

// MeasuredRun is one run of the real application under one configuration.
type MeasuredRun struct {
	// Session identifies the verify invocation (NewMeasuredSession); Seq orders its runs.
	Session string `json:"session"`
	Seq     int    `json:"seq"`
	// Config is "default", "best" or "trial-N"; Trial is the trial number (-1 for the
	// defaults).
	Config string `json:"config"`
	Trial  int    `json:"trial"`
	// Round is the measured round (0-based), -1 for the warm-up run.
	Round int `json:"round"`
	// Start is when the run started (UTC); WallSeconds how long the process ran.
	Start       time.Time `json:"start"`
	WallSeconds float64   `json:"wallSeconds"`
	// ExitCode is the process's exit status (-1 when killed); Error says why a run failed.
	ExitCode int    `json:"exitCode"`
	Error    string `json:"error,omitempty"`
	// Stats is the JSON object of the run's "gctune-stats" line, when it printed one.
	Stats json.RawMessage `json:"stats,omitempty"`
	// PredictedSpeedup is the simulated speedup of Config over the defaults (1 for them).
	PredictedSpeedup float64 `json:"predictedSpeedup"`
}

// OK reports whether the run finished successfully (exit code 0, no error).
func (r MeasuredRun) OK() bool { return r.ExitCode == 0 && r.Error == "" }

// NewMeasuredSession returns a session identifier for runs measured from now on: the UTC time
// to the nanosecond and the process ID, which sort in time order.
func NewMeasuredSession(now time.Time, pid int) string {
	return fmt.Sprintf("%s-%d", now.UTC().Format("20060102T150405.000000000Z"), pid)
}

// SaveMeasuredRun stores run r in study studyID of store. A run whose JSON is too long for one
// attribute has its Error shortened, then its Stats dropped.
func SaveMeasuredRun(store *trialstore.Store, studyID int, r MeasuredRun) error {
	if r.Session == "" || strings.Contains(r.Session, ":") {
		return fmt.Errorf("verify: measured run: bad session %q", r.Session)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("verify: encode measured run: %w", err)
	}
	for len(b) > maxMeasuredJSON && r.Error != "" {
		cut := len(r.Error) - (len(b) - maxMeasuredJSON) - 8
		if cut < 0 {
			cut = 0
		}
		for cut > 0 && !utf8.RuneStart(r.Error[cut]) {
			cut--
		}
		r.Error = r.Error[:cut] + "…"
		if cut == 0 {
			r.Error = "(error too long to store)"
		}
		if b, err = json.Marshal(r); err != nil {
			return err
		}
		if cut == 0 {
			break
		}
	}
	if len(b) > maxMeasuredJSON {
		r.Stats = nil
		if b, err = json.Marshal(r); err != nil {
			return err
		}
	}
	key := fmt.Sprintf("%s%s:%06d", AttrMeasuredPrefix, r.Session, r.Seq)
	if err := store.RawStorage().SetStudySystemAttr(studyID, key, string(b)); err != nil {
		return fmt.Errorf("verify: save measured run: %w", err)
	}
	return nil
}

// MeasuredRuns returns the runs stored in study studyID of store, ordered by session then
// sequence. A stored run that does not decode, or holds values verify never writes, is an
// error matching trialstore.ErrDamagedStudy.
func MeasuredRuns(store *trialstore.Store, studyID int) ([]MeasuredRun, error) {
	attrs, err := store.RawStorage().GetStudySystemAttrs(studyID)
	if err != nil {
		return nil, fmt.Errorf("verify: load measured runs of study %d: %w", studyID, err)
	}
	var keys []string
	for k := range attrs {
		if strings.HasPrefix(k, AttrMeasuredPrefix) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	runs := make([]MeasuredRun, 0, len(keys))
	for _, k := range keys {
		var r MeasuredRun
		err := json.Unmarshal([]byte(attrs[k]), &r)
		if err == nil {
			err = r.check()
		} else {
			err = errors.New("not the JSON gctune writes")
		}
		if err != nil {
			return nil, trialstore.Damaged(fmt.Errorf("study %d: the stored measured run %s (study attribute %s) is damaged: %w; "+
				"the trials are not: export and explain still work; for report and calibrate --from-study, verify again into a new study",
				studyID, strings.TrimPrefix(k, AttrMeasuredPrefix), k, err))
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// maxStoredWallSeconds bounds a stored run's wall time: a year.
const maxStoredWallSeconds = 365 * 24 * 3600

// check checks a measured run read back with the rules verify writes it by: a session, a
// configuration, a sequence and round in range, a wall time in [0, a year], a predicted speedup
// ≥ 0, and stats (when present) a JSON object.
func (r MeasuredRun) check() error {
	switch {
	case r.Session == "" || r.Config == "":
		return errors.New("no session or configuration")
	case r.Seq < 0 || r.Round < -1 || r.Trial < -1:
		return fmt.Errorf("sequence %d, round %d or trial %d out of range", r.Seq, r.Round, r.Trial)
	case !(r.WallSeconds >= 0) || r.WallSeconds > maxStoredWallSeconds:
		return fmt.Errorf("wall time %g s is not in [0, %d]", r.WallSeconds, maxStoredWallSeconds)
	case !(r.PredictedSpeedup >= 0) || math.IsInf(r.PredictedSpeedup, 0):
		return fmt.Errorf("predicted speedup %g is not a number ≥ 0", r.PredictedSpeedup)
	}
	if len(r.Stats) > 0 {
		var obj map[string]any
		if err := json.Unmarshal(r.Stats, &obj); err != nil || obj == nil {
			return errors.New("its gctune-stats figures are not a JSON object")
		}
	}
	return nil
}
