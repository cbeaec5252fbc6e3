package costfit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gctune/gctune/internal/jsonkeys"
)

// StatsPrefix starts the line a measured run prints on standard output for `gctune verify`:
// "gctune-stats " followed by the same JSON object as run.json.
const StatsPrefix = "gctune-stats "

// Measured is what Pharo reported for one run of the application. Times are in seconds;
// the file may give each one in seconds or in milliseconds (the VM's unit): see ParseMeasured.
// Pointer fields are optional: nil means not measured.
type Measured struct {
	// WallSeconds is the run's wall-clock time (Time millisecondsToRun: [...] / 1000).
	WallSeconds float64 `json:"wallSeconds" yaml:"wallSeconds"`
	// GCSeconds is the time in the collector: full GCs (VM parameter 8) plus scavenges (10).
	GCSeconds *float64 `json:"gcSeconds,omitempty" yaml:"gcSeconds,omitempty"`
	// Scavenges is the number of scavenges (VM parameter 9) during the run.
	Scavenges *int64 `json:"scavenges,omitempty" yaml:"scavenges,omitempty"`
	// ScavengeSeconds is the time in scavenges (VM parameter 10, which the VM reports in ms).
	ScavengeSeconds *float64 `json:"scavengeSeconds,omitempty" yaml:"scavengeSeconds,omitempty"`
	// FullGCs is the number of full GCs (VM parameter 7).
	FullGCs *int64 `json:"fullGCs,omitempty" yaml:"fullGCs,omitempty"`
	// FullGCSeconds is the time in full GCs (VM parameter 8, in ms from the VM).
	FullGCSeconds *float64 `json:"fullGCSeconds,omitempty" yaml:"fullGCSeconds,omitempty"`
	// Source says where the figures come from (free text, kept with the cost file).
	Source string `json:"source,omitempty" yaml:"source,omitempty"`
}

// measuredFile is the file format: each time in seconds or in milliseconds, not both.
type measuredFile struct {
	WallSeconds     *float64 `json:"wallSeconds"`
	WallMs          *float64 `json:"wallMs"`
	GCSeconds       *float64 `json:"gcSeconds"`
	GCMs            *float64 `json:"gcMs"`
	Scavenges       *float64 `json:"scavenges"`
	ScavengeSeconds *float64 `json:"scavengeSeconds"`
	ScavengeMs      *float64 `json:"scavengeMs"`
	FullGCs         *float64 `json:"fullGCs"`
	FullGCSeconds   *float64 `json:"fullGCSeconds"`
	FullGCMs        *float64 `json:"fullGCMs"`
	Source          string   `json:"source"`
}

// MaxMeasuredBytes caps a measured run's file: a real one is a few hundred bytes, and a larger
// (or endless: /dev/zero) one is refused after MaxMeasuredBytes+1 bytes, not read whole.
const MaxMeasuredBytes = 16 << 20

// Bounds beyond which a measured figure is not a measurement (1e308 s would give a fitted
// scale of 1e305 and overflow every time printed after it).
const (
	// MaxMeasuredSeconds is the longest time a run may report: over three years.
	MaxMeasuredSeconds = 1e8
	// MaxMeasuredCount is the largest scavenge or full GC count a run may report.
	MaxMeasuredCount = 1e12
)

// ErrTooLarge is matched (errors.Is) by ParseMeasured's and ReadFile's errors for an input
// over its cap.
var ErrTooLarge = errors.New("too large")

// tooLargeError is the message for an input over its cap; it matches ErrTooLarge.
type tooLargeError string

func (e tooLargeError) Error() string        { return string(e) }
func (e tooLargeError) Is(target error) bool { return target == ErrTooLarge }

// ParseMeasured reads a measurement: one JSON object with wallSeconds (or wallMs) and any of
// gcSeconds, scavenges, scavengeSeconds, fullGCs and fullGCSeconds. Each time may instead be
// given in milliseconds, the VM's unit, with the suffix Ms (gcMs, scavengeMs, fullGCMs), as
// the snippet writes them; they are converted to seconds. Unknown keys, a key given twice, a
// null, a time given both ways, negative, non-finite or absurd values (over MaxMeasuredSeconds,
// MaxMeasuredCount) and GC times larger than the wall time are errors naming the key; so is
// an input over MaxMeasuredBytes, read no further. name prefixes them.
func ParseMeasured(r io.Reader, name string) (Measured, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxMeasuredBytes+1))
	if err != nil {
		return Measured{}, fmt.Errorf("costfit: %s: %w", name, err)
	}
	if len(data) > MaxMeasuredBytes {
		return Measured{}, tooLargeError(fmt.Sprintf("costfit: %s: larger than the %d MiB a measured run may have: not a measured run", name, MaxMeasuredBytes>>20))
	}
	if key, found, _ := jsonkeys.FirstDuplicate(bytes.NewReader(data)); found {
		return Measured{}, fmt.Errorf("costfit: %s: key %s given twice", name, key)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err == nil {
		for _, k := range measuredKeys {
			if v, ok := raw[k]; ok && string(bytes.TrimSpace(v)) == "null" {
				return Measured{}, fmt.Errorf("costfit: %s: %s is null: give a number, or leave the key out", name, k)
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f measuredFile
	if err := dec.Decode(&f); err != nil {
		return Measured{}, fmt.Errorf("costfit: %s: %w (want a JSON object with wallSeconds or wallMs, and any of gcSeconds, scavenges, scavengeSeconds, fullGCs, fullGCSeconds, or their ...Ms forms)", name, err)
	}
	if dec.More() {
		return Measured{}, fmt.Errorf("costfit: %s: more than one JSON value", name)
	}
	m, err := f.measured()
	if err != nil {
		return Measured{}, fmt.Errorf("costfit: %s: %w", name, err)
	}
	return m, nil
}

// measuredKeys are measuredFile's JSON keys.
var measuredKeys = []string{"wallSeconds", "wallMs", "gcSeconds", "gcMs", "scavenges", "scavengeSeconds", "scavengeMs",
	"fullGCs", "fullGCSeconds", "fullGCMs", "source"}

// ParseStatsLine reads a "gctune-stats {json}" line; ok is false when line is not one.
func ParseStatsLine(line string) (m Measured, ok bool, err error) {
	rest, found := strings.CutPrefix(strings.TrimSpace(line), strings.TrimSpace(StatsPrefix))
	if !found || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return Measured{}, false, nil
	}
	m, err = ParseMeasured(strings.NewReader(rest), "gctune-stats line")
	return m, true, err
}

func (f measuredFile) measured() (Measured, error) {
	m := Measured{Source: f.Source}
	secs := func(sKey string, s *float64, msKey string, ms *float64) (*float64, error) {
		switch {
		case s != nil && ms != nil:
			return nil, fmt.Errorf("%s and %s both given: give the time once", sKey, msKey)
		case s != nil:
			if !finiteNonNeg(*s) || *s > MaxMeasuredSeconds {
				return nil, fmt.Errorf("%s = %v: must be a number of seconds from 0 to %g", sKey, *s, MaxMeasuredSeconds)
			}
			v := *s
			return &v, nil
		case ms != nil:
			if !finiteNonNeg(*ms) || *ms > MaxMeasuredSeconds*1000 {
				return nil, fmt.Errorf("%s = %v: must be a number of milliseconds from 0 to %g", msKey, *ms, MaxMeasuredSeconds*1000)
			}
			v := *ms / 1000
			return &v, nil
		}
		return nil, nil
	}
	count := func(key string, c *float64) (*int64, error) {
		if c == nil {
			return nil, nil
		}
		if !finiteNonNeg(*c) || *c != math.Trunc(*c) || *c > MaxMeasuredCount {
			return nil, fmt.Errorf("%s = %v: must be a whole number from 0 to %g", key, *c, float64(MaxMeasuredCount))
		}
		n := int64(*c)
		return &n, nil
	}
	wall, err := secs("wallSeconds", f.WallSeconds, "wallMs", f.WallMs)
	if err != nil {
		return m, err
	}
	if wall == nil || *wall <= 0 {
		return m, fmt.Errorf("wallSeconds (or wallMs) must be given and positive")
	}
	m.WallSeconds = *wall
	if m.GCSeconds, err = secs("gcSeconds", f.GCSeconds, "gcMs", f.GCMs); err != nil {
		return m, err
	}
	if m.ScavengeSeconds, err = secs("scavengeSeconds", f.ScavengeSeconds, "scavengeMs", f.ScavengeMs); err != nil {
		return m, err
	}
	if m.FullGCSeconds, err = secs("fullGCSeconds", f.FullGCSeconds, "fullGCMs", f.FullGCMs); err != nil {
		return m, err
	}
	if m.Scavenges, err = count("scavenges", f.Scavenges); err != nil {
		return m, err
	}
	if m.FullGCs, err = count("fullGCs", f.FullGCs); err != nil {
		return m, err
	}
	return m, m.Validate()
}

// Validate checks that the GC times fit in the wall time.
func (m Measured) Validate() error {
	if !(m.WallSeconds > 0) || m.WallSeconds > MaxMeasuredSeconds {
		return fmt.Errorf("wallSeconds = %v: must be a number of seconds above 0, at most %g", m.WallSeconds, MaxMeasuredSeconds)
	}
	for _, t := range []struct {
		key string
		v   *float64
	}{{"gcSeconds", m.GCSeconds}, {"scavengeSeconds", m.ScavengeSeconds}, {"fullGCSeconds", m.FullGCSeconds}} {
		if t.v == nil {
			continue
		}
		if !finiteNonNeg(*t.v) {
			return fmt.Errorf("%s = %v: must be a finite number ≥ 0", t.key, *t.v)
		}
		if *t.v > m.WallSeconds {
			return fmt.Errorf("%s = %v s is more than wallSeconds = %v s", t.key, *t.v, m.WallSeconds)
		}
	}
	if m.ScavengeSeconds != nil && m.FullGCSeconds != nil && *m.ScavengeSeconds+*m.FullGCSeconds > m.WallSeconds {
		return fmt.Errorf("scavengeSeconds + fullGCSeconds = %v s is more than wallSeconds = %v s", *m.ScavengeSeconds+*m.FullGCSeconds, m.WallSeconds)
	}
	return nil
}

// GC returns the measured GC time: GCSeconds, else ScavengeSeconds + FullGCSeconds when both
// are known.
func (m Measured) GC() (float64, bool) {
	switch {
	case m.GCSeconds != nil:
		return *m.GCSeconds, true
	case m.ScavengeSeconds != nil && m.FullGCSeconds != nil:
		return *m.ScavengeSeconds + *m.FullGCSeconds, true
	}
	return 0, false
}

func finiteNonNeg(f float64) bool { return f >= 0 && !math.IsInf(f, 0) && !math.IsNaN(f) }
