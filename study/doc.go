// Package study is what a gctune study is, apart from where it is stored (package trialstore,
// goptuna's storage) and the command line: the problem a study stores (Problem: the workloads
// by reference and content fingerprint, the objective's settings, the space, the seeds, the VM facts, the cost
// and uncertainty models), opening a new study's workloads (OpenWorkloads: a sampled export with
// missed large objects searched under two hypotheses), reopening a stored study's workloads
// and checking that none changed (ReopenWorkloads), creating a study (New, Create), loading its
// problem (Load), the objective a stored problem defines (Problem.Objective), and the
// recommendation stored with the study (Recommendation).
//
// The records gctune keeps with a study (the problem: SaveProblem; named documents such as the
// recommendation: SaveDoc, LoadDoc) are JSON in study system attributes, split into chunks
// with their count and SHA-256 by one codec (codec.go): a record that does not read back as it
// was written is an error matching trialstore.ErrDamagedStudy, whichever record it is.
//
// Errors that are the user's to fix match ErrInput (and a sentinel naming the case where a
// caller may want to tell it apart); their messages are the ones the command line prints.
package study
