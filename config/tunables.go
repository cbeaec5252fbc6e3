package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"

	"github.com/gctune/gctune/tunable"
)

// Tunables are the simulate section's tunables, parsed: each one's tunable.Value under its
// Key in tunable.All (eden, headroom, shrink, ratio, survivors_proportion); a tunable not
// given is absent. DecodeTunables fills it while the configuration is decoded, so that no
// later reader (SimulateConfig.Params, Validate) parses text.
//
// It is written (MarshalJSON, MarshalYAML) as config.yaml writes the section: a ratio as a
// number, a size ("64MiB"), a proportion or "pharo" as text.
type Tunables map[string]tunable.Value

// MarshalJSON writes the tunables as config.yaml holds them (see Tunables).
func (ts Tunables) MarshalJSON() ([]byte, error) { return json.Marshal(ts.written()) }

// MarshalYAML writes the tunables as config.yaml holds them (see Tunables); gopkg.in/yaml.v3
// calls it.
func (ts Tunables) MarshalYAML() (any, error) { return ts.written(), nil }

// written is the tunables as a configuration file writes them (tunable.Value.FileValue: a
// ratio as a number, the others as their text).
func (ts Tunables) written() map[string]any {
	if ts == nil {
		return nil
	}
	out := make(map[string]any, len(ts))
	for key, v := range ts {
		out[key] = v.FileValue()
	}
	return out
}

// TunableError is a simulate tunable's value that is not a value of the tunable: text its
// parser refuses. Its message is one line naming the key, the value as given and what the
// tunable wants; the command line adds where the value came from (Origin).
type TunableError struct {
	// Key is the configuration key ("simulate.eden").
	Key string
	// Raw is the value as the configuration gave it: text, or a YAML number or list.
	Raw any
	// Origin, when set, says where the value came from (its environment variable, its flag,
	// the file); the command line sets it.
	Origin string
	// Err is the tunable's parse error (tunable.Value.UnmarshalText).
	Err error
}

// Error is `config: simulate.eden = "lots" (--eden): bad size "lots": ...`, without the
// parenthesis when Origin is empty.
func (e *TunableError) Error() string {
	origin := ""
	if e.Origin != "" {
		origin = " (" + e.Origin + ")"
	}
	return fmt.Sprintf("config: %s = %s%s: %s", e.Key, ShowValue(e.Raw), origin, tunableWant(e.Err))
}

// Unwrap returns the parse error.
func (e *TunableError) Unwrap() error { return e.Err }

// DecodeTunables is the decode hook (a mapstructure.DecodeHookFuncType) that parses the
// simulate section's tunables, once, while the configuration is decoded: given the section's
// raw map on its way to a SimulateConfig, it returns a copy with each tunable's value turned
// into its tunable.Value (parseTunable), which the decoder then stores in Tunables as it is.
// The first value that does not parse, in tunable.All order, is a *TunableError. Any other
// target passes through unchanged.
func DecodeTunables(_, to reflect.Type, data any) (any, error) {
	if to != reflect.TypeOf(SimulateConfig{}) {
		return data, nil
	}
	section, ok := data.(map[string]any)
	if !ok {
		return data, nil // not a section: the decoder says so
	}
	out := maps.Clone(section)
	for _, t := range tunable.All() {
		raw, ok := section[t.Key]
		if !ok {
			continue
		}
		v, err := parseTunable(t, raw)
		if err != nil {
			return nil, err
		}
		out[t.Key] = v
	}
	return out, nil
}

// parseTunable turns raw, t's value as a configuration gives it (text from a file, a variable
// or a flag; a YAML number), into a tunable.Value: t.ParseAny(raw), the tunable's own
// parser. A tunable.Value of t is already parsed (the built-in defaults are Values) and is
// kept as it is.
func parseTunable(t tunable.Tunable, raw any) (tunable.Value, error) {
	key := "simulate." + t.Key
	if v, ok := raw.(tunable.Value); ok {
		if vt, ok := v.Tunable(); ok && vt.Name == t.Name {
			return v, nil
		}
		return tunable.Value{}, &TunableError{Key: key, Raw: v.String(), Err: errors.New("a value of another tunable")}
	}
	v, err := t.ParseAny(raw)
	if err != nil {
		return tunable.Value{}, &TunableError{Key: key, Raw: raw, Err: err}
	}
	return v, nil
}
