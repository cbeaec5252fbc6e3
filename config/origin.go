package config

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/gctune/gctune/internal/units"
)

// badValue finds the key whose value does not decode (UnmarshalExact's error lists them in
// mapstructure's words, without the value or where it came from) and returns one line naming
// the key, the value and its origin: `config: search.trials = "abc" (GCTUNE_SEARCH_TRIALS):
// want an integer`. It returns nil when every leaf decodes on its own (a section written as a
// scalar, for instance), leaving the caller's message. leaves are the defaults' (Leaves), in
// key order once sorted.
func badValue(v *viper.Viper, leaves []Leaf, flags *pflag.FlagSet, source string) error {
	var typed []Leaf
	for _, l := range leaves {
		if !l.Tunable { // the tunables' errors name their key already (TunableError)
			typed = append(typed, l)
		}
	}
	slices.SortStableFunc(typed, func(a, b Leaf) int { return strings.Compare(a.Key, b.Key) })
	for _, l := range typed {
		// A section written as a value ("search: 5").
		if sec, _, more := strings.Cut(l.Key, "."); more {
			if raw := v.Get(sec); raw != nil {
				if _, ok := raw.(map[string]any); !ok {
					return loadErrorf("config: %s (%s): want a section (key: value lines)", keyValue(sec, raw), valueOrigin(flags, sec, source))
				}
			}
		}
		raw := v.Get(l.Key)
		target := reflect.New(l.Type)
		dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
			DecodeHook:       DecodeHook(),
			WeaklyTypedInput: true, // as viper decodes
			Result:           target.Interface(),
		})
		if err != nil {
			return nil
		}
		if err := dec.Decode(raw); err != nil {
			return loadErrorf("config: %s (%s): %s", keyValue(l.Key, raw), valueOrigin(flags, l.Key, source), want(l.Type, err))
		}
	}
	return nil
}

// valueOrigin says where key's value came from, in the order of precedence: its flag, its
// environment variable, the file; "default" when none of them set it.
func valueOrigin(flags *pflag.FlagSet, key, source string) string {
	origin := ""
	flags.VisitAll(func(f *pflag.Flag) {
		if keys := f.Annotations[flagKeyAnnotation]; len(keys) == 1 && keys[0] == key && f.Changed {
			origin = "--" + f.Name
		}
	})
	if origin != "" {
		return origin
	}
	if _, ok := os.LookupEnv(EnvName(key)); ok {
		return EnvName(key)
	}
	if source != "" {
		return "from " + source
	}
	return "default"
}

// keyValue shows a key and its value for a config error, "search.trials = \"abc\"", except
// for the key that may hold a password: the storage's value is never shown, in whatever shape
// it was written (a list, a map, a URL).
func keyValue(key string, raw any) string {
	if key == storageKey {
		return key
	}
	return key + " = " + ShowValue(raw)
}

// storageKey is the configuration key of the study database, whose value may hold a password.
const storageKey = "storage"

// mentionsStorage reports whether msg quotes any text of the configured storage value raw
// (a string, or the strings inside a list or map): a decoder's message that does must not be
// shown.
func mentionsStorage(msg string, raw any) bool {
	switch r := raw.(type) {
	case nil:
		return false
	case string:
		return r != "" && strings.Contains(msg, r)
	case []any:
		for _, e := range r {
			if mentionsStorage(msg, e) {
				return true
			}
		}
		return false
	case map[string]any:
		for k, e := range r {
			if mentionsStorage(msg, k) || mentionsStorage(msg, e) {
				return true
			}
		}
		return false
	}
	return mentionsStorage(msg, fmt.Sprint(raw))
}

// want says what a key of type t accepts; for a type with its own parser (byte sizes,
// DecodeValues's types) the parser's reason is kept.
func want(t reflect.Type, err error) string {
	if ve, ok := errors.AsType[*ValueError](err); ok {
		return ve.Why
	}
	switch t {
	case reflect.TypeOf(units.Bytes(0)):
		msg := err.Error()
		if i := strings.Index(msg, "bad size"); i >= 0 {
			return msg[i:]
		}
		return "want a byte size such as 64MiB"
	case reflect.TypeOf(time.Duration(0)):
		return "want a duration such as 5s or 1m30s"
	case reflect.TypeOf(SpaceValue(0)):
		return "want a number or a byte size such as 64MiB"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "want an integer"
	case reflect.Uint64, reflect.Uint:
		return "want a non-negative integer"
	case reflect.Float64:
		return "want a number"
	case reflect.Bool:
		return "want true or false"
	case reflect.String:
		return "want a single value"
	}
	return "cannot use this value"
}
