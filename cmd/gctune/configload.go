package main

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/gctune/gctune/config"
	"github.com/gctune/gctune/internal/infile"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/verify"
)

// Config is the configuration a command runs with: gctune's configuration (config.Config, the
// keys and their checks) as loadConfig layers it from the defaults, the config file, GCTUNE_*
// environment variables and the flags bound to keys, with what the command line says of the
// FiLiP exports it opens.
type Config struct {
	config.Config

	// given is what the command line says of the FiLiP exports it opens (--rate, --meta):
	// not configuration, so no key; loadConfig fills it.
	given givenInput
	// build is the running gctune's identity (rootOptions.build, resolved): not
	// configuration either; the root command fills it.
	build buildStamp
}

// defaultConfig returns the built-in defaults (config.Default), the values of the
// repository's config.yaml (TestDefaultConfigMatchesConfigYAML keeps the two equal).
func defaultConfig() Config {
	return Config{Config: config.Default()}
}

// openOptions are the options a command opens a profile by reference with: the workload
// section's seed and resolution, the lifetimes section's clock, bad-row handling and rebuild
// mode (decoded by config.DecodeValues), and what the command line says of the export.
func (c Config) openOptions() (source.Options, error) {
	return source.Options{Seed: c.Workload.Seed, Resolution: c.Workload.Resolution,
		Clock: c.Lifetimes.Clock, SkipBadRows: c.Lifetimes.SkipBadRows, Rebuild: c.Lifetimes.Rebuild,
		FiLiPJSONPath: c.given.meta, SamplingRate: c.given.rate}, nil
}

// configKeyAnnotation marks a flag as setting a config key (see bindFlag).
const configKeyAnnotation = "gctune/config-key"

// bindFlag declares that cmd's flag name sets the config key (for example
// "lifetimes.long_lived_threshold"). loadConfig binds the flags of the command that runs, so
// commands can share a key without one's flag shadowing another's.
func bindFlag(cmd *cobra.Command, name, key string) {
	f := cmd.Flags().Lookup(name)
	if f == nil {
		panic(fmt.Sprintf("gctune: bindFlag: command %q has no flag --%s", cmd.Name(), name))
	}
	if f.Annotations == nil {
		f.Annotations = map[string][]string{}
	}
	f.Annotations[configKeyAnnotation] = []string{key}
}

// loadConfig reads the configuration for cmd (see Config for the sources and their
// precedence), decodes it strictly (a key in the file that Config does not have is an error
// naming it) and validates it. configFile is --config; empty means ./gctune.yaml if it exists,
// else the built-in defaults (a ./config.yaml is never read unless --config names it: it may
// belong to another program). Errors in the configuration itself are usage errors (exit code 2).
func loadConfig(cmd *cobra.Command, configFile string) (Config, error) {
	v := viper.New()
	known := map[string]bool{}
	for _, l := range config.Leaves(defaultConfig().Config) {
		// Defaults matter twice: they are the lowest layer, and viper only looks up
		// environment variables for keys it knows.
		v.SetDefault(l.Key, l.Value)
		known[l.Key] = true
	}

	v.SetConfigType("yaml")
	source, err := configSource(configFile)
	if err != nil {
		return Config{}, err
	}
	if source != "" {
		data, err := infile.ReadAll(cmd.Context(), source, maxConfigBytes, "config file")
		if ie := interruptedInput(err); ie != nil {
			return Config{}, ie
		}
		if errors.Is(err, infile.ErrTooLarge) {
			return Config{}, usageErrorf("config %s: larger than the %d MiB a config file may have", source, maxConfigBytes>>20)
		}
		if err != nil {
			return Config{}, usageErrorf("config %s: %w", source, err)
		}
		if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
			return Config{}, usageErrorf("config %s: %w", source, err)
		}
	}
	// Keys in the file that Config lacks. (Section names themselves are known keys only as
	// prefixes: a section written as a scalar fails in decoding below, with its name.)
	var unknown []string
	for _, k := range v.AllKeys() {
		if !known[k] && !isSection(k, known) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		hint := ""
		if len(unknown) == 1 {
			hint = didYouMean(nearestNames(unknown[0], slices.Collect(maps.Keys(known))), strconv.Quote)
		}
		return Config{}, usageErrorf("config %s: unknown key %s%s", source, quoteJoin(unknown), hint)
	}

	// GCTUNE_* variables that name no key are refused like unknown keys in the file: a typo
	// would otherwise be silently ignored.
	// The variables gctune verify gives the application it runs are not configuration: a
	// command under verify may itself run gctune.
	envNames := map[string]bool{}
	for k := range known {
		envNames[envName(k)] = true
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, envPrefix+"_") && !envNames[name] && !verify.IsRunEnv(name) {
			if hint := didYouMean(nearestNames(name, slices.Collect(maps.Keys(envNames))), nil); hint != "" {
				return Config{}, usageErrorf("config: unknown environment variable %s%s", name, hint)
			}
			return Config{}, usageErrorf("config: unknown environment variable %s (known: %s)", name, strings.Join(similarEnvNames(name, envNames), ", "))
		}
	}
	v.SetEnvPrefix(envPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()

	var bindErr error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if keys := f.Annotations[configKeyAnnotation]; len(keys) == 1 && bindErr == nil {
			bindErr = v.BindPFlag(keys[0], f)
		}
	})
	if bindErr != nil {
		return Config{}, fmt.Errorf("config: %w", bindErr)
	}

	var cfg Config
	if err := v.UnmarshalExact(&cfg.Config, decodeHook()); err != nil {
		if bad := badValue(cmd, v, source); bad != nil {
			return Config{}, bad
		}
		// A simulate tunable's value is parsed once, by config.DecodeTunables while decoding;
		// the one it refused is named with where it came from, as badValue does for typed keys.
		if te, ok := errors.AsType[*config.TunableError](err); ok {
			te.Origin = valueOrigin(cmd, te.Key, source)
			return Config{}, &UsageError{Err: te}
		}
		if source == "" {
			source = "(defaults, environment and flags)"
		}
		if mentionsStorage(err.Error(), v.Get(storageKey)) {
			return Config{}, usageErrorf("config %s: %s: cannot use this value (not shown: it may hold a password)", source, storageKey)
		}
		return Config{}, usageErrorf("config %s: %w", source, err)
	}
	if f := cmd.Flags().Lookup("no-rebuild"); f != nil && f.Changed && f.Value.String() == "true" {
		cfg.Lifetimes.Rebuild = filip.HypothesisOff
	}
	if err := cfg.Validate(); err != nil {
		// The key refused is named with where its value came from (its flag, its variable,
		// the file), as badValue does for a value that does not decode.
		if ke, ok := errors.AsType[*config.KeyError](err); ok {
			if origin := valueOrigin(cmd, ke.Key, source); origin != "default" {
				ke.Origin = origin
			}
		}
		return Config{}, &UsageError{Err: err}
	}
	if cfg.given, err = readGivenInput(cmd); err != nil {
		return Config{}, err
	}
	cfg.Storage = resolveStorage(cfg.Storage)
	return cfg, nil
}

// decodeHook is config.DecodeHook as a viper option: the one place a configured value's text
// is parsed (sizes, durations, the tunables, the clock, rebuild mode, aggregate and statistic).
func decodeHook() viper.DecoderConfigOption {
	return viper.DecodeHook(config.DecodeHook())
}

// envPrefix starts the environment variables that set config keys.
const envPrefix = "GCTUNE"

// envName is the environment variable that sets key: GCTUNE_ and the key in upper case, dots
// as underscores ("lifetimes.clock" → GCTUNE_LIFETIMES_CLOCK).
func envName(key string) string {
	return envPrefix + "_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// similarEnvNames lists the known variables of the section name seems to belong to
// (GCTUNE_LIFETIMES_* for GCTUNE_LIFETIMES_THRESHOLD), or all of them when none matches.
func similarEnvNames(name string, known map[string]bool) []string {
	all := slices.Sorted(maps.Keys(known))
	var same []string
	for _, k := range all {
		section, _, _ := strings.Cut(strings.TrimPrefix(k, envPrefix+"_"), "_")
		if strings.HasPrefix(name, envPrefix+"_"+section+"_") || name == envPrefix+"_"+section {
			same = append(same, k)
		}
	}
	if len(same) == 0 {
		return all
	}
	return same
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

func quoteJoin(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = fmt.Sprintf("%q", k)
	}
	return strings.Join(q, ", ")
}
