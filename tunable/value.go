package tunable

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/units"
)

// DefaultWord is the word a user writes for Pharo's own survivors formula ("pharo"): the
// tunable's value when Reset to the VM defaults cannot be written as a number.
const DefaultWord = "pharo"

// Value is one tunable's value, parsed: a number in the tunable's unit (bytes, a ratio, a
// proportion) or, for survivors to keep, DefaultWord (Pharo's own formula). It is what
// configuration files, environment variables, flags and `simulate --batch` lines give, parsed
// by UnmarshalText; Apply writes it into heapsim.Params, and String writes it back as
// they take it.
//
// The zero Value belongs to no tunable and UnmarshalText refuses it: get a Value from
// Tunable.Parse, Tunable.Empty (to unmarshal into) or Tunable.ValueOf. Values are comparable.
type Value struct {
	// name is the tunable's Name.
	name string
	// number is the value in the tunable's unit; 0 when vmDefault.
	number float64
	// vmDefault is DefaultWord: the tunable Reset to heapsim.DefaultParams.
	vmDefault bool
}

// Empty returns a Value of t that holds nothing yet: the target of UnmarshalText.
func (t Tunable) Empty() Value { return Value{name: t.Name} }

// Parse parses text as a value of t (Value.UnmarshalText).
func (t Tunable) Parse(text string) (Value, error) {
	v := t.Empty()
	err := v.UnmarshalText([]byte(text))
	return v, err
}

// ParseAny parses raw, t's value as a configuration gives it, as a value of t (Parse): text as
// it is (a file's string, a variable, a flag, a simulate --batch line's string), a number (a
// YAML or JSON number) as its plain decimal text (a YAML 16777216 or 1.6e7 is "16777216"),
// anything else as fmt.Sprint writes it, for Parse to refuse. This is the one step from a raw
// configuration value to the parser.
func (t Tunable) ParseAny(raw any) (Value, error) { return t.Parse(rawText(raw)) }

// rawText is a raw configuration value as text (ParseAny).
func rawText(raw any) string {
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

// ValueOf returns t's value in p: for survivors to keep left to Pharo's formula, DefaultWord.
func (t Tunable) ValueOf(p heapsim.Params) Value {
	if t.Unit == UnitProportion {
		q := p
		t.Reset(&q, heapsim.DefaultParams())
		if q.Survivors == p.Survivors && p.Survivors.Mode == heapsim.SurvivorsPharoDefault {
			return Value{name: t.Name, vmDefault: true}
		}
	}
	return Value{name: t.Name, number: t.FromParams(p)}
}

// Text writes the tunable's value in p as configuration files and flags take it (ValueOf's
// String): a size in whole MiB when it is one ("64MiB"), else in bytes; a number; for
// survivors to keep left to Pharo's formula, DefaultWord.
func (t Tunable) Text(p heapsim.Params) string { return t.ValueOf(p).String() }

// UnmarshalText parses text as a value of v's tunable, as String writes it; sizes also take
// the other units of units.ParseBytes ("64m", "1.5GiB"), survivors to keep also DefaultWord.
// Surrounding space is ignored. The error says what the tunable wants (for a size,
// units.ParseBytes's own); whether the value is in range is heapsim.Params.Validate's to say,
// with the field's name. This is the one place a tunable's value is parsed.
func (v *Value) UnmarshalText(text []byte) error {
	t, ok := Named(v.name)
	if !ok {
		return errors.New("tunable: a value of no tunable (use Tunable.Parse or Tunable.Empty)")
	}
	s := strings.TrimSpace(string(text))
	switch t.Unit {
	case UnitBytes:
		n, err := units.ParseBytes(s)
		if err != nil {
			return err
		}
		*v = Value{name: t.Name, number: float64(n)}
		return nil
	case UnitProportion:
		if s == DefaultWord {
			*v = Value{name: t.Name, vmDefault: true}
			return nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if t.Unit == UnitProportion {
			return fmt.Errorf("want a number ≥ 0 or %q", DefaultWord)
		}
		return errors.New("want a number")
	}
	*v = Value{name: t.Name, number: f}
	return nil
}

// MarshalText writes the value as String does.
func (v Value) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// String writes the value as configuration files and flags take it: a size in whole MiB when
// it is one ("64MiB"), else in bytes; a number; DefaultWord. The zero Value is "".
func (v Value) String() string {
	t, ok := Named(v.name)
	switch {
	case !ok:
		return ""
	case v.vmDefault:
		return DefaultWord
	case t.Unit == UnitBytes:
		n := uint64(v.number)
		if n%heapsim.MiB == 0 {
			return strconv.FormatUint(n/heapsim.MiB, 10) + "MiB"
		}
		return strconv.FormatUint(n, 10)
	}
	return strconv.FormatFloat(v.number, 'g', -1, 64)
}

// FileValue is the value as a configuration file holds it (config.yaml, an exported
// configuration, the configuration written back as JSON): a ratio as a number (a YAML or JSON
// number), the others as their text (String: "64MiB", "1.25", DefaultWord). This is the one
// place that rule is written.
func (v Value) FileValue() any {
	if t, ok := Named(v.name); ok && t.Unit == UnitRatio {
		if n, ok := v.Number(); ok {
			return n
		}
	}
	return v.String()
}

// Number returns the value in its tunable's unit, and false for DefaultWord (Pharo's own
// formula, which is no number) and the zero Value.
func (v Value) Number() (float64, bool) {
	if _, ok := Named(v.name); !ok || v.vmDefault {
		return 0, false
	}
	return v.number, true
}

// Tunable returns the tunable v is a value of, and false for the zero Value.
func (v Value) Tunable() (Tunable, bool) { return Named(v.name) }

// Apply sets v's tunable in p to v: the number (ToParams), or for DefaultWord the VM default
// itself (Reset to heapsim.DefaultParams). The zero Value changes nothing.
func (v Value) Apply(p *heapsim.Params) {
	t, ok := Named(v.name)
	switch {
	case !ok:
	case v.vmDefault:
		t.Reset(p, heapsim.DefaultParams())
	default:
		t.ToParams(p, v.number)
	}
}
