// Package search finds the GC parameters that minimise an objective.Problem.
//
// It searches the space of package tunable (new-space size, growth headroom and shrink
// threshold on log scales, the full GC ratio on a log scale, survivors as the tenuring
// proportion p with p ≥ 1 meaning "keep all"), given to goptuna as distributions. It owns the
// samplers (gctune's own TPE from package search/tpe, goptuna's CMA-ES, random), the seeding
// and constraining of a search from the workload's lifetime Summary, and the optimisation loop
// with parallel workers and progress reported through an injected Recorder. Optimize is
// gonum-style: the problem (objective.Problem), the method (the sampler Settings names),
// Settings whose zero values all mean something, and a Result (best trial, trials run and
// finished, Status).
//
// It is the only package that imports goptuna's samplers. It runs trials through a
// goptuna.Storage it is given and never touches SQL or files: opening storage, heartbeats and
// stale-trial recovery belong to package trialstore, and package session drives them around
// Optimize (Settings.OnTrialStart is its heartbeat hook). It does not import trialstore: the
// attributes it writes on each trial, the reaped marker its budget skips and the best trial
// of its Result are package trialattr's.
package search
