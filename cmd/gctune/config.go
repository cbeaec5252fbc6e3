package main

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/infile"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/uncertainty"
	"github.com/gctune/gctune/verify"
)

// Config is gctune's configuration: the repository's config.yaml documents every key and holds
// the built-in defaults (defaultConfig returns the same values). Values come, lowest precedence
// first, from those defaults, the config file (--config FILE, else ./gctune.yaml when it
// exists; a ./config.yaml is read only when --config names it), GCTUNE_* environment
// variables (the key upper-cased with dots as underscores: GCTUNE_LIFETIMES_LONG_LIVED_THRESHOLD)
// and command-line flags bound to keys.
//
// Adding a section: add a field with a mapstructure tag here, its defaults in defaultConfig,
// its keys (each commented) in config.yaml, its checks in Validate, and its row in README.md.
// Byte sizes should be units.Bytes fields, which accept "64MiB", "64m" or a plain number.
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

	// given is what the command line says of the FiLiP exports it opens (--rate, --meta):
	// not configuration, so no key; loadConfig fills it.
	given givenInput
}

// SimulateConfig is the `simulate` section: the five tunables in the VM's units, then the
// VM's fixed facts (see docs/simulator.md).
type SimulateConfig struct {
	// Tunables holds the five tunables by their keys in search.Tunables (eden, headroom, shrink,
	// ratio, survivors_proportion), as text: sizes with units, numbers, "pharo" for Pharo's own
	// survivors formula (search.Tunable.Text and ParseText).
	Tunables map[string]any `mapstructure:",remain" json:"tunables"`
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
	// Aggregate combines several workloads: max or mean slowdown.
	Aggregate string `mapstructure:"aggregate" json:"aggregate"`
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
// profiled one, and how a configuration's replicas are reduced (docs/search.md "Robust
// answers"). A study stores it when it is created.
type UncertaintyConfig struct {
	// Off judges every configuration on the single simulation of the profile, as gctune did
	// before robust answers (--no-robust).
	Off bool `mapstructure:"off" json:"off"`
	// Replicas is K, the perturbed runs a recommendation is judged and stated on (--replicas).
	Replicas int `mapstructure:"replicas" json:"replicas"`
	// SearchReplicas is how many of them each search trial runs; 0 = the single simulation
	// (--search-replicas).
	SearchReplicas int `mapstructure:"search_replicas" json:"search_replicas"`
	// StartPhase starts each replica at a uniform point of its eden cycle.
	StartPhase bool `mapstructure:"start_phase" json:"start_phase"`
	// AllocationSpread scales each replica's objects by U[1 − a, 1 + a].
	AllocationSpread float64 `mapstructure:"allocation_spread" json:"allocation_spread"`
	// Phases and PhaseSpread: young garbage of up to PhaseSpread of a phase's bytes before each
	// phase but the first.
	Phases      int     `mapstructure:"phases" json:"phases"`
	PhaseSpread float64 `mapstructure:"phase_spread" json:"phase_spread"`
	// CostSigma is the log-normal spread of each cost group's factor.
	CostSigma float64 `mapstructure:"cost_sigma" json:"cost_sigma"`
	// Statistic reduces a configuration's replicas: mean, max, or a percentile such as p90
	// (--statistic).
	Statistic string `mapstructure:"statistic" json:"statistic"`
}

// uncertaintyConfigFrom writes a model as the section.
func uncertaintyConfigFrom(m uncertainty.Model) UncertaintyConfig {
	return UncertaintyConfig{Replicas: m.Replicas, SearchReplicas: m.SearchReplicas, StartPhase: m.StartPhase,
		AllocationSpread: m.AllocationSpread, Phases: m.Phases, PhaseSpread: m.PhaseSpread, CostSigma: m.CostSigma,
		Statistic: uncertainty.Statistic{}.String()}
}

// Model returns the uncertainty model the section describes (the zero Model when Off).
func (u UncertaintyConfig) Model() uncertainty.Model {
	if u.Off {
		return uncertainty.Model{}
	}
	return uncertainty.Model{Replicas: u.Replicas, SearchReplicas: u.SearchReplicas, StartPhase: u.StartPhase,
		AllocationSpread: u.AllocationSpread, Phases: u.Phases, PhaseSpread: u.PhaseSpread, CostSigma: u.CostSigma}
}

// SpaceConfig is `search.space`: the bounds of each tunable, as the keys <key>_min and
// <key>_max of search.Tunables (eden_min, ratio_max, ...). Sizes take units ("4MiB").
type SpaceConfig map[string]spaceValue

// spaceValue is a bound: a number, or a byte size with a unit ("64MiB", "1g").
type spaceValue float64

// UnmarshalText reads a number, else a byte size.
func (b *spaceValue) UnmarshalText(text []byte) error {
	s := strings.TrimSpace(string(text))
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		*b = spaceValue(f)
		return nil
	}
	n, err := units.ParseBytes(s)
	if err != nil {
		return fmt.Errorf("want a number or a size such as 64MiB: %w", err)
	}
	*b = spaceValue(n)
	return nil
}

// Space returns the search space.
func (c SpaceConfig) Space() search.Space {
	var s search.Space
	for _, t := range search.Tunables() {
		*t.OfSpace(&s) = search.Bounds{Low: float64(c[t.Key+"_min"]), High: float64(c[t.Key+"_max"])}
	}
	return s
}

func spaceConfigFrom(s search.Space) SpaceConfig {
	c := SpaceConfig{}
	for _, t := range search.Tunables() {
		b := t.Bounds(s)
		c[t.Key+"_min"], c[t.Key+"_max"] = spaceValue(b.Low), spaceValue(b.High)
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
	// Clock is the clock of FiLiP timestamps: "auto", "bytes" or "us".
	Clock string `mapstructure:"clock" json:"clock"`
	// SkipBadRows skips malformed FiLiP rows instead of failing on the first one.
	SkipBadRows bool `mapstructure:"skip_bad_rows" json:"skip_bad_rows"`
	// Rebuild is how a sampled FiLiP export on the bytes clock is rebuilt: "auto", "short",
	// "long", "stored" or "off" (filip.ParseHypothesis).
	Rebuild string `mapstructure:"rebuild" json:"rebuild"`
	// HistogramBins is the number of lifetime histogram bins, in [2, 1000].
	HistogramBins int `mapstructure:"histogram_bins" json:"histogram_bins"`
}

// defaultConfig returns the built-in defaults: the values of the repository's config.yaml
// (TestDefaultConfigMatchesConfigYAML keeps the two equal).
func defaultConfig() Config {
	return Config{
		Workload: WorkloadConfig{Seed: 1, Resolution: 0},
		Lifetimes: LifetimesConfig{
			LongLivedThreshold: profile.DefaultLongLivedThreshold,
			Clock:              "auto",
			SkipBadRows:        false,
			Rebuild:            "auto",
			HistogramBins:      lifetimes.DefaultHistogramBins,
		},
		Simulate: simulateConfigFrom(heapsim.DefaultParams()),
		Storage:  "",
		Search: SearchConfig{
			Trials: 200, Workers: 0, Seed: 1, Sampler: search.DefaultSampler, Aggregate: "max",
			Tolerance:         recommend.DefaultTolerance,
			HeartbeatInterval: 5 * time.Second, ReapTimeout: 30 * time.Second,
			Space: spaceConfigFrom(search.DefaultSpace()),
		},
		Uncertainty: uncertaintyConfigFrom(uncertainty.Default()),
	}
}

// simulateConfigFrom writes heapsim parameters as a simulate section.
func simulateConfigFrom(p heapsim.Params) SimulateConfig {
	c := SimulateConfig{Tunables: map[string]any{},
		StackPages: p.StackPages, PageSize: units.Bytes(p.PageBytes), MaxOldSpace: units.Bytes(p.MaxOldSpaceBytes),
		ImageSize: units.Bytes(p.ImageBytes), Bug588: p.Bug588,
	}
	for _, t := range search.Tunables() {
		if t.Unit == search.UnitRatio {
			c.Tunables[t.Key] = t.FromParams(p) // a YAML number, as config.yaml writes it
		} else {
			c.Tunables[t.Key] = t.Text(p)
		}
	}
	return c
}

// Params turns the simulate section into heapsim parameters.
func (s SimulateConfig) Params() (heapsim.Params, error) {
	p := heapsim.DefaultParams()
	for _, t := range search.Tunables() {
		raw, ok := s.Tunables[t.Key]
		if !ok {
			continue
		}
		if err := t.ParseText(&p, configText(raw)); err != nil {
			return p, fmt.Errorf("config: simulate.%s = %s: %s", t.Key, showValue(raw), tunableWant(err))
		}
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

// openOptions are the options a command opens a profile by reference with: the workload
// section's seed and resolution, the lifetimes section's clock, bad-row handling and rebuild
// mode. A bad clock is a usage error (Validate has checked it).
func (c Config) openOptions() (source.Options, error) {
	clock, err := filip.ParseClock(c.Lifetimes.Clock)
	if err != nil {
		return source.Options{}, asUsage(err)
	}
	return source.Options{Seed: c.Workload.Seed, Resolution: c.Workload.Resolution,
		Clock: clock, SkipBadRows: c.Lifetimes.SkipBadRows, Rebuild: rebuildMode(c),
		FiLiPJSONPath: c.given.meta, SamplingRate: c.given.rate}, nil
}

// Validate checks every field, returning an error that names the first bad key and its value.
func (c Config) Validate() error {
	bad := func(key string, value any, why string) error {
		return fmt.Errorf("config: %s = %v: %s", key, value, why)
	}
	if r := c.Workload.Resolution; math.IsNaN(r) || r < 0 || r > 1 {
		return bad("workload.resolution", r, "must be in (0, 1], records per object, or 0 for the spec's own")
	}
	if t := c.Lifetimes.LongLivedThreshold; math.IsNaN(t) || t <= 0 || t > 1 {
		return bad("lifetimes.long_lived_threshold", t, "must be in (0, 1], a fraction of the run")
	}
	// An empty value is no mode: ParseHypothesis takes "" as auto only for studies stored
	// before the key existed.
	if _, err := filip.ParseHypothesis(c.Lifetimes.Rebuild); err != nil || strings.TrimSpace(c.Lifetimes.Rebuild) == "" {
		return bad("lifetimes.rebuild", fmt.Sprintf("%q", c.Lifetimes.Rebuild), "must be "+orList(enumFlagValues()["rebuild"]))
	}
	if _, err := filip.ParseClock(c.Lifetimes.Clock); err != nil {
		return bad("lifetimes.clock", fmt.Sprintf("%q", c.Lifetimes.Clock), "must be auto, bytes or us")
	}
	if b := c.Lifetimes.HistogramBins; b < 2 || b > 1000 {
		return bad("lifetimes.histogram_bins", b, "must be in [2, 1000]")
	}
	if _, err := c.Simulate.Params(); err != nil {
		return err
	}
	sc := c.Search
	switch {
	case sc.Trials < 1:
		return bad("search.trials", sc.Trials, "must be at least 1")
	case sc.Workers < 0:
		return bad("search.workers", sc.Workers, "must be ≥ 0 (0 = the number of cores)")
	case sc.HeartbeatInterval <= 0:
		return bad("search.heartbeat_interval", sc.HeartbeatInterval, "must be positive")
	case sc.ReapTimeout <= sc.HeartbeatInterval:
		return bad("search.reap_timeout", sc.ReapTimeout, "must be longer than search.heartbeat_interval")
	}
	if _, err := objective.ParseAggregate(sc.Aggregate); err != nil {
		return bad("search.aggregate", fmt.Sprintf("%q", sc.Aggregate), "must be max or mean")
	}
	if recommend.ValidateTolerance(sc.Tolerance) != nil {
		return bad("search.tolerance", sc.Tolerance, "must be a fraction in [0, 1) (0.01 = 1 %)")
	}
	if !slices.Contains(search.Samplers(), sc.Sampler) {
		return bad("search.sampler", fmt.Sprintf("%q", sc.Sampler), "must be one of "+strings.Join(search.Samplers(), ", "))
	}
	if err := sc.Space.Space().Validate(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	u := c.Uncertainty
	if _, err := uncertainty.ParseStatistic(u.Statistic); err != nil {
		return bad("uncertainty.statistic", fmt.Sprintf("%q", u.Statistic), "must be mean, max, or a percentile such as p90")
	}
	if err := u.Model().Validate(); err != nil {
		return fmt.Errorf("config: uncertainty: %w", err)
	}
	return nil
}

// configKeyAnnotation marks a flag as setting a config key (see bindFlag).
const configKeyAnnotation = "gctune/config-key"

// bindFlag declares that cmd's flag name sets the config key (for example
// "lifetimes.long_lived_threshold"). loadConfig binds the flags of the command that runs, so
// commands can share a key without one's flag shadowing another's.
func bindFlag(cmd *cobra.Command, name, key string) {
	f := cmd.Flags().Lookup(name)
	if f == nil {
		panic(fmt.Sprintf("gctune: bindFlag: command %q has no flag --%s", cmd.Name(), name))
	}
	if f.Annotations == nil {
		f.Annotations = map[string][]string{}
	}
	f.Annotations[configKeyAnnotation] = []string{key}
}

// loadConfig reads the configuration for cmd (see Config for the sources and their
// precedence), decodes it strictly (a key in the file that Config does not have is an error
// naming it) and validates it. configFile is --config; empty means ./gctune.yaml if it exists,
// else the built-in defaults (a ./config.yaml is never read unless --config names it: it may
// belong to another program). Errors in the configuration itself are usage errors (exit code 2).
func loadConfig(cmd *cobra.Command, configFile string) (Config, error) {
	v := viper.New()
	defaults := defaultConfig()
	known := map[string]bool{}
	setDefaults(v, "", reflect.ValueOf(defaults), known)

	v.SetConfigType("yaml")
	source, err := configSource(configFile)
	if err != nil {
		return Config{}, err
	}
	if source != "" {
		data, err := infile.ReadAll(cmd.Context(), source, maxConfigBytes, "config file")
		if ie := interruptedInput(err); ie != nil {
			return Config{}, ie
		}
		if errors.Is(err, infile.ErrTooLarge) {
			return Config{}, usageErrorf("config %s: larger than the %d MiB a config file may have", source, maxConfigBytes>>20)
		}
		if err != nil {
			return Config{}, usageErrorf("config %s: %w", source, err)
		}
		if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
			return Config{}, usageErrorf("config %s: %w", source, err)
		}
	}
	// Keys in the file that Config lacks. (Section names themselves are known keys only as
	// prefixes: a section written as a scalar fails in decoding below, with its name.)
	var unknown []string
	for _, k := range v.AllKeys() {
		if !known[k] && !isSection(k, known) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return Config{}, usageErrorf("config %s: unknown key %s", source, quoteJoin(unknown))
	}

	// GCTUNE_* variables that name no key are refused like unknown keys in the file: a typo
	// would otherwise be silently ignored.
	// The variables gctune verify gives the application it runs are not configuration: a
	// command under verify may itself run gctune.
	envNames := map[string]bool{}
	for k := range known {
		envNames[envName(k)] = true
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, envPrefix+"_") && !envNames[name] && !verify.IsRunEnv(name) {
			return Config{}, usageErrorf("config: unknown environment variable %s (known: %s)", name, strings.Join(similarEnvNames(name, envNames), ", "))
		}
	}
	v.SetEnvPrefix(envPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()

	var bindErr error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if keys := f.Annotations[configKeyAnnotation]; len(keys) == 1 && bindErr == nil {
			bindErr = v.BindPFlag(keys[0], f)
		}
	})
	if bindErr != nil {
		return Config{}, fmt.Errorf("config: %w", bindErr)
	}

	var cfg Config
	if err := v.UnmarshalExact(&cfg, decodeHook()); err != nil {
		if bad := badValue(cmd, v, source); bad != nil {
			return Config{}, bad
		}
		if source == "" {
			source = "(defaults, environment and flags)"
		}
		if mentionsStorage(err.Error(), v.Get(storageKey)) {
			return Config{}, usageErrorf("config %s: %s: cannot use this value (not shown: it may hold a password)", source, storageKey)
		}
		return Config{}, usageErrorf("config %s: %w", source, err)
	}
	// The tunables of the simulate section are text until parsed: a bad one is refused here
	// with where it came from, as badValue does for typed keys.
	for _, t := range search.Tunables() {
		raw, ok := cfg.Simulate.Tunables[t.Key]
		if !ok {
			continue
		}
		p := heapsim.DefaultParams()
		if err := t.ParseText(&p, configText(raw)); err != nil {
			key := "simulate." + t.Key
			return Config{}, usageErrorf("config: %s = %s (%s): %s", key, showValue(raw), valueOrigin(cmd, key, source), tunableWant(err))
		}
	}
	if f := cmd.Flags().Lookup("no-rebuild"); f != nil && f.Changed && f.Value.String() == "true" {
		cfg.Lifetimes.Rebuild = filip.HypothesisOff.String()
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, &UsageError{Err: err}
	}
	if cfg.given, err = readGivenInput(cmd); err != nil {
		return Config{}, err
	}
	cfg.Storage = resolveStorage(cfg.Storage)
	return cfg, nil
}

// decodeHook converts strings while decoding: into any encoding.TextUnmarshaler (so
// units.Bytes fields accept "64MiB") and into time.Duration ("90s").
func decodeHook() viper.DecoderConfigOption {
	return viper.DecodeHook(decodeHookFunc())
}

// decodeHookFunc is decodeHook's conversion, for decoding one value (badValue).
func decodeHookFunc() mapstructure.DecodeHookFunc {
	return mapstructure.ComposeDecodeHookFunc(
		mapstructure.TextUnmarshallerHookFunc(),
		mapstructure.StringToTimeDurationHookFunc(),
	)
}

// setDefaults registers every leaf of the Config value rv (walking its mapstructure tags) as a
// viper default, and records its key in known. Defaults matter twice: they are the lowest
// layer, and viper only looks up environment variables for keys it knows.
func setDefaults(v *viper.Viper, prefix string, rv reflect.Value, known map[string]bool) {
	t := rv.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
		if f.Type.Kind() == reflect.Map && tag == "" { // ",remain": keys the defaults list (SimulateConfig.Tunables)
			iter := rv.Field(i).MapRange()
			for iter.Next() {
				k := prefix + iter.Key().String()
				v.SetDefault(k, iter.Value().Interface())
				known[k] = true
			}
			continue
		}
		if tag == "" || tag == "-" {
			continue
		}
		key := prefix + tag
		if f.Type.Kind() == reflect.Struct {
			setDefaults(v, key+".", rv.Field(i), known)
			continue
		}
		if f.Type.Kind() == reflect.Map { // a section whose keys the defaults list (SpaceConfig)
			iter := rv.Field(i).MapRange()
			for iter.Next() {
				k := key + "." + iter.Key().String()
				v.SetDefault(k, iter.Value().Interface())
				known[k] = true
			}
			continue
		}
		v.SetDefault(key, rv.Field(i).Interface())
		known[key] = true
	}
}

// envPrefix starts the environment variables that set config keys.
const envPrefix = "GCTUNE"

// envName is the environment variable that sets key: GCTUNE_ and the key in upper case, dots
// as underscores ("lifetimes.clock" → GCTUNE_LIFETIMES_CLOCK).
func envName(key string) string {
	return envPrefix + "_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// similarEnvNames lists the known variables of the section name seems to belong to
// (GCTUNE_LIFETIMES_* for GCTUNE_LIFETIMES_THRESHOLD), or all of them when none matches.
func similarEnvNames(name string, known map[string]bool) []string {
	all := slices.Sorted(maps.Keys(known))
	var same []string
	for _, k := range all {
		section, _, _ := strings.Cut(strings.TrimPrefix(k, envPrefix+"_"), "_")
		if strings.HasPrefix(name, envPrefix+"_"+section+"_") || name == envPrefix+"_"+section {
			same = append(same, k)
		}
	}
	if len(same) == 0 {
		return all
	}
	return same
}

// isSection reports whether key is a section (a prefix of known keys) rather than a leaf.
func isSection(key string, known map[string]bool) bool {
	for k := range known {
		if strings.HasPrefix(k, key+".") {
			return true
		}
	}
	return false
}

func quoteJoin(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = fmt.Sprintf("%q", k)
	}
	return strings.Join(q, ", ")
}

// configText is a configuration value as text: a string as it is, a number in plain decimal
// (a YAML 16777216 or 1.6e7 is "16777216").
func configText(raw any) string {
	switch v := raw.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(v), 'f', -1, 32)
	}
	return fmt.Sprint(raw)
}

// tunableWant is a tunable's parse error for people: a size's from "bad size" on, as want
// writes it for typed keys.
func tunableWant(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "bad size"); i >= 0 {
		return msg[i:]
	}
	return msg
}
