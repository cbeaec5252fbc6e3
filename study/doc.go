// Package study is what a gctune study is, apart from where it is stored (package studies)
// and the command line: the problem a study stores (Problem: the workloads by reference and
// content fingerprint, the objective's settings, the space, the seeds, the VM facts, the cost
// and uncertainty models), opening a new study's workloads (OpenWorkloads: a sampled export with
// missed large objects searched under two hypotheses), reopening a stored study's workloads
// and checking that none changed (ReopenWorkloads), creating a study (New, Create), loading its
// problem (Load), the objective a stored problem defines (Problem.Objective), and the
// recommendation stored with the study (Recommendation).
//
// Errors that are the user's to fix match ErrInput (and a sentinel naming the case where a
// caller may want to tell it apart); their messages are the ones the command line prints.
package study
