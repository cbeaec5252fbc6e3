// Package verify runs the user's real application under the default GC parameters and under
// the configurations gctune recommends, and measures the speedup: the end of the papers'
// method, where a prediction meets the machine.
//
// Session runs one warm-up of each configuration, then N rounds; each round runs every
// configuration once, in an order that alternates from round to round (default, best, ... then
// ..., best, default), so that slow drift of the machine (thermal, caches, other load) falls on
// both sides alike. Each run gets its configuration as environment variables (GCTUNE_EDEN_FLAG,
// GCTUNE_ST, GCTUNE_CONFIG) and as the placeholders {eden} and {st} in its arguments. The wall
// time of each run is measured around the process; a "gctune-stats {json}" line on its
// standard output adds the GC figures Pharo measured.
//
// The speedup of a configuration is the geometric mean, over rounds, of the default run's time
// over the configuration's run time in the same round; its 95 % interval is a Student t
// interval on those paired log ratios (exp of mean ± t(0.975, n−1)·sd/√n). Runs whose times
// vary by more than WildCV (coefficient of variation) are called out.
//
// Measure runs a plan and stores every run in the study as soon as it finishes (MeasuredRun,
// in study system attributes: SaveMeasuredRun, MeasuredRuns), then sums up the session;
// DefaultMeasurement and the report read the stored runs back.
//
// Processes run through a Runner; ExecRunner starts each in its own process group, ends it at
// the timeout or when the context is cancelled by killing the group, and keeps the last lines
// of its standard error for the failure report. Tests inject their own Runner.
package verify
