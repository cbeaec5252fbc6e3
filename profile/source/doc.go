// Package source opens a profile by reference, whatever its kind: a bundled workload's name,
// a workload spec (.yaml, .yml), a FiLiP / Illimani export (.csv with its .json, rebuilt when
// sampled) or a .gcprof file (Open), and hashes what a reference would open without opening
// it (Fingerprint), so that a stored result can be reused. OpenContext opens a reference that
// may be a stream (standard input "-", a pipe, a FIFO, a file whose name does not say its
// kind, read by its content: stream.go), given up when its context is done. CountWorkloads
// lists the bundled workloads with the records each generates. It is the one package that
// imports every reader (profile/spec, profile/filip, profile/gcprof); the
// commands open their inputs through it.
package source
