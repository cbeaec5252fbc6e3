package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
)

// Config is gctune's configuration: the repository's config.yaml documents every key and holds
// the built-in defaults (Default returns the same values). The command line fills it, lowest
// precedence first, from those defaults, the config file (--config FILE, else ./gctune.yaml
// when it exists; a ./config.yaml is read only when --config names it), GCTUNE_* environment
// variables (the key upper-cased with dots as underscores: GCTUNE_LIFETIMES_LONG_LIVED_THRESHOLD)
// and command-line flags bound to keys; the mapstructure tags are the keys.
//
// Adding a section: add a field with a mapstructure tag here, its defaults in Default, its
// keys (each commented) in config.yaml, its checks in Validate (calling the package's own
// validator where it has one), and its row in README.md. Byte sizes should be units.Bytes
// fields, which accept "64MiB", "64m" or a plain number.
type Config struct {
	// Workload configures how bundled workloads and specs are turned into a Profile.
	Workload WorkloadConfig `mapstructure:"workload" json:"workload"`
	// Lifetimes configures profile reading and lifetime analysis.
	Lifetimes LifetimesConfig `mapstructure:"lifetimes" json:"lifetimes"`
	// Simulate holds the GC parameters `gctune simulate` runs and the VM facts every
	// simulation uses.
	Simulate SimulateConfig `mapstructure:"simulate" json:"simulate"`
	// Storage is the study database: a SQLite file path, sqlite:///abs/path.db, or
	// postgres://user@host/db. Empty (the default): ./gctune.db when the working folder has
	// one, else gctune.db in the user's data folder (resolveStorage); loadConfig resolves it.
	// Also GCTUNE_STORAGE and --storage.
	Storage string `mapstructure:"storage" json:"storage"`
	// Cost is a cost model file written by `gctune calibrate -o` (empty: the built-in cost
	// model). Every command that simulates uses it; also GCTUNE_COST and --cost.
	Cost string `mapstructure:"cost" json:"cost"`
	// Search configures optimize and resume.
	Search SearchConfig `mapstructure:"search" json:"search"`
	// Uncertainty is the model of the user's later runs a new study judges configurations on
	// (package uncertainty).
	Uncertainty UncertaintyConfig `mapstructure:"uncertainty" json:"uncertainty"`
	// Provenance says where a configuration came from; `gctune export --format yaml` fills it.
	// It never changes what gctune does.
	Provenance ProvenanceConfig `mapstructure:"provenance" json:"provenance"`
}

// SimulateConfig is the `simulate` section: the five tunables in the VM's units, then the
// VM's fixed facts (see docs/simulator.md).
type SimulateConfig struct {
	// Tunables holds the five tunables by their keys in tunable.All (eden, headroom, shrink,
	// ratio, survivors_proportion), parsed: the configuration gives them as text (sizes with
	// units, numbers, "pharo" for Pharo's own survivors formula) and DecodeTunables parses
	// each one once, while decoding.
	Tunables Tunables `mapstructure:",remain" json:"tunables"`
	// StackPages is VM parameter 43.
	StackPages int `mapstructure:"stack_pages" json:"stack_pages"`
	// PageSize is the OS page size.
	PageSize units.Bytes `mapstructure:"page_size" json:"page_size"`
	// MaxOldSpace is VM parameter 67 (0 = unlimited).
	MaxOldSpace units.Bytes `mapstructure:"max_old_space" json:"max_old_space"`
	// ImageSize is the live data the image brings.
	ImageSize units.Bytes `mapstructure:"image_size" json:"image_size"`
	// Bug588 simulates VMs before pharo-vm PR #588.
	Bug588 bool `mapstructure:"bug588" json:"bug588"`
}

// SearchConfig is the `search` section.
type SearchConfig struct {
	// Trials is the number of finished trials a study should reach.
	Trials int `mapstructure:"trials" json:"trials"`
	// Workers is the number of trials evaluated at once; 0 = the number of cores.
	Workers int `mapstructure:"workers" json:"workers"`
	// Seed is the study seed, from which every worker's sampler seed derives.
	Seed uint64 `mapstructure:"seed" json:"seed"`
	// Sampler is tpe, tpe-independent, cmaes, random or goptuna-tpe.
	Sampler string `mapstructure:"sampler" json:"sampler"`
	// MaxFootprint is the memory budget (0 = none): a configuration whose peak footprint
	// exceeds it is infeasible.
	MaxFootprint units.Bytes `mapstructure:"max_footprint" json:"max_footprint"`
	// Aggregate combines several workloads: max or mean slowdown (text decoded by
	// DecodeValues).
	Aggregate objective.Aggregate `mapstructure:"aggregate" json:"aggregate"`
	// Tolerance is how much slower than the best trial the recommended configuration may be,
	// as a fraction in [0, 1): the recommendation is the smallest footprint within it, with
	// every change that costs less than it put back to the VM default (package recommend).
	Tolerance float64 `mapstructure:"tolerance" json:"tolerance"`
	// NoSeed and NoConstrain turn off the lifetime-informed seeds and constraints.
	NoSeed      bool `mapstructure:"no_seed" json:"no_seed"`
	NoConstrain bool `mapstructure:"no_constrain" json:"no_constrain"`
	// HeartbeatInterval and ReapTimeout: running trials beat every interval; a trial whose
	// last beat is older than the timeout belonged to a dead worker and is re-queued.
	HeartbeatInterval time.Duration `mapstructure:"heartbeat_interval" json:"heartbeat_interval"`
	ReapTimeout       time.Duration `mapstructure:"reap_timeout" json:"reap_timeout"`
	// Space bounds the five dimensions.
	Space SpaceConfig `mapstructure:"space" json:"space"`
}

// UncertaintyConfig is the `uncertainty` section: how the user's later runs differ from the
// profiled one (the uncertainty.Model itself, its keys its mapstructure tags), and how a
// configuration's replicas are reduced (docs/search.md "Robust answers"). A study stores it
// when it is created.
type UncertaintyConfig struct {
	// Off judges every configuration on the single simulation of the profile, as gctune did
	// before robust answers (--no-robust).
	Off bool `mapstructure:"off" json:"off"`
	// Model is the model of the user's runs: replicas (K, --replicas), search_replicas
	// (--search-replicas), start_phase, allocation_spread, phases, phase_spread, cost_sigma.
	uncertainty.Model `mapstructure:",squash"`
	// Statistic reduces a configuration's replicas: mean, max, or a percentile such as p90
	// (--statistic; text decoded by DecodeValues).
	Statistic uncertainty.Statistic `mapstructure:"statistic" json:"statistic"`
}

// Effective returns the uncertainty model a new study judges configurations on: the
// section's, or the zero Model (the single simulation) when Off.
func (u UncertaintyConfig) Effective() uncertainty.Model {
	if u.Off {
		return uncertainty.Model{}
	}
	return u.Model
}

// SpaceConfig is `search.space`: the bounds of each tunable, as the keys <key>_min and
// <key>_max of tunable.All (eden_min, ratio_max, ...). Sizes take units ("4MiB").
type SpaceConfig map[string]SpaceValue

// SpaceValue is a bound: a number, or a byte size with a unit ("64MiB", "1g").
type SpaceValue float64

// UnmarshalText reads a number, else a byte size.
func (b *SpaceValue) UnmarshalText(text []byte) error {
	s := strings.TrimSpace(string(text))
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		*b = SpaceValue(f)
		return nil
	}
	n, err := units.ParseBytes(s)
	if err != nil {
		return fmt.Errorf("want a number or a size such as 64MiB: %w", err)
	}
	*b = SpaceValue(n)
	return nil
}

// Space returns the search space.
func (c SpaceConfig) Space() tunable.Space {
	var s tunable.Space
	for _, t := range tunable.All() {
		*t.OfSpace(&s) = tunable.Bounds{Low: float64(c[t.Key+"_min"]), High: float64(c[t.Key+"_max"])}
	}
	return s
}

// SpaceConfigFrom writes a search space as the section.
func SpaceConfigFrom(s tunable.Space) SpaceConfig {
	c := SpaceConfig{}
	for _, t := range tunable.All() {
		b := t.Bounds(s)
		c[t.Key+"_min"], c[t.Key+"_max"] = SpaceValue(b.Low), SpaceValue(b.High)
	}
	return c
}

// ProvenanceConfig is the `provenance` section, informational only.
type ProvenanceConfig struct {
	Study            string  `mapstructure:"study" json:"study"`
	Trial            int     `mapstructure:"trial" json:"trial"`
	Workloads        string  `mapstructure:"workloads" json:"workloads"`
	PredictedSpeedup float64 `mapstructure:"predicted_speedup" json:"predicted_speedup"`
	PeakFootprint    string  `mapstructure:"peak_footprint" json:"peak_footprint"`
	GctuneVersion    string  `mapstructure:"gctune_version" json:"gctune_version"`
	// PredictedInterval says over how many perturbed runs the prediction holds, and within
	// what ("" for a single simulation).
	PredictedInterval string `mapstructure:"predicted_interval" json:"predicted_interval"`
}

// WorkloadConfig is the `workload` section.
type WorkloadConfig struct {
	// Seed seeds the generator of bundled workloads and specs. Any value; the same seed gives
	// the same profile bit for bit.
	Seed uint64 `mapstructure:"seed" json:"seed"`
	// Resolution is the generator's resolution (spec.GenerateOptions.Resolution). 0 means
	// the spec's own default.
	Resolution float64 `mapstructure:"resolution" json:"resolution"`
}

// LifetimesConfig is the `lifetimes` section.
type LifetimesConfig struct {
	// LongLivedThreshold is the lifetime, as a fraction of the run, from which an object is
	// long-lived. In (0, 1].
	LongLivedThreshold float64 `mapstructure:"long_lived_threshold" json:"long_lived_threshold"`
	// Clock is the clock of FiLiP timestamps: "auto", "bytes" or "us" (text decoded by
	// DecodeValues).
	Clock filip.Clock `mapstructure:"clock" json:"clock"`
	// SkipBadRows skips malformed FiLiP rows instead of failing on the first one.
	SkipBadRows bool `mapstructure:"skip_bad_rows" json:"skip_bad_rows"`
	// Rebuild is how a sampled FiLiP export on the bytes clock is rebuilt: "auto", "short",
	// "long", "stored" or "off" (text decoded by DecodeValues, with filip.ParseHypothesis).
	Rebuild filip.Hypothesis `mapstructure:"rebuild" json:"rebuild"`
	// HistogramBins is the number of lifetime histogram bins, in [2, 1000].
	HistogramBins int `mapstructure:"histogram_bins" json:"histogram_bins"`
}

// Default returns the built-in defaults: the values of the repository's config.yaml
// (cmd/gctune's TestDefaultConfigMatchesConfigYAML keeps the two equal).
func Default() Config {
	return Config{
		Workload: WorkloadConfig{Seed: 1, Resolution: 0},
		Lifetimes: LifetimesConfig{
			LongLivedThreshold: profile.DefaultLongLivedThreshold,
			Clock:              filip.ClockAuto,
			SkipBadRows:        false,
			Rebuild:            filip.HypothesisAuto,
			HistogramBins:      lifetimes.DefaultHistogramBins,
		},
		Simulate: simulateConfigFrom(heapsim.DefaultParams()),
		Storage:  "",
		Search: SearchConfig{
			Trials: 200, Workers: 0, Seed: 1, Sampler: search.DefaultSampler, Aggregate: objective.AggregateMax,
			Tolerance:         recommend.DefaultTolerance,
			HeartbeatInterval: 5 * time.Second, ReapTimeout: 30 * time.Second,
			Space: SpaceConfigFrom(tunable.DefaultSpace()),
		},
		Uncertainty: UncertaintyConfig{Model: uncertainty.Default(), Statistic: uncertainty.Statistic{}},
	}
}

// simulateConfigFrom writes heapsim parameters as a simulate section.
func simulateConfigFrom(p heapsim.Params) SimulateConfig {
	c := SimulateConfig{Tunables: Tunables{},
		StackPages: p.StackPages, PageSize: units.Bytes(p.PageBytes), MaxOldSpace: units.Bytes(p.MaxOldSpaceBytes),
		ImageSize: units.Bytes(p.ImageBytes), Bug588: p.Bug588,
	}
	for _, t := range tunable.All() {
		c.Tunables[t.Key] = t.ValueOf(p)
	}
	return c
}

// Params turns the simulate section into heapsim parameters: its tunables' values (already
// parsed) applied to the VM defaults, with its VM facts. The error is heapsim's refusal of a
// value out of range, naming the field, or a Tunables entry that is not a value of its key's
// tunable (a zero tunable.Value, say: a programming error).
func (s SimulateConfig) Params() (heapsim.Params, error) {
	p := heapsim.DefaultParams()
	for _, t := range tunable.All() {
		v, ok := s.Tunables[t.Key]
		if !ok {
			continue
		}
		if vt, ok := v.Tunable(); !ok || vt.Name != t.Name {
			return p, fmt.Errorf("config: simulate.%s: not a value of %s (%q)", t.Key, t.Name, v.String())
		}
		v.Apply(&p)
	}
	p.StackPages = s.StackPages
	p.PageBytes = uint64(s.PageSize)
	p.MaxOldSpaceBytes = uint64(s.MaxOldSpace)
	p.ImageBytes = uint64(s.ImageSize)
	p.Bug588 = s.Bug588
	if err := p.Validate(); err != nil {
		return p, fmt.Errorf("config: simulate: %w", err)
	}
	return p, nil
}

// VMFacts returns the default parameters with this section's VM facts (stack pages, page
// size, maximum old space, image size, bug588): the baseline every speedup is measured against.
func (s SimulateConfig) VMFacts() heapsim.Params {
	p := heapsim.DefaultParams()
	p.StackPages = s.StackPages
	p.PageBytes = uint64(s.PageSize)
	p.MaxOldSpaceBytes = uint64(s.MaxOldSpace)
	p.ImageBytes = uint64(s.ImageSize)
	p.Bug588 = s.Bug588
	return p
}

// tunableWant is a tunable's parse error for people: a size's from "bad size" on, as the
// command line words it for typed keys.
func tunableWant(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "bad size"); i >= 0 {
		return msg[i:]
	}
	return msg
}

// ShowValue writes a configuration value as the user wrote it: strings quoted, lists and
// maps in Go's notation, long ones cut.
func ShowValue(raw any) string {
	var s string
	if str, ok := raw.(string); ok {
		s = fmt.Sprintf("%q", str)
	} else {
		s = fmt.Sprintf("%v", raw)
	}
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}
