// Package config is gctune's configuration: the keys of config.yaml as typed sections
// (Config: workload, lifetimes, simulate, storage, cost, search, uncertainty, provenance),
// their built-in defaults (Default, the values config.yaml writes) and Validate, which checks
// each key with the validator of the package that uses the value (lifetimes, heapsim, search,
// objective, recommend, uncertainty) and words its refusal with the key and the value.
//
// The uncertainty section is uncertainty.Model itself (its mapstructure tags are the keys),
// with the switch that turns it off and the statistic.
//
// Load reads the configuration a command runs with, in layers: the defaults, the file
// (./gctune.yaml, or the one named: DefaultFile, MaxFileBytes), GCTUNE_* environment variables
// (EnvName) and the flags bound to keys (BindFlag), with viper. It decodes strictly, with
// DecodeHook, the one place a configured value's text is parsed (the simulate section's
// tunables into their tunable.Value by DecodeTunables, gctune's own types by DecodeValues),
// and validates. One walk of the keys' mapstructure tags (Leaves) gives the defaults' layer,
// the known keys and variables, and the type a refused value is decoded alone into to name
// it; each refusal is a *LoadError of one line naming the key, the value (never the
// storage's, which may hold a password) and where it came from. Load takes a pflag.FlagSet,
// not a command: the package does not import cobra.
package config
