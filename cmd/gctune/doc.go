// Command gctune finds the generational-GC parameters that make one Pharo application fast,
// from the application's object-lifetime profile.
//
// Usage:
//
//	gctune workloads                       list the bundled workloads
//	gctune lifetimes WORKLOAD|PROFILE      analyse a profile's object lifetimes
//	gctune version                         print the version
//	gctune completion bash|zsh|fish|powershell
//
// The commands are thin: each has one NewXCmd constructor returning a *cobra.Command whose
// RunE loads the configuration (rootOptions.withConfig), builds the command's options struct
// (xOptions) from its arguments and flags and calls its run function,
// runX(ctx, w, ew, cfg, o), which checks the options, calls the packages and prints. The
// commands that run a study or a simulation take that function as runF (runfunc.go; nil: their
// own runX), so a test sees the options the flags give without running the command, and
// another calls runX without the command line. The logic lives in the packages
// (lifetimes, heapsim, study, ...). A flag that sets a config key is declared with
// cmdutil.AddBoundFlag, the shared ones by their helpers in flags.go; a command on a stored study opens
// it with openStudy (studyopen.go) and rebuilds its objective with study.Problem.ReopenObjective,
// a new one is made by createNewStudy. Package study's input errors (study.ErrInput) exit 2,
// as cmdutil.UsageError does.
//
// Configuration: package config holds the keys (config.Config), the built-in defaults and
// their checks, and loads them (config.Load, which configload.go calls with the command's
// flags). The repository's config.yaml documents every key and holds the built-in defaults.
// Values come from those defaults, then the config file (--config FILE, else ./gctune.yaml
// when present; a config.yaml only when named), then GCTUNE_* environment variables (the key
// in upper case, dots as underscores: GCTUNE_LIFETIMES_LONG_LIVED_THRESHOLD), then the flags
// bound to keys (cmdutil.BindFlag), into one typed Config checked by Config.Validate. Unknown
// keys in the file, and GCTUNE_ variables naming no key, are refused with their name. Each
// load has its own viper instance.
//
// Output: text for people, or with --json a stable JSON document. Errors are printed by main
// as one line on stderr, "gctune: <message>". Exit codes: 0 success; 2 for usage and input
// errors (flags, arguments, configuration, unknown workload, unreadable or malformed input:
// // cmdutil.UsageError); 1 for any other failure; 130 after SIGINT or SIGTERM. Output files are
// written through internal/outfile: a temporary file renamed, never left half-written.
package main
