// Package tunable is gctune's vocabulary of the five GC parameters it tunes: the one table of
// them (All: name, configuration key, label, VM parameter, unit, scale, default and valid
// bounds, when a change takes effect, and how each is read from and written to
// heapsim.Params), a configuration in their units (Point), the closed interval of each that a
// search explores (Space, Bounds), and one tunable's value as people write it ("64MiB", "10",
// "pharo"), parsed once (Value).
//
// Every list of the tunables in gctune derives from All: the search's dimensions (package
// search), the configuration's keys and the simulate flags (cmd/gctune), the exported VM
// parameters (package export), the recommendation's and the report's tables.
//
// It imports only heapsim and the byte-size and number-format utilities: it knows nothing of
// goptuna, of storage or of the search.
package tunable
