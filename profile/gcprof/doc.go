// Package gcprof is gctune's compact binary profile format (.gcprof): a profile.Profile as it
// lies in memory, columns and all, so that a 10 M-record profile loads in a fraction of a
// second. Write and Save write one, Read and Load read one back and
// check it (the record totals, the profile's invariants). The layout is in binary.go.
package gcprof
