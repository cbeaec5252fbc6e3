package config

import (
	"errors"
	"reflect"
	"testing"

	"github.com/go-viper/mapstructure/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
)

// decode decodes raw, a configuration as a file or the command line gives it, over the
// defaults with DecodeHook, as the command line does.
func decode(t *testing.T, raw map[string]any) (Config, error) {
	t.Helper()
	c := Default()
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{DecodeHook: DecodeHook(), WeaklyTypedInput: true, Result: &c})
	require.NoError(t, err)
	return c, dec.Decode(raw)
}

// TestDecodeValues: the clock, the rebuild mode, the aggregate and the statistic are parsed
// once, while decoding, into their types; text their parsers refuse is a *ValueError saying
// what the key takes, an empty rebuild mode too.
func TestDecodeValues(t *testing.T) {
	c, err := decode(t, map[string]any{
		"lifetimes":   map[string]any{"clock": "US", "rebuild": "stored"},
		"search":      map[string]any{"aggregate": "mean"},
		"uncertainty": map[string]any{"statistic": "p90"},
	})
	require.NoError(t, err)
	assert.Equal(t, filip.ClockMicros, c.Lifetimes.Clock)
	assert.Equal(t, filip.HypothesisStored, c.Lifetimes.Rebuild)
	assert.Equal(t, objective.AggregateMean, c.Search.Aggregate)
	assert.Equal(t, uncertainty.Statistic{Quantile: 0.9}, c.Uncertainty.Statistic)
	require.NoError(t, c.Validate())

	// A YAML number is read as its text, as it was when the key was a string.
	c, err = decode(t, map[string]any{"uncertainty": map[string]any{"statistic": 0.9}})
	require.NoError(t, err)
	assert.Equal(t, uncertainty.Statistic{Quantile: 0.9}, c.Uncertainty.Statistic)

	d, err := decode(t, map[string]any{})
	require.NoError(t, err)
	assert.Equal(t, Default(), d, "typed defaults pass through")

	for _, tc := range []struct {
		raw map[string]any
		why string
	}{
		{map[string]any{"lifetimes": map[string]any{"clock": "sundial"}}, "must be auto, bytes or us"},
		{map[string]any{"lifetimes": map[string]any{"rebuild": " "}}, "must be auto, short, long, stored or off"},
		{map[string]any{"lifetimes": map[string]any{"rebuild": "maybe"}}, "must be auto, short, long, stored or off"},
		{map[string]any{"search": map[string]any{"aggregate": "min"}}, "must be max or mean"},
		{map[string]any{"uncertainty": map[string]any{"statistic": "p0"}}, "must be mean, max, or a percentile such as p90"},
	} {
		_, err := decode(t, tc.raw)
		var ve *ValueError
		require.True(t, errors.As(err, &ve), "%v: %v", tc.raw, err)
		assert.Equal(t, tc.why, ve.Why, tc.raw)
	}
}

// TestLeaves: every key of the configuration once, with the type it decodes into; sections are
// no keys, a squashed struct's keys are its section's, the tunables and the space's bounds are
// listed from the value.
func TestLeaves(t *testing.T) {
	types := map[string]reflect.Type{}
	tunables := 0
	for _, l := range Leaves(Default()) {
		_, dup := types[l.Key]
		require.False(t, dup, l.Key)
		types[l.Key] = l.Type
		if l.Tunable {
			tunables++
		}
	}
	assert.Equal(t, reflect.TypeFor[filip.Clock](), types["lifetimes.clock"])
	assert.Equal(t, reflect.TypeFor[filip.Hypothesis](), types["lifetimes.rebuild"])
	assert.Equal(t, reflect.TypeFor[objective.Aggregate](), types["search.aggregate"])
	assert.Equal(t, reflect.TypeFor[uncertainty.Statistic](), types["uncertainty.statistic"])
	assert.Equal(t, reflect.TypeFor[int](), types["uncertainty.replicas"], "the squashed model's keys")
	assert.Equal(t, reflect.TypeFor[SpaceValue](), types["search.space.eden_min"])
	assert.Equal(t, reflect.TypeFor[tunable.Value](), types["simulate.eden"])
	assert.Equal(t, len(tunable.All()), tunables)
	assert.NotContains(t, types, "search")
	assert.NotContains(t, types, "uncertainty.model")
	assert.Contains(t, types, "storage")
}
