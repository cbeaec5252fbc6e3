// Package gcprof is gctune's compact binary profile format (.gcprof): a profile.Profile as it
// lies in memory, columns and all, so that a 10 M-record profile loads in a fraction of a
// second. WriteBinary and SaveProfile write one, ReadBinary and LoadProfile read one back and
// check it (the record totals, the profile's invariants). The layout is in binary.go.
package gcprof
