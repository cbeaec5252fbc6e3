package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/gctune/gctune/internal/infile"
	"github.com/gctune/gctune/internal/suggest"
)

// Sources says where Load reads the configuration from, above the built-in defaults (Default):
// the file, GCTUNE_* environment variables (EnvName), then the flags bound to keys
// (BindFlag), each layer over the one before.
type Sources struct {
	// File is the configuration file to read (the command line's --config); "" reads
	// DefaultFile from the working folder when it is a regular file, else none.
	File string
	// Flags are the running command's flags: those bound to a key (BindFlag) set it when
	// given. Nil: no flags.
	Flags *pflag.FlagSet
	// IgnoreEnv reports whether a GCTUNE_ variable that names no key is someone else's, to
	// be let through rather than refused (the variables gctune verify gives the command it
	// runs, which may itself run gctune). Nil: none is.
	IgnoreEnv func(name string) bool
	// Adjust, when not nil, changes the decoded configuration before it is validated: a flag
	// that sets a key to a fixed value (--no-rebuild).
	Adjust func(*Config)
}

// LoadError is a configuration that Load refuses (a file that cannot be read, an unknown
// key or variable, a value that does not decode or does not validate): the user's to fix.
type LoadError struct{ Err error }

// Error is the refusal, one line naming the key, its value and where it came from.
func (e *LoadError) Error() string { return e.Err.Error() }

// Unwrap returns the refusal (a *KeyError, *TunableError, ... when it is one).
func (e *LoadError) Unwrap() error { return e.Err }

// loadErrorf formats a LoadError (%w wraps as in fmt.Errorf).
func loadErrorf(format string, args ...any) error {
	return &LoadError{Err: fmt.Errorf(format, args...)}
}

// Load reads the configuration from src (see Sources for the layers and their precedence),
// decodes it strictly (a key in the file that Config does not have is an error naming it,
// with the nearest key it may have meant; so is a GCTUNE_ variable that names no key) and
// validates it. The configuration's own faults are *LoadError, each one line naming the key,
// the value (never the storage's, which may hold a password) and where it came from. An
// interrupt while the file was awaited is infile's *InterruptedError, as returned by
// infile.ReadAll; other errors are gctune's own.
func Load(ctx context.Context, src Sources) (Config, error) {
	if src.Flags == nil {
		src.Flags = pflag.NewFlagSet("none", pflag.ContinueOnError)
	}
	leaves := Leaves(Default())
	v := viper.New()
	known := map[string]bool{}
	for _, l := range leaves {
		// Defaults matter twice: they are the lowest layer, and viper only looks up
		// environment variables for keys it knows.
		v.SetDefault(l.Key, l.Value)
		known[l.Key] = true
	}

	v.SetConfigType("yaml")
	source, err := fileSource(src.File)
	if err != nil {
		return Config{}, err
	}
	if source != "" {
		data, err := infile.ReadAll(ctx, source, MaxFileBytes, "config file")
		if _, ok := errors.AsType[*infile.InterruptedError](err); ok {
			return Config{}, err
		}
		if errors.Is(err, infile.ErrTooLarge) {
			return Config{}, loadErrorf("config %s: larger than the %d MiB a config file may have", source, MaxFileBytes>>20)
		}
		if err != nil {
			return Config{}, loadErrorf("config %s: %w", source, err)
		}
		if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
			return Config{}, loadErrorf("config %s: %w", source, err)
		}
	}
	if err := checkKeys(v, known, source); err != nil {
		return Config{}, err
	}
	if err := checkEnv(known, src.IgnoreEnv); err != nil {
		return Config{}, err
	}
	v.SetEnvPrefix(EnvPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()

	var bindErr error
	src.Flags.VisitAll(func(f *pflag.Flag) {
		if keys := f.Annotations[flagKeyAnnotation]; len(keys) == 1 && bindErr == nil {
			bindErr = v.BindPFlag(keys[0], f)
		}
	})
	if bindErr != nil {
		return Config{}, fmt.Errorf("config: %w", bindErr)
	}

	var cfg Config
	if err := v.UnmarshalExact(&cfg, viper.DecodeHook(DecodeHook())); err != nil {
		return Config{}, decodeError(err, v, leaves, src.Flags, source)
	}
	if src.Adjust != nil {
		src.Adjust(&cfg)
	}
	if err := cfg.Validate(); err != nil {
		// The key refused is named with where its value came from (its flag, its variable,
		// the file), as badValue does for a value that does not decode.
		if ke, ok := errors.AsType[*KeyError](err); ok {
			if origin := valueOrigin(src.Flags, ke.Key, source); origin != "default" {
				ke.Origin = origin
			}
		}
		return Config{}, &LoadError{Err: err}
	}
	return cfg, nil
}

// checkKeys refuses the keys of the file that Config lacks, with the nearest known key when
// one is wrong. (Section names themselves are known keys only as prefixes: a section written
// as a scalar fails in decoding, with its name.)
func checkKeys(v *viper.Viper, known map[string]bool, source string) error {
	var unknown []string
	for _, k := range v.AllKeys() {
		if !known[k] && !isSection(k, known) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	hint := ""
	if len(unknown) == 1 {
		hint = suggest.DidYouMean(suggest.Nearest(unknown[0], slices.Collect(maps.Keys(known))), strconv.Quote)
	}
	return loadErrorf("config %s: unknown key %s%s", source, quoteJoin(unknown), hint)
}

// checkEnv refuses GCTUNE_* variables that name no key, as unknown keys in the file are: a
// typo would otherwise be silently ignored. ignore lets through the variables that are not
// configuration.
func checkEnv(known map[string]bool, ignore func(string) bool) error {
	envNames := map[string]bool{}
	for k := range known {
		envNames[EnvName(k)] = true
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, EnvPrefix+"_") || envNames[name] || (ignore != nil && ignore(name)) {
			continue
		}
		if hint := suggest.DidYouMean(suggest.Nearest(name, slices.Collect(maps.Keys(envNames))), nil); hint != "" {
			return loadErrorf("config: unknown environment variable %s%s", name, hint)
		}
		return loadErrorf("config: unknown environment variable %s (known: %s)", name, strings.Join(similarEnvNames(name, envNames), ", "))
	}
	return nil
}

// decodeError words UnmarshalExact's error err: the value that does not decode named with its
// key and origin (badValue), a tunable's likewise, else the decoder's own message with the
// source, never quoting the storage's value.
func decodeError(err error, v *viper.Viper, leaves []Leaf, flags *pflag.FlagSet, source string) error {
	if bad := badValue(v, leaves, flags, source); bad != nil {
		return bad
	}
	// A simulate tunable's value is parsed once, by DecodeTunables while decoding; the one it
	// refused is named with where it came from, as badValue does for typed keys.
	if te, ok := errors.AsType[*TunableError](err); ok {
		te.Origin = valueOrigin(flags, te.Key, source)
		return &LoadError{Err: te}
	}
	if source == "" {
		source = "(defaults, environment and flags)"
	}
	if mentionsStorage(err.Error(), v.Get(storageKey)) {
		return loadErrorf("config %s: %s: cannot use this value (not shown: it may hold a password)", source, storageKey)
	}
	return loadErrorf("config %s: %w", source, err)
}

// isSection reports whether key is a section (a prefix of known keys) rather than a leaf.
func isSection(key string, known map[string]bool) bool {
	for k := range known {
		if strings.HasPrefix(k, key+".") {
			return true
		}
	}
	return false
}

// quoteJoin writes keys quoted and comma-separated.
func quoteJoin(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	return strings.Join(q, ", ")
}
