package main

import (
	"errors"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/gctune/gctune/config"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/trialstore"
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

// loadConfig loads the configuration for cmd (config.Load: the defaults, the file configFile
// or ./gctune.yaml, GCTUNE_* variables, cmd's bound flags; --no-rebuild), with what the command
// line says of the FiLiP exports, and resolves the study database (trialstore.Resolve). The
// configuration's faults are usage errors (exit code 2).
func loadConfig(cmd *cobra.Command, configFile string) (Config, error) {
	c, err := config.Load(cmd.Context(), config.Sources{File: configFile, Flags: cmd.Flags(), IgnoreEnv: verify.IsRunEnv,
		Adjust: func(c *config.Config) {
			if f := cmd.Flags().Lookup("no-rebuild"); f != nil && f.Changed && f.Value.String() == "true" {
				c.Lifetimes.Rebuild = filip.HypothesisOff
			}
		}})
	if ie := interruptedInput(err); ie != nil {
		return Config{}, ie
	}
	if _, ok := errors.AsType[*config.LoadError](err); ok {
		return Config{}, &cmdutil.UsageError{Err: err}
	}
	if err != nil {
		return Config{}, err
	}
	cfg := Config{Config: c}
	if cfg.given, err = readGivenInput(cmd); err != nil {
		return Config{}, err
	}
	cfg.Storage = trialstore.Resolve(cfg.Storage)
	return cfg, nil
}

// decodeHook is config.DecodeHook as a viper option.
func decodeHook() viper.DecoderConfigOption { return viper.DecodeHook(config.DecodeHook()) }
