// Package config is gctune's configuration: the keys of config.yaml as typed sections
// (Config: workload, lifetimes, simulate, storage, cost, search, uncertainty, provenance),
// their built-in defaults (Default, the values config.yaml writes) and Validate, which checks
// each key with the validator of the package that uses the value (lifetimes, heapsim, search,
// objective, recommend, uncertainty) and words its refusal with the key and the value.
//
// The uncertainty section is uncertainty.Model itself (its mapstructure tags are the keys),
// with the switch that turns it off and the statistic. Loading the configuration (the file,
// GCTUNE_* variables, flags) is the command line's (cmd/gctune, with viper): this package
// imports neither viper nor cobra. It gives that loader the decode hook DecodeTunables, which
// parses the simulate section's tunables into their tunable.Value once, while decoding
// (Tunables): nothing reads them as text after that.
package config
