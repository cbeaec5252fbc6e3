package lifetimes

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// filipMeta is the JSON metadata file. Numbers are float64 because Pharo may write 12 or 12.0.
type filipMeta struct {
	TotalExecutionTime *float64        `json:"totalExecutionTime"` // µs
	TotalFullGCs       *float64        `json:"totalFullGCs"`
	TotalScavenges     *float64        `json:"totalScavenges"`
	SamplingRate       *float64        `json:"samplingRate"`
	SampligRate        *float64        `json:"sampligRate"` // early versions' spelling
	Profiler           json.RawMessage `json:"profiler"`
}

// filipRun is what finish needs from the metadata.
type filipRun struct {
	rate       float64 // sampling rate as a fraction in (0, 1]
	weight     uint32  // round(1/rate)
	runMicros  float64 // totalExecutionTime, 0 = unknown
	profiler   string
	scavenges  int
	fullGCs    int
	haveMeta   bool
	versionMaj int // Illimani version from the profiler string, -1 = unknown
	versionMin int
}

// readMeta decodes the JSON metadata. The sampling rate may be a fraction (0.01) or a percentage
// (1, 100): values above 1 are percentages, so 1 means every allocation.
func (r *filipReader) readMeta(in io.Reader) (filipRun, error) {
	run := filipRun{rate: 1, weight: 1, versionMaj: -1}
	if in == nil {
		r.warnf("no metadata (%s): sampling rate 1 assumed, run length and GC counts unknown", r.jsonName)
		return run, nil
	}
	data, err := io.ReadAll(io.LimitReader(in, 64<<20))
	if err != nil {
		return run, fmt.Errorf("lifetimes: %s: %w", r.jsonName, err)
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
	rate := m.SamplingRate
	if rate == nil {
		rate = m.SampligRate
	}
	switch {
	case rate == nil:
		r.warnf("%s has no samplingRate: 1 assumed (every allocation recorded)", r.jsonName)
	case *rate <= 0 || *rate > 100:
		return run, fmt.Errorf("lifetimes: %s: sampling rate %v is not a fraction in (0, 1] nor a percentage in (1, 100]", r.jsonName, *rate)
	default:
		run.rate = *rate
		if run.rate > 1 {
			run.rate /= 100
		}
		w := math.Round(1 / run.rate)
		if w > math.MaxUint32 {
			return run, fmt.Errorf("lifetimes: %s: sampling rate %v is too small (a record would stand for more than 2^32 objects)", r.jsonName, *rate)
		}
		run.weight = uint32(w)
		if math.Abs(1/run.rate-w) > 0.01*w {
			r.warnf("sampling rate %v is not 1/integer: records weigh %d", *rate, run.weight)
		}
	}
	if t := m.TotalExecutionTime; t != nil {
		if *t > 0 {
			run.runMicros = *t
		} else {
			r.warnf("%s: totalExecutionTime %v ignored: not positive", r.jsonName, *t)
		}
	}
	count := func(name string, v *float64) int {
		if v == nil {
			return 0
		}
		if *v < 0 || *v > math.MaxInt32 || *v != math.Trunc(*v) {
			r.warnf("%s: %s %v ignored: not a count", r.jsonName, name, *v)
			return 0
		}
		return int(*v)
	}
	run.scavenges = count("totalScavenges", m.TotalScavenges)
	run.fullGCs = count("totalFullGCs", m.TotalFullGCs)
	if len(m.Profiler) > 0 && string(m.Profiler) != "null" {
		var s string
		if json.Unmarshal(m.Profiler, &s) != nil {
			s = string(m.Profiler)
		}
		run.profiler = s
		run.versionMaj, run.versionMin = illimaniVersion(s)
	}
	return run, nil
}

// illimaniVersion extracts major.minor from a profiler string such as "Illimani v1.2.0" or
// "1.3". It returns -1, -1 when the string names another profiler (FiLiP's versions do not
// tell its clock) or holds no version.
func illimaniVersion(s string) (major, minor int) {
	low := strings.ToLower(s)
	i := strings.IndexFunc(low, func(c rune) bool { return c >= '0' && c <= '9' })
	if i < 0 {
		return -1, -1
	}
	name := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(low[:i]), "v"))
	if name != "" && !strings.Contains(name, "illimani") {
		return -1, -1
	}
	rest := low[i:]
	num := func() (int, bool) {
		j := 0
		for j < len(rest) && j < 6 && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(rest[:j])
		rest = rest[j:]
		return n, err == nil
	}
	major, ok := num()
	if !ok || len(rest) < 2 || rest[0] != '.' {
		return -1, -1
	}
	rest = rest[1:]
	minor, ok = num()
	if !ok {
		return -1, -1
	}
	return major, minor
}
