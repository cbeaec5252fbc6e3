// Package trialattr is what gctune writes on a goptuna trial besides its parameters and value,
// and the questions every reader of a study asks of its trials.
//
// The attribute keys are defined here once: the user attributes the search writes on every
// evaluated trial (Feasible, the metrics, Slowdowns, Replicas, ...) and the system attribute
// the reaper writes on a trial it failed (Reaped). The readers are Infeasible and IsReaped on
// one trial, and on a study's trials Best (the best feasible trial) and ParetoFront (value
// against footprint).
//
// It imports goptuna and the number and byte formats (internal/numfmt, internal/units, for
// Metrics.Text) only: package search writes the attributes and counts its budget with
// them, package trialstore stores them (and reads Feasible in its listing queries), and the
// outputs (recommend, export, report, cmd/gctune) read them. search/tpe keeps its own copy of
// the Feasible key, to stay a standalone goptuna sampler; a test checks the two agree.
package trialattr
