package lifetimes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

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

// readMeta decodes the JSON metadata. The sampling rate is a fraction (NeoJSON writes the
// default 1/100 as 0.01); under the key sampligRate, before 2024-03-07 (531b884), it was an
// integer percentage (100 = every allocation), so values above 1 there are percentages.
func (r *filipReader) readMeta(in io.Reader) (filipRun, error) {
	run := filipRun{rate: 1, weight: 1}
	if in == nil {
		r.warnf("no metadata (%s): sampling rate 1 assumed, run length and GC counts unknown", r.jsonName)
		return run, nil
	}
	data, err := io.ReadAll(io.LimitReader(in, filipMaxMetaBytes+1))
	if err != nil {
		return run, fmt.Errorf("lifetimes: %s: %w", r.jsonName, err)
	}
	if len(data) > filipMaxMetaBytes {
		return run, fmt.Errorf("lifetimes: %s: metadata larger than %d MiB: not a FiLiP metadata file", r.jsonName, filipMaxMetaBytes>>20)
	}
	if err := checkDuplicateKeys(data); err != nil {
		return run, fmt.Errorf("lifetimes: %s: invalid metadata JSON: %w", r.jsonName, err)
	}
	var m filipMeta
	if err := json.Unmarshal(data, &m); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			if typeErr.Field == "" {
				return run, fmt.Errorf("lifetimes: %s: invalid metadata JSON: a JSON %s, want an object: %w", r.jsonName, typeErr.Value, err)
			}
			return run, fmt.Errorf("lifetimes: %s: invalid metadata JSON: %s is a JSON %s, want a number: %w", r.jsonName, typeErr.Field, typeErr.Value, err)
		}
		return run, fmt.Errorf("lifetimes: %s: invalid metadata JSON: %w", r.jsonName, err)
	}
	run.haveMeta = true
	if err := r.metaRate(&run, m); err != nil {
		return run, err
	}
	if t := m.TotalExecutionTime; t != nil {
		if *t > 0 {
			run.totalTime = *t
		} else {
			r.warnf("%s: totalExecutionTime %v ignored: not positive", r.jsonName, *t)
		}
	}
	count := func(name string, v *float64) (int, bool) {
		if v == nil {
			return 0, false
		}
		if *v < 0 || *v > math.MaxInt32 || *v != math.Trunc(*v) {
			r.warnf("%s: %s %v ignored: not a count", r.jsonName, name, *v)
			return 0, false
		}
		return int(*v), true
	}
	var okS, okF bool
	run.scavenges, okS = count("totalScavenges", m.TotalScavenges)
	run.fullGCs, okF = count("totalFullGCs", m.TotalFullGCs)
	run.gcCounts = okS && okF
	if len(m.Profiler) > 0 && string(m.Profiler) != "null" {
		var s string
		if json.Unmarshal(m.Profiler, &s) != nil {
			return run, fmt.Errorf("lifetimes: %s: invalid metadata: profiler is %s, want the profiler's class name as a string", r.jsonName, shorten(m.Profiler, 60))
		}
		run.profiler = s
	}
	return run, nil
}

// metaRate sets the sampling rate and the records' weight from the metadata.
func (r *filipReader) metaRate(run *filipRun, m filipMeta) error {
	rate, key := m.SamplingRate, "samplingRate"
	switch {
	case rate != nil && m.SampligRate != nil:
		r.warnf("%s has both samplingRate and sampligRate: samplingRate taken", r.jsonName)
	case rate == nil && m.SampligRate != nil:
		rate, key, run.sampligRate = m.SampligRate, "sampligRate", true
	}
	if rate == nil {
		r.warnf("%s has no samplingRate: 1 assumed (every allocation recorded)", r.jsonName)
		return nil
	}
	v := *rate
	switch {
	case v > 1 && v <= 100 && run.sampligRate:
		v /= 100 // an integer percentage, before 531b884
	case v <= 0 || v > 1 || math.IsNaN(v):
		if run.sampligRate {
			return fmt.Errorf("lifetimes: %s: sampligRate %v is neither a fraction in (0, 1] nor a percentage in (1, 100]", r.jsonName, *rate)
		}
		return fmt.Errorf("lifetimes: %s: samplingRate %v is not a fraction in (0, 1] (the exporter writes 1/100 as 0.01)", r.jsonName, *rate)
	case v == 1 && run.sampligRate:
		r.warnf("%s: sampligRate 1 read as every allocation (a fraction, as written from 2024-03-07); before, the rate was a percentage and 1 meant 1 %%", r.jsonName)
	}
	run.rate = v
	w := math.Round(1 / v)
	if w > math.MaxUint32 {
		return fmt.Errorf("lifetimes: %s: %s %v is too small (a record would stand for more than 2^32 objects)", r.jsonName, key, *rate)
	}
	run.weight = uint32(w)
	if math.Abs(1/v-w) > 0.01*w {
		r.warnf("sampling rate %v is not 1/integer: records weigh %d", *rate, run.weight)
	}
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
