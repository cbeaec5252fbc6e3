package config

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/search"
)

// Validate checks every field, returning an error that names the first bad key and its value
// (a *KeyError for the checks of one key, to which the command line adds where the value came
// from).
// Where a package has a validator for a value, Validate calls it and words its refusal for the
// key; the rules left here are the configuration's own (a study needs a trial, a reap timeout
// longer than the heartbeat, a key given is never "the default").
func (c Config) Validate() error {
	bad := func(key string, value any, why string) error {
		return &KeyError{Key: key, Value: fmt.Sprint(value), Why: why}
	}
	if r := c.Workload.Resolution; math.IsNaN(r) || r < 0 || r > 1 {
		return bad("workload.resolution", r, "must be in (0, 1], records per object, or 0 for the spec's own")
	}
	// A threshold the user gives is never zero: AnalysisOptions takes zero for its default.
	if lifetimes.ValidateLongLivedThreshold(c.Lifetimes.LongLivedThreshold) != nil {
		return bad("lifetimes.long_lived_threshold", c.Lifetimes.LongLivedThreshold, "must be in (0, 1], a fraction of the run")
	}
	// The clock, the rebuild mode, the aggregate and the statistic were parsed while decoding
	// (DecodeValues); a value set in code is checked to be one of its type's.
	if !slices.Contains(RebuildModes(), c.Lifetimes.Rebuild.String()) {
		return bad("lifetimes.rebuild", fmt.Sprintf("%q", c.Lifetimes.Rebuild), rebuildWhy())
	}
	if !slices.Contains([]filip.Clock{filip.ClockAuto, filip.ClockBytes, filip.ClockMicros}, c.Lifetimes.Clock) {
		return bad("lifetimes.clock", fmt.Sprintf("%q", c.Lifetimes.Clock), clockWhy)
	}
	// The configured bins serve the log-scale histogram as well as the linear one (gctune
	// lifetimes draws both), so the log scale's bound holds.
	if lifetimes.ValidateHistogramBins(c.Lifetimes.HistogramBins, lifetimes.LogScale) != nil {
		return bad("lifetimes.histogram_bins", c.Lifetimes.HistogramBins, fmt.Sprintf("must be in [2, %d]", lifetimes.MaxHistogramBins))
	}
	if _, err := c.Simulate.Params(); err != nil {
		return err
	}
	sc := c.Search
	switch {
	case sc.Trials < 1 || sc.Trials > MaxTrials: // search.Settings takes 0 for "no new trial"; a study needs one
		return bad("search.trials", sc.Trials, fmt.Sprintf("must be in [1, %d]", MaxTrials))
	case search.Settings{Workers: sc.Workers}.Validate() != nil || sc.Workers > MaxWorkers:
		return bad("search.workers", sc.Workers, fmt.Sprintf("must be in [0, %d] (0 = the number of cores)", MaxWorkers))
	case sc.HeartbeatInterval <= 0:
		return bad("search.heartbeat_interval", sc.HeartbeatInterval, "must be positive")
	case sc.ReapTimeout <= sc.HeartbeatInterval:
		return bad("search.reap_timeout", sc.ReapTimeout, "must be longer than search.heartbeat_interval")
	}
	if !slices.Contains([]objective.Aggregate{objective.AggregateMax, objective.AggregateMean}, sc.Aggregate) {
		return bad("search.aggregate", fmt.Sprintf("%q", sc.Aggregate), aggregateWhy)
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
	if q := u.Statistic.Quantile; math.IsNaN(q) || q < 0 || q > 1 {
		return bad("uncertainty.statistic", fmt.Sprintf("%q", u.Statistic), statisticWhy)
	}
	if err := u.Effective().Validate(); err != nil {
		return fmt.Errorf("config: uncertainty: %w", err)
	}
	return nil
}

// KeyError is a configured value Validate refuses: one line naming the key, the value and what
// it must be, `config: search.tolerance = 2 (--tolerance): must be a fraction in [0, 1)`. The
// command line sets Origin, where the value came from (its flag, its GCTUNE_ variable, the
// file), so that the user finds what they typed.
type KeyError struct {
	// Key is the configuration key ("search.tolerance").
	Key string
	// Value is the value as Validate shows it (text quoted).
	Value string
	// Origin, when set, says where the value came from; the command line sets it.
	Origin string
	// Why says what the value must be.
	Why string
}

// Error is `config: key = value (origin): why`, without the parenthesis when Origin is empty.
func (e *KeyError) Error() string {
	origin := ""
	if e.Origin != "" {
		origin = " (" + e.Origin + ")"
	}
	return fmt.Sprintf("config: %s = %s%s: %s", e.Key, e.Value, origin, e.Why)
}

// RebuildModes are the values of lifetimes.rebuild (and --rebuild), as
// filip.ParseHypothesis reads them.
func RebuildModes() []string {
	var modes []string
	for _, h := range []filip.Hypothesis{filip.HypothesisAuto, filip.HypothesisShort,
		filip.HypothesisLong, filip.HypothesisStored, filip.HypothesisOff} {
		modes = append(modes, h.String())
	}
	return modes
}

// orList writes "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return fmt.Sprintf("%s or %s", strings.Join(words[:len(words)-1], ", "), words[len(words)-1])
}
