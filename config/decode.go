package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/go-viper/mapstructure/v2"

	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/uncertainty"
)

// DecodeHook is the conversion the configuration is decoded with, the one place where a
// configured value's text is parsed: into any encoding.TextUnmarshaler (so units.Bytes fields
// accept "64MiB") and time.Duration ("90s"); the simulate section's tunables into their
// tunable.Value (DecodeTunables); and the keys of gctune's own types into those types
// (DecodeValues: the clock, the rebuild hypothesis, the aggregate and the statistic), so that
// they travel typed and no later reader parses them again.
func DecodeHook() mapstructure.DecodeHookFunc {
	return mapstructure.ComposeDecodeHookFunc(
		mapstructure.TextUnmarshallerHookFunc(),
		mapstructure.StringToTimeDurationHookFunc(),
		DecodeTunables,
		DecodeValues,
	)
}

// ValueError is a configured value's text that its key's type refuses: Why says what the key
// takes ("must be auto, bytes or us"). The command line names the key, the value and where it
// came from around it.
type ValueError struct {
	// Why says what the value must be.
	Why string
	// Err is the type's parse error.
	Err error
}

// Error is Why.
func (e *ValueError) Error() string { return e.Why }

// Unwrap returns the parse error.
func (e *ValueError) Unwrap() error { return e.Err }

// Why each typed key's value must be, as Validate words its other refusals.
const (
	clockWhy     = "must be auto, bytes or us"
	aggregateWhy = "must be max or mean"
	statisticWhy = "must be mean, max, or a percentile such as p90"
)

// rebuildWhy is what lifetimes.rebuild takes.
func rebuildWhy() string { return "must be " + orList(RebuildModes()) }

// DecodeValues is the decode hook (a mapstructure.DecodeHookFuncType) that parses text into
// filip.Clock (lifetimes.clock), filip.Hypothesis (lifetimes.rebuild), objective.Aggregate
// (search.aggregate) and uncertainty.Statistic (uncertainty.statistic), each with its package's
// parser; a YAML number or boolean is read as its text, as the decoder reads one into a string.
// Text it refuses is a *ValueError; an empty rebuild mode too (filip.ParseHypothesis
// takes "" for auto only for studies stored before the key existed). A value already of its
// type (the built-in defaults) and any other target pass through unchanged.
func DecodeValues(_, to reflect.Type, data any) (any, error) {
	var s string
	switch d := data.(type) {
	case string:
		s = d
	case float64, float32, int, int64, uint64, bool: // a YAML scalar ("statistic: 0.9"), read as its text
		s = fmt.Sprint(d)
	default:
		return data, nil
	}
	var (
		v   any
		err error
		why string
	)
	switch to {
	case reflect.TypeFor[filip.Clock]():
		v, err = filip.ParseClock(s)
		why = clockWhy
	case reflect.TypeFor[filip.Hypothesis]():
		if strings.TrimSpace(s) == "" {
			return nil, &ValueError{Why: rebuildWhy(), Err: errors.New("config: no rebuild mode")}
		}
		v, err = filip.ParseHypothesis(s)
		why = rebuildWhy()
	case reflect.TypeFor[objective.Aggregate]():
		v, err = objective.ParseAggregate(s)
		why = aggregateWhy
	case reflect.TypeFor[uncertainty.Statistic]():
		v, err = uncertainty.ParseStatistic(s)
		why = statisticWhy
	default:
		return data, nil
	}
	if err != nil {
		return nil, &ValueError{Why: why, Err: err}
	}
	return v, nil
}

// Leaf is one key of the configuration: its name ("lifetimes.clock"), the Go type it decodes
// into and its value in the Config it was listed from.
type Leaf struct {
	Key   string
	Type  reflect.Type
	Value any
	// Tunable is set for the simulate section's tunables, which DecodeTunables parses as a
	// section (their errors are *TunableError).
	Tunable bool
}

// Leaves lists every key of c, walking its mapstructure tags: the keys of a squashed struct as
// its section's (UncertaintyConfig's Model), and for a map the keys it holds (the simulate
// section's tunables, search.space's bounds), so list the defaults' to have them all. The
// command line registers them as its lowest layer, checks the file's keys and variables'
// names against them and decodes a refused value alone to name its key.
func Leaves(c Config) []Leaf {
	var out []Leaf
	walkLeaves("", reflect.ValueOf(c), &out)
	return out
}

// walkLeaves appends the leaves of the struct value rv, their keys under prefix.
func walkLeaves(prefix string, rv reflect.Value, out *[]Leaf) {
	t := rv.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		tag, opts, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
		switch {
		case opts == "squash":
			walkLeaves(prefix, rv.Field(i), out)
			continue
		case f.Type.Kind() == reflect.Map && tag == "": // ",remain": the simulate section's tunables
			iter := rv.Field(i).MapRange()
			for iter.Next() {
				*out = append(*out, Leaf{Key: prefix + iter.Key().String(), Type: f.Type.Elem(),
					Value: iter.Value().Interface(), Tunable: true})
			}
			continue
		case tag == "" || tag == "-":
			continue
		}
		key := prefix + tag
		switch f.Type.Kind() {
		case reflect.Struct:
			if f.Type != reflect.TypeFor[uncertainty.Statistic]() { // a value, not a section
				walkLeaves(key+".", rv.Field(i), out)
				continue
			}
		case reflect.Map: // a section whose keys its value lists (SpaceConfig)
			iter := rv.Field(i).MapRange()
			for iter.Next() {
				*out = append(*out, Leaf{Key: key + "." + iter.Key().String(), Type: f.Type.Elem(), Value: iter.Value().Interface()})
			}
			continue
		}
		*out = append(*out, Leaf{Key: key, Type: f.Type, Value: rv.Field(i).Interface()})
	}
}
