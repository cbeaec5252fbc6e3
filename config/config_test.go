package config

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
)

func TestDefaultIsValid(t *testing.T) {
	c := Default()
	require.NoError(t, c.Validate())
	p, err := c.Simulate.Params()
	require.NoError(t, err)
	assert.Equal(t, heapsim.DefaultParams(), p)
	assert.Equal(t, heapsim.DefaultParams(), c.Simulate.VMFacts())
	assert.Equal(t, tunable.DefaultSpace(), c.Search.Space.Space())
	assert.Equal(t, uncertainty.Default(), c.Uncertainty.Effective())
	assert.Equal(t, profile.DefaultLongLivedThreshold, c.Lifetimes.LongLivedThreshold)
	assert.Equal(t, lifetimes.DefaultHistogramBins, c.Lifetimes.HistogramBins)
}

func TestValidateNamesTheKey(t *testing.T) {
	cases := []struct {
		name   string
		change func(*Config)
		want   string
	}{
		{"resolution", func(c *Config) { c.Workload.Resolution = 2 }, "config: workload.resolution = 2: must be in (0, 1], records per object, or 0 for the spec's own"},
		{"threshold above", func(c *Config) { c.Lifetimes.LongLivedThreshold = 1.5 }, "config: lifetimes.long_lived_threshold = 1.5: must be in (0, 1], a fraction of the run"},
		// AnalysisOptions takes a zero threshold for its default; a configured one is refused.
		{"threshold zero", func(c *Config) { c.Lifetimes.LongLivedThreshold = 0 }, "config: lifetimes.long_lived_threshold = 0: must be in (0, 1], a fraction of the run"},
		{"threshold NaN", func(c *Config) { c.Lifetimes.LongLivedThreshold = math.NaN() }, "config: lifetimes.long_lived_threshold = NaN: must be in (0, 1], a fraction of the run"},
		// Text is parsed while decoding (TestDecodeValues); a value set in code out of its type's
		// range is still refused.
		{"rebuild", func(c *Config) { c.Lifetimes.Rebuild = 9 }, `config: lifetimes.rebuild = "Hypothesis(9)": must be auto, short, long, stored or off`},
		{"clock", func(c *Config) { c.Lifetimes.Clock = 7 }, `config: lifetimes.clock = "Clock(7)": must be auto, bytes or us`},
		// The configured bins serve the log-scale histogram too: one bin is refused.
		{"one bin", func(c *Config) { c.Lifetimes.HistogramBins = 1 }, "config: lifetimes.histogram_bins = 1: must be in [2, 1000]"},
		{"zero bins", func(c *Config) { c.Lifetimes.HistogramBins = 0 }, "config: lifetimes.histogram_bins = 0: must be in [2, 1000]"},
		{"many bins", func(c *Config) { c.Lifetimes.HistogramBins = 1001 }, "config: lifetimes.histogram_bins = 1001: must be in [2, 1000]"},
		// A tunable's value is parsed while decoding (TestDecodeTunables); Validate judges its range.
		{"tunable", func(c *Config) { c.Simulate.Tunables["eden"] = mustValue(tunable.ParamNewSpace, "2GiB") }, "config: simulate: "},
		{"trials", func(c *Config) { c.Search.Trials = 0 }, "config: search.trials = 0: must be in [1, 100000]"},
		{"trials over the limit", func(c *Config) { c.Search.Trials = math.MaxInt64 }, "config: search.trials = 9223372036854775807: must be in [1, 100000]"},
		{"workers", func(c *Config) { c.Search.Workers = -1 }, "config: search.workers = -1: must be in [0, 256] (0 = the number of cores)"},
		{"workers over the limit", func(c *Config) { c.Search.Workers = math.MaxInt64 }, "config: search.workers = 9223372036854775807: must be in [0, 256] (0 = the number of cores)"},
		{"heartbeat", func(c *Config) { c.Search.HeartbeatInterval = 0 }, "config: search.heartbeat_interval = 0s: must be positive"},
		{"reap", func(c *Config) { c.Search.ReapTimeout = c.Search.HeartbeatInterval }, "config: search.reap_timeout = 5s: must be longer than search.heartbeat_interval"},
		{"aggregate", func(c *Config) { c.Search.Aggregate = "min" }, `config: search.aggregate = "min": must be max or mean`},
		{"tolerance", func(c *Config) { c.Search.Tolerance = 1 }, "config: search.tolerance = 1: must be a fraction in [0, 1) (0.01 = 1 %)"},
		{"sampler", func(c *Config) { c.Search.Sampler = "" }, `config: search.sampler = "": must be one of `},
		{"space", func(c *Config) { c.Search.Space["eden_min"] = c.Search.Space["eden_max"] + 1 }, "config: "},
		{"statistic", func(c *Config) { c.Uncertainty.Statistic = uncertainty.Statistic{Quantile: 2} }, `config: uncertainty.statistic = "p200": must be mean, max, or a percentile such as p90`},
		{"model", func(c *Config) { c.Uncertainty.CostSigma = 5 }, "config: uncertainty: uncertainty: invalid model: cost sigma: 5 is not in [0, 1]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Default()
			c.Simulate.Tunables = Tunables{}
			tc.change(&c)
			err := c.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestUncertaintyOff(t *testing.T) {
	c := Default()
	c.Uncertainty.Off = true
	c.Uncertainty.CostSigma = 5 // not judged: the model is off
	require.NoError(t, c.Validate())
	assert.Equal(t, uncertainty.Model{}, c.Uncertainty.Effective())
}

func TestSpaceRoundTrip(t *testing.T) {
	s := tunable.DefaultSpace()
	assert.Equal(t, s, SpaceConfigFrom(s).Space())
	var v SpaceValue
	require.NoError(t, v.UnmarshalText([]byte("64MiB")))
	assert.Equal(t, SpaceValue(64<<20), v)
	require.NoError(t, v.UnmarshalText([]byte(" 0.5 ")))
	assert.Equal(t, SpaceValue(0.5), v)
	require.ErrorContains(t, v.UnmarshalText([]byte("lots")), "want a number or a size such as 64MiB")
}

func TestSimulateParams(t *testing.T) {
	s := Default().Simulate
	s.Tunables = Tunables{"ratio": mustValue(tunable.ParamRatio, "0.5")}
	s.Bug588 = true
	p, err := s.Params()
	require.NoError(t, err)
	assert.Equal(t, 0.5, p.FullGCRatio)
	assert.True(t, p.Bug588)
	assert.True(t, s.VMFacts().Bug588)
	assert.Equal(t, heapsim.DefaultParams().FullGCRatio, s.VMFacts().FullGCRatio, "VM facts only")
}

func TestShowValue(t *testing.T) {
	assert.Equal(t, `"x"`, ShowValue("x"))
	assert.Equal(t, 80, len(ShowValue(string(make([]byte, 200)))))
}
