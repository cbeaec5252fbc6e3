package studies

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
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

// SaveMeasuredRun stores run r in study studyID. A run whose JSON is too long for one
// attribute has its Error shortened, then its Stats dropped.
func (s *Store) SaveMeasuredRun(studyID int, r MeasuredRun) error {
	if r.Session == "" || strings.Contains(r.Session, ":") {
		return fmt.Errorf("studies: measured run: bad session %q", r.Session)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("studies: encode measured run: %w", err)
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
	if err := s.raw.SetStudySystemAttr(studyID, key, string(b)); err != nil {
		return fmt.Errorf("studies: save measured run: %w", err)
	}
	return nil
}

// MeasuredRuns returns the runs stored in study studyID, ordered by session then sequence.
func (s *Store) MeasuredRuns(studyID int) ([]MeasuredRun, error) {
	attrs, err := s.raw.GetStudySystemAttrs(studyID)
	if err != nil {
		return nil, fmt.Errorf("studies: load measured runs of study %d: %w", studyID, err)
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
		if err := json.Unmarshal([]byte(attrs[k]), &r); err != nil {
			return nil, fmt.Errorf("studies: study %d: measured run %s: %w", studyID, strings.TrimPrefix(k, AttrMeasuredPrefix), err)
		}
		runs = append(runs, r)
	}
	return runs, nil
}
