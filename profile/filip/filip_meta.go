package filip

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/gctune/gctune/internal/jsonkeys"
)

// filipMaxMetaBytes caps the JSON metadata. The exporter writes a dozen keys; only profiledCode,
// the profiled block's source, can be long.
const filipMaxMetaBytes = 16 << 20

// filipMeta is the JSON metadata file (IllSimpleExporter>>jsonDictionary, FiLiPExporter adds
// averageLifetimes). Numbers are float64 because NeoJSON writes a Fraction as a float.
type filipMeta struct {
	TotalExecutionTime *float64        `json:"totalExecutionTime"` // on the timestamps' clock
	TotalFullGCs       *float64        `json:"totalFullGCs"`
	TotalScavenges     *float64        `json:"totalScavenges"`
	SamplingRate       *float64        `json:"samplingRate"`
	SampligRate        *float64        `json:"sampligRate"` // the key's spelling until e88d1d2 (2024-03-13)
	Profiler           json.RawMessage `json:"profiler"`
	AverageLifetimes   *float64        `json:"averageLifetimes"` // FiLiP: mean lifetime, on the clock
}

// filipRun is what finish needs from the metadata.
type filipRun struct {
	rate        float64 // sampling rate as a fraction in (0, 1]
	weight      uint32  // round(1/rate)
	totalTime   float64 // totalExecutionTime on the timestamps' clock, 0 = unknown
	profiler    string  // the profiler's class name, "" = not given
	sampligRate bool    // the rate was spelt sampligRate
	scavenges   int
	fullGCs     int
	gcCounts    bool // totalScavenges and totalFullGCs were both given
	haveMeta    bool
}

// ErrUnknownSamplingRate is wrapped by the error Read returns for an export whose sampling
// rate nothing says: no metadata, or metadata without the rate, and no Options.SamplingRate.
// Guessing it would be guessing the size of the run (a 1/100 export read at rate 1 is a run
// 100 times smaller).
var ErrUnknownSamplingRate = errors.New("filip: sampling rate unknown")

// unknownRateError says which export's rate is unknown and why; it wraps ErrUnknownSamplingRate.
type unknownRateError struct{ csv, why string }

// Error formats `filip: run.csv: sampling rate unknown: no metadata run.json`.
func (e *unknownRateError) Error() string {
	return fmt.Sprintf("filip: %s: sampling rate unknown: %s", e.csv, e.why)
}

// Unwrap returns ErrUnknownSamplingRate.
func (e *unknownRateError) Unwrap() error { return ErrUnknownSamplingRate }

// NoMetadataError is the error Read returns for the export csvPath when its metadata
// jsonPath does not exist and no sampling rate was given (Options.SamplingRate), for a
// caller that finds so without reading the export (source.Fingerprint). It wraps
// ErrUnknownSamplingRate.
func NoMetadataError(csvPath, jsonPath string) error {
	return &unknownRateError{csv: csvPath, why: "no metadata " + jsonPath}
}

// maxMetaTime bounds totalExecutionTime: 10^18 bytes allocated (an exabyte) or microseconds
// (31,700 years). A larger value is not a run's.
const maxMetaTime = 1e18

// metaNumberKeys are the metadata's numeric keys gctune reads, in the order they are checked.
var metaNumberKeys = []string{"samplingRate", "sampligRate", "totalExecutionTime", "totalScavenges", "totalFullGCs"}

// readMeta decodes the JSON metadata. The sampling rate is a fraction (NeoJSON writes the
// default 1/100 as 0.01); under the key sampligRate, before 2024-03-07 (531b884), it was an
// integer percentage (100 = every allocation), so values above 1 there are percentages.
// Nothing is guessed: metadata that is null, a key gctune reads holding null, a number that is
// not finite or not a run's (a negative or fractional count, a time that is not positive) is
// refused with its key; no metadata, or none giving the rate, is refused unless
// r.opts.SamplingRate gives it.
func (r *filipReader) readMeta(in io.Reader) (filipRun, error) {
	run := filipRun{rate: 1, weight: 1}
	if in == nil {
		if r.opts.SamplingRate == 0 {
			return run, &unknownRateError{csv: r.name, why: "no metadata " + r.jsonName}
		}
		r.warnf("no metadata (%s): sampling rate %v as given; run length and GC counts unknown", r.jsonName, r.opts.SamplingRate)
		return run, r.setRate(&run, r.opts.SamplingRate, "the given sampling rate")
	}
	data, err := io.ReadAll(io.LimitReader(in, filipMaxMetaBytes+1))
	if err != nil {
		return run, fmt.Errorf("filip: %s: %w", r.jsonName, err)
	}
	if len(data) > filipMaxMetaBytes {
		return run, fmt.Errorf("filip: %s: metadata larger than %d MiB: not a FiLiP metadata file", r.jsonName, filipMaxMetaBytes>>20)
	}
	if err := checkDuplicateKeys(data); err != nil {
		return run, fmt.Errorf("filip: %s: invalid metadata JSON: %w", r.jsonName, err)
	}
	if err := r.checkMetaValues(data); err != nil {
		return run, err
	}
	var m filipMeta
	if err := json.Unmarshal(data, &m); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			if typeErr.Field == "" {
				return run, fmt.Errorf("filip: %s: invalid metadata JSON: a JSON %s, want an object: %w", r.jsonName, typeErr.Value, err)
			}
			return run, fmt.Errorf("filip: %s: invalid metadata JSON: %s is a JSON %s, want a number: %w", r.jsonName, typeErr.Field, typeErr.Value, err)
		}
		return run, fmt.Errorf("filip: %s: invalid metadata JSON: %w", r.jsonName, err)
	}
	run.haveMeta = true
	if err := r.metaRate(&run, m); err != nil {
		return run, err
	}
	if t := m.TotalExecutionTime; t != nil {
		if !(*t > 0 && *t <= maxMetaTime) {
			return run, fmt.Errorf("filip: %s: totalExecutionTime %v is not a run's length (want a positive number up to %g)", r.jsonName, *t, float64(maxMetaTime))
		}
		run.totalTime = *t
	}
	count := func(name string, v *float64) (int, bool, error) {
		if v == nil {
			return 0, false, nil
		}
		if *v < 0 || *v > math.MaxInt32 || *v != math.Trunc(*v) {
			return 0, false, fmt.Errorf("filip: %s: %s %v is not a count (want a whole number in [0, 2^31))", r.jsonName, name, *v)
		}
		return int(*v), true, nil
	}
	var okS, okF bool
	if run.scavenges, okS, err = count("totalScavenges", m.TotalScavenges); err != nil {
		return run, err
	}
	if run.fullGCs, okF, err = count("totalFullGCs", m.TotalFullGCs); err != nil {
		return run, err
	}
	run.gcCounts = okS && okF
	if len(m.Profiler) > 0 {
		var s string
		if json.Unmarshal(m.Profiler, &s) != nil {
			return run, fmt.Errorf("filip: %s: invalid metadata: profiler is %s, want the profiler's class name as a string", r.jsonName, shorten(m.Profiler, 60))
		}
		run.profiler = s
	}
	return run, nil
}

// checkMetaValues refuses metadata that is not an object, a key gctune reads that holds null,
// and a number too large for a float64 (JSON has no NaN nor infinity: 1e999 is its infinity),
// each naming the key. Malformed JSON passes: json.Unmarshal words its fault.
func (r *filipReader) checkMetaValues(data []byte) error {
	if !json.Valid(data) {
		return nil
	}
	if string(bytes.TrimSpace(data)) == "null" {
		return fmt.Errorf("filip: %s: the metadata is null, want an object (samplingRate, totalExecutionTime, ...)", r.jsonName)
	}
	var raw map[string]json.RawMessage
	if json.Unmarshal(data, &raw) != nil {
		return nil // not an object: decoding words it
	}
	for _, key := range append(metaNumberKeys, "profiler") {
		v, ok := raw[key]
		if !ok {
			continue
		}
		text := string(bytes.TrimSpace(v))
		if text == "null" {
			return fmt.Errorf("filip: %s: %s is null, want a value", r.jsonName, key)
		}
		if key == "profiler" || len(text) == 0 || (text[0] != '-' && (text[0] < '0' || text[0] > '9')) {
			continue
		}
		if f, err := strconv.ParseFloat(text, 64); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("filip: %s: %s %s is not a finite number", r.jsonName, key, shorten(v, 40))
		}
	}
	return nil
}

// metaRate sets the sampling rate and the records' weight from the metadata and the given rate
// (r.opts.SamplingRate, 0 when not given): when both say it, they must agree.
func (r *filipReader) metaRate(run *filipRun, m filipMeta) error {
	rate, key := m.SamplingRate, "samplingRate"
	switch {
	case rate != nil && m.SampligRate != nil:
		r.warnf("%s has both samplingRate and sampligRate: samplingRate taken", r.jsonName)
	case rate == nil && m.SampligRate != nil:
		rate, key, run.sampligRate = m.SampligRate, "sampligRate", true
	}
	given := r.opts.SamplingRate
	if rate == nil {
		if given == 0 {
			return &unknownRateError{csv: r.name, why: "its metadata " + r.jsonName + " has no samplingRate"}
		}
		r.warnf("%s has no samplingRate: %v as given", r.jsonName, given)
		return r.setRate(run, given, "the given sampling rate")
	}
	v := *rate
	switch {
	case v > 1 && v <= 100 && run.sampligRate:
		v /= 100 // an integer percentage, before 531b884
	case v <= 0 || v > 1 || math.IsNaN(v):
		if run.sampligRate {
			return fmt.Errorf("filip: %s: sampligRate %v is neither a fraction in (0, 1] nor a percentage in (1, 100]", r.jsonName, *rate)
		}
		return fmt.Errorf("filip: %s: samplingRate %v is not a fraction in (0, 1] (the exporter writes 1/100 as 0.01)", r.jsonName, *rate)
	case v == 1 && run.sampligRate:
		r.warnf("%s: sampligRate 1 read as every allocation (a fraction, as written from 2024-03-07); before, the rate was a percentage and 1 meant 1 %%", r.jsonName)
	}
	if given != 0 && math.Abs(given-v) > 1e-9*v {
		return fmt.Errorf("filip: %s: the given sampling rate %v contradicts the metadata's %s %v", r.jsonName, given, key, *rate)
	}
	if err := r.setRate(run, v, r.jsonName+": "+key+" "+strconv.FormatFloat(*rate, 'g', -1, 64)); err != nil {
		return err
	}
	if math.Abs(1/v-float64(run.weight)) > 0.01*float64(run.weight) {
		r.warnf("sampling rate %v is not 1/integer: records weigh %d", *rate, run.weight)
	}
	return nil
}

// setRate sets the rate v, in (0, 1], and the weight round(1/v); what names v in errors.
func (r *filipReader) setRate(run *filipRun, v float64, what string) error {
	if !(v > 0 && v <= 1) {
		return fmt.Errorf("filip: %s: %v is not a fraction in (0, 1]", what, v)
	}
	w := math.Round(1 / v)
	if w > math.MaxUint32 {
		return fmt.Errorf("filip: %s is too small (a record would stand for more than 2^32 objects)", what)
	}
	run.rate, run.weight = v, uint32(w)
	return nil
}

// checkDuplicateKeys fails on the first key that one object of a JSON document holds twice,
// naming it: encoding/json would silently keep the last value. A malformed document passes:
// json.Unmarshal words its fault better.
func checkDuplicateKeys(data []byte) error {
	key, found, err := jsonkeys.FirstDuplicate(bytes.NewReader(data))
	switch {
	case err != nil:
		return err
	case found:
		return fmt.Errorf("key %q appears twice", key)
	}
	return nil
}
