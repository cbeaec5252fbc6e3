package main

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/gctune/gctune/config"
	"github.com/gctune/gctune/internal/units"
)

// defaultConfigFile is the configuration file read from the working directory when --config
// is not given. It is not config.yaml: a project folder's config.yaml usually belongs to
// another program, and gctune must not fail on it ("unknown key server.port").
const defaultConfigFile = "gctune.yaml"

// maxConfigBytes caps a configuration file (real ones are a few kilobytes); a larger or
// endless one (/dev/zero) is refused after maxConfigBytes+1 bytes.
const maxConfigBytes = 16 << 20

// configSource returns the configuration file to read: --config's, else ./gctune.yaml when it
// is a regular file, else "" (the built-in defaults).
func configSource(configFile string) (string, error) {
	if configFile != "" {
		if st, err := os.Stat(configFile); err == nil && st.IsDir() {
			return "", usageErrorf("config %s: is a directory", configFile)
		}
		return configFile, nil
	}
	st, err := os.Stat(defaultConfigFile)
	switch {
	case err == nil && st.Mode().IsRegular():
		return defaultConfigFile, nil
	case err == nil:
		return "", usageErrorf("config %s: not a regular file", defaultConfigFile)
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	default:
		return "", usageErrorf("config %s: %w", defaultConfigFile, err)
	}
}

// badValue finds the key whose value does not decode (UnmarshalExact's error lists them in
// mapstructure's words, without the value or where it came from) and returns one line naming
// the key, the value and its origin: `config: search.trials = "abc" (GCTUNE_SEARCH_TRIALS):
// want an integer`. It returns nil when every leaf decodes on its own (a section written as a
// scalar, for instance), leaving the caller's message.
func badValue(cmd *cobra.Command, v *viper.Viper, source string) error {
	types := map[string]reflect.Type{}
	for _, l := range config.Leaves(defaultConfig().Config) {
		if !l.Tunable { // the tunables' errors name their key already (config.TunableError)
			types[l.Key] = l.Type
		}
	}
	for _, key := range slices.Sorted(maps.Keys(types)) {
		// A section written as a value ("search: 5").
		if sec, _, more := strings.Cut(key, "."); more {
			if raw := v.Get(sec); raw != nil {
				if _, ok := raw.(map[string]any); !ok {
					return usageErrorf("config: %s (%s): want a section (key: value lines)", keyValue(sec, raw), valueOrigin(cmd, sec, source))
				}
			}
		}
		raw := v.Get(key)
		target := reflect.New(types[key])
		dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
			DecodeHook:       config.DecodeHook(),
			WeaklyTypedInput: true, // as viper decodes
			Result:           target.Interface(),
		})
		if err != nil {
			return nil
		}
		if err := dec.Decode(raw); err != nil {
			return usageErrorf("config: %s (%s): %s", keyValue(key, raw), valueOrigin(cmd, key, source), want(types[key], err))
		}
	}
	return nil
}

// valueOrigin says where key's value came from, in the order of precedence: its flag, its
// environment variable, the file; "default" when none of them set it.
func valueOrigin(cmd *cobra.Command, key, source string) string {
	origin := ""
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if keys := f.Annotations[configKeyAnnotation]; len(keys) == 1 && keys[0] == key && f.Changed {
			origin = "--" + f.Name
		}
	})
	if origin != "" {
		return origin
	}
	if _, ok := os.LookupEnv(envName(key)); ok {
		return envName(key)
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
	return key + " = " + config.ShowValue(raw)
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
// config.DecodeValues's types) the parser's reason is kept.
func want(t reflect.Type, err error) string {
	if ve, ok := errors.AsType[*config.ValueError](err); ok {
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
	case reflect.TypeOf(config.SpaceValue(0)):
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
