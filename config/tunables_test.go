package config

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/go-viper/mapstructure/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/tunable"
)

// mustValue parses text as a value of the tunable named name.
func mustValue(name, text string) tunable.Value {
	t, ok := tunable.Named(name)
	if !ok {
		panic("no tunable " + name)
	}
	v, err := t.Parse(text)
	if err != nil {
		panic(err)
	}
	return v
}

// decodeSimulate decodes a raw simulate section as the command line does (viper's decoder,
// weakly typed, with the hook that parses the tunables).
func decodeSimulate(section map[string]any) (SimulateConfig, error) {
	var s SimulateConfig
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
		DecodeHook:  mapstructure.ComposeDecodeHookFunc(mapstructure.TextUnmarshallerHookFunc(), DecodeTunables),
		ErrorUnused: true, WeaklyTypedInput: true, Result: &s,
	})
	if err != nil {
		return s, err
	}
	return s, dec.Decode(section)
}

// TestSimulateSectionHoldsParsedValues: the simulate section holds each tunable's
// tunable.Value and nothing else of it, no raw text beside it that could go stale: Params and
// Validate have only parsed values to read.
func TestSimulateSectionHoldsParsedValues(t *testing.T) {
	st := reflect.TypeOf(SimulateConfig{})
	for i := range st.NumField() {
		f := st.Field(i)
		switch f.Type.Kind() {
		case reflect.Interface, reflect.String:
			t.Errorf("SimulateConfig.%s is %s: raw configuration text", f.Name, f.Type)
		case reflect.Map:
			assert.Equal(t, reflect.TypeOf(tunable.Value{}), f.Type.Elem(), "SimulateConfig.%s", f.Name)
		}
	}
	for _, tu := range tunable.All() {
		v, ok := Default().Simulate.Tunables[tu.Key]
		require.True(t, ok, tu.Key)
		assert.Equal(t, tu.ValueOf(heapsim.DefaultParams()), v, tu.Key)
	}
}

// TestDecodeTunables: the decoder turns each tunable's text, YAML number or already parsed
// Value into its tunable.Value, once, and refuses text the tunable's parser refuses with one
// line naming the key and the value.
func TestDecodeTunables(t *testing.T) {
	s, err := decodeSimulate(map[string]any{
		"eden": "64MiB", "headroom": 268435456, "shrink": mustValue(tunable.ParamShrink, "1GiB"),
		"ratio": 2.5, "survivors_proportion": "pharo", "stack_pages": "40", "page_size": "4KiB", "bug588": true,
	})
	require.NoError(t, err)
	assert.Equal(t, Tunables{
		"eden": mustValue(tunable.ParamNewSpace, "64MiB"), "headroom": mustValue(tunable.ParamHeadroom, "256MiB"),
		"shrink": mustValue(tunable.ParamShrink, "1GiB"), "ratio": mustValue(tunable.ParamRatio, "2.5"),
		"survivors_proportion": mustValue(tunable.ParamProportion, "pharo"),
	}, s.Tunables)
	assert.Equal(t, 40, s.StackPages)
	p, err := s.Params()
	require.NoError(t, err)
	assert.Equal(t, uint64(64*heapsim.MiB), p.NewSpaceBytes)
	assert.Equal(t, uint64(256*heapsim.MiB), p.GrowthHeadroomBytes)
	assert.Equal(t, 2.5, p.FullGCRatio)
	assert.Equal(t, heapsim.DefaultParams().Survivors, p.Survivors)
	assert.True(t, p.Bug588)

	// The first bad value in tunable.All order, named with its key and its value as given.
	_, err = decodeSimulate(map[string]any{"ratio": "fast", "survivors_proportion": "many"})
	te, ok := errors.AsType[*TunableError](err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, `config: simulate.ratio = "fast": want a number`, te.Error())
	te.Origin = "--ratio"
	assert.Equal(t, `config: simulate.ratio = "fast" (--ratio): want a number`, te.Error())
	_, err = decodeSimulate(map[string]any{"eden": "12XB"})
	te, ok = errors.AsType[*TunableError](err)
	require.True(t, ok, "%v", err)
	assert.Contains(t, te.Error(), `config: simulate.eden = "12XB": bad size "12XB"`)
	_, err = decodeSimulate(map[string]any{"eden": mustValue(tunable.ParamRatio, "2")})
	assert.ErrorContains(t, err, "a value of another tunable")
}

// TestParamsReadsOnlyValues: Params applies the values it holds and refuses an entry that is
// no value of its key's tunable; a value out of range is heapsim's to refuse, naming the field.
func TestParamsReadsOnlyValues(t *testing.T) {
	s := Default().Simulate
	s.Tunables = Tunables{"survivors_proportion": mustValue(tunable.ParamProportion, "1.25")}
	p, err := s.Params()
	require.NoError(t, err)
	assert.Equal(t, heapsim.Survivors{Mode: heapsim.SurvivorsProportion, Proportion: 1.25}, p.Survivors)

	s.Tunables = Tunables{"eden": {}}
	_, err = s.Params()
	assert.EqualError(t, err, `config: simulate.eden: not a value of new_space_bytes ("")`)
	s.Tunables = Tunables{"eden": mustValue(tunable.ParamRatio, "2")}
	_, err = s.Params()
	assert.ErrorContains(t, err, "config: simulate.eden: not a value of new_space_bytes")
	s.Tunables = Tunables{"eden": mustValue(tunable.ParamNewSpace, "2GiB")}
	_, err = s.Params()
	assert.ErrorContains(t, err, "newSpaceBytes")
}

// TestTunablesWrittenAsConfigYAML: the section is written as config.yaml and export --format
// yaml write it, byte for byte as when it held the text (a ratio as a number; a size, a
// proportion, "pharo" as text), and what is written decodes back to the same values.
func TestTunablesWrittenAsConfigYAML(t *testing.T) {
	set := heapsim.DefaultParams()
	for _, tu := range tunable.All() {
		tu.ToParams(&set, tu.Default.High)
	}
	for _, c := range []struct {
		s          SimulateConfig
		json, yaml string
	}{
		{Default().Simulate,
			`{"tunables":{"eden":"16MiB","headroom":"16MiB","ratio":0.333333,"shrink":"32MiB","survivors_proportion":"pharo"},"stack_pages":32,"page_size":4096,"max_old_space":0,"image_size":58720256,"bug588":false}`,
			"eden: 16MiB\nheadroom: 16MiB\nratio: 0.333333\nshrink: 32MiB\nsurvivors_proportion: pharo\n"},
		{simulateConfigFrom(set),
			`{"tunables":{"eden":"1024MiB","headroom":"4096MiB","ratio":50,"shrink":"8192MiB","survivors_proportion":"1.25"},"stack_pages":32,"page_size":4096,"max_old_space":0,"image_size":58720256,"bug588":false}`,
			"eden: 1024MiB\nheadroom: 4096MiB\nratio: 50\nshrink: 8192MiB\nsurvivors_proportion: \"1.25\"\n"},
	} {
		j, err := json.Marshal(c.s)
		require.NoError(t, err)
		assert.Equal(t, c.json, string(j))
		y, err := yaml.Marshal(c.s.Tunables)
		require.NoError(t, err)
		assert.Equal(t, c.yaml, string(y))

		var raw map[string]any
		require.NoError(t, yaml.Unmarshal(y, &raw))
		back, err := decodeSimulate(raw)
		require.NoError(t, err)
		assert.Equal(t, c.s.Tunables, back.Tunables)
	}
	j, err := json.Marshal(Tunables(nil))
	require.NoError(t, err)
	assert.Equal(t, "null", string(j))
}
