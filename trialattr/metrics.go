package trialattr

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"github.com/c-bata/goptuna"
)

// Metrics are a trial's user attributes decoded once, typed: what every reader of a study
// (recommend, export, report, cmd/gctune) asks of a trial, so that no reader parses the
// strings again.
type Metrics struct {
	// Feasible is false on a trial marked infeasible (Feasible "false"); a trial without the
	// attribute is feasible.
	Feasible bool
	// Infeasibility says which constraint an infeasible trial broke.
	Infeasibility string
	// HasFootprint says PeakFootprintBytes was stored and parsed.
	HasFootprint       bool
	PeakFootprintBytes uint64
	// TotalSeconds, GCSeconds and GCShare are the search's measure of the trial (its
	// value's runs); NaN when not stored.
	TotalSeconds, GCSeconds, GCShare float64
	Scavenges, FullGCs               float64
	TenuredBytes                     float64
	// Slowdowns are the trial's slowdown on each workload, nil when not stored or not all
	// positive numbers.
	Slowdowns []float64
}

// MetricsOf decodes a trial's user attributes. A number that is absent or does not parse is
// NaN (HasFootprint false for the footprint).
func MetricsOf(attrs map[string]string) Metrics {
	num := func(key string) float64 {
		v, err := strconv.ParseFloat(attrs[key], 64)
		if err != nil {
			return math.NaN()
		}
		return v
	}
	m := Metrics{Feasible: attrs[Feasible] != "false", Infeasibility: attrs[Infeasibility],
		TotalSeconds: num(TotalSeconds), GCSeconds: num(GCSeconds), GCShare: num(GCShare),
		Scavenges: num(Scavenges), FullGCs: num(FullGCs), TenuredBytes: num(TenuredBytes)}
	if fp, err := strconv.ParseFloat(attrs[Footprint], 64); err == nil && fp >= 0 && fp < math.MaxUint64 {
		m.HasFootprint, m.PeakFootprintBytes = true, uint64(fp)
	}
	var slow []float64
	if err := json.Unmarshal([]byte(attrs[Slowdowns]), &slow); err == nil && len(slow) > 0 && !slices.ContainsFunc(slow, func(v float64) bool { return !ValidValue(v) }) {
		m.Slowdowns = slow
	}
	return m
}

// TrialMetrics is MetricsOf(t.UserAttrs).
func TrialMetrics(t goptuna.FrozenTrial) Metrics { return MetricsOf(t.UserAttrs) }
