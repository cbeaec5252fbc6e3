package tunable

import (
	"encoding"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
)

var _ encoding.TextUnmarshaler = (*Value)(nil)
var _ encoding.TextMarshaler = Value{}

// TestValueRoundTrip checks that every tunable's value, written by Text and parsed back,
// applies to the same parameters, for the VM defaults (survivors left to Pharo's formula) and
// for a configuration with every tunable set.
func TestValueRoundTrip(t *testing.T) {
	d := heapsim.DefaultParams()
	set := d
	for _, tu := range All() {
		tu.ToParams(&set, tu.Default.High)
	}
	for _, base := range []heapsim.Params{d, set} {
		for _, tu := range All() {
			v, err := tu.Parse(tu.Text(base))
			require.NoError(t, err, tu.Name)
			assert.Equal(t, tu.ValueOf(base), v, tu.Name)
			p := d
			v.Apply(&p)
			assert.Equal(t, tu.FromParams(base), tu.FromParams(p), tu.Name)
			got, ok := v.Tunable()
			assert.True(t, ok)
			assert.Equal(t, tu.Name, got.Name)
		}
	}
	sv, _ := Named(ParamProportion)
	assert.Equal(t, DefaultWord, sv.Text(d), "the VM defaults keep Pharo's own survivors formula")
}

// TestValueParse checks the spellings each unit takes and the words of its errors, which the
// CLI prints after the key and the value.
func TestValueParse(t *testing.T) {
	eden, _ := Named(ParamNewSpace)
	ratio, _ := Named(ParamRatio)
	surv, _ := Named(ParamProportion)
	for _, c := range []struct {
		t    Tunable
		text string
		want string // String of the parsed value
	}{
		{eden, "64MiB", "64MiB"},
		{eden, " 64m ", "64MiB"},
		{eden, "1000", "1000"},
		{ratio, "10", "10"},
		{ratio, "0.333333", "0.333333"},
		{surv, "pharo", "pharo"},
		{surv, "1.25", "1.25"},
	} {
		v, err := c.t.Parse(c.text)
		if assert.NoError(t, err, "%s %q", c.t.Key, c.text) {
			assert.Equal(t, c.want, v.String(), "%s %q", c.t.Key, c.text)
		}
	}
	_, err := ratio.Parse("64MiB")
	assert.EqualError(t, err, "want a number")
	_, err = surv.Parse("lots")
	assert.EqualError(t, err, `want a number ≥ 0 or "pharo"`)
	_, err = eden.Parse("pharo")
	assert.ErrorContains(t, err, "bad size")

	var zero Value
	assert.Error(t, zero.UnmarshalText([]byte("1")), "a value of no tunable")
	assert.Equal(t, "", zero.String())
	p := heapsim.DefaultParams()
	zero.Apply(&p)
	assert.Equal(t, heapsim.DefaultParams(), p, "the zero Value changes nothing")

	v := ratio.Empty()
	require.NoError(t, v.UnmarshalText([]byte("2.5")))
	require.Error(t, v.UnmarshalText([]byte("x")))
	assert.Equal(t, "2.5", v.String(), "a failed UnmarshalText keeps the value")
}

// TestValueNumber: a value's number in its unit, and none for Pharo's formula or the zero Value.
func TestValueNumber(t *testing.T) {
	eden, _ := Named(ParamNewSpace)
	surv, _ := Named(ParamProportion)
	v, err := eden.Parse("64MiB")
	require.NoError(t, err)
	n, ok := v.Number()
	assert.True(t, ok)
	assert.Equal(t, float64(64*heapsim.MiB), n)
	v, err = surv.Parse(DefaultWord)
	require.NoError(t, err)
	_, ok = v.Number()
	assert.False(t, ok, "Pharo's formula is no number")
	_, ok = Value{}.Number()
	assert.False(t, ok)
}

// TestParseAny: a configuration's raw value (text, a YAML or JSON number, anything else) goes
// to the parser as text, a number in plain decimal.
func TestParseAny(t *testing.T) {
	eden, _ := Named(ParamNewSpace)
	ratio, _ := Named(ParamRatio)
	for _, c := range []struct {
		t    Tunable
		raw  any
		want string
	}{
		{eden, 1.6777216e7, "16MiB"},
		{eden, "64MiB", "64MiB"},
		{eden, 1000, "1000"},
		{ratio, float32(0.5), "0.5"},
	} {
		v, err := c.t.ParseAny(c.raw)
		if assert.NoError(t, err, "%s %v", c.t.Key, c.raw) {
			assert.Equal(t, c.want, v.String(), "%s %v", c.t.Key, c.raw)
		}
	}
	assert.Equal(t, "16777216", rawText(1.6777216e7), "plain decimal, not 1.6777216e+07")
	_, err := ratio.ParseAny(true)
	assert.EqualError(t, err, "want a number")
	_, err = eden.ParseAny([]any{1, 2})
	assert.ErrorContains(t, err, `"[1 2]"`)
}

// TestFileValue: a ratio is written as a number, every other value as its text.
func TestFileValue(t *testing.T) {
	d := heapsim.DefaultParams()
	for _, tu := range All() {
		v := tu.ValueOf(d)
		if tu.Unit == UnitRatio {
			assert.Equal(t, d.FullGCRatio, v.FileValue(), tu.Key)
		} else {
			assert.Equal(t, v.String(), v.FileValue(), tu.Key)
		}
	}
	assert.Equal(t, "", Value{}.FileValue(), "the zero Value")
}
