package trialstore

import (
	"errors"
	"strings"
)

// ErrDamagedStudy: a study's stored rows are not what gctune wrote: a trial value or
// parameter that is not a number, an unknown trial state, a distribution that does not decode,
// or a record gctune keeps with the study whose chunk count, hash or JSON is wrong (marked by
// the package that owns the record, with Damaged). Test with errors.Is, or IsDamaged.
var ErrDamagedStudy = errors.New("trialstore: study data is damaged")

// damagedError marks an error of reading a study's rows as ErrDamagedStudy, keeping its
// message and chain.
type damagedError struct{ err error }

func (e *damagedError) Error() string   { return e.err.Error() }
func (e *damagedError) Unwrap() []error { return []error{ErrDamagedStudy, e.err} }

// damaged marks err as ErrDamagedStudy (nil stays nil).
func damaged(err error) error {
	if err == nil {
		return nil
	}
	return &damagedError{err: err}
}

// scanErrorPrefix starts database/sql's message for a stored value that does not convert
// to its column's Go type (text in a REAL column): the error has no type of its own.
const scanErrorPrefix = "sql: Scan error on column"

// IsDamaged reports whether err says that the database file or a study in it is damaged:
// it matches ErrCorrupt or ErrDamagedStudy, or holds anywhere in its chain a SQLite error
// whose code says the file is corrupt or not a database ("database disk image is
// malformed"), or database/sql's error for a stored value that does not convert. Such an
// error is the user's file to repair, not a bug (the command line exits 2 for it).
func IsDamaged(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrCorrupt) || errors.Is(err, ErrDamagedStudy) {
		return true
	}
	found := false
	walkErrors(err, func(e error) bool {
		if coded, ok := e.(interface{ Code() int }); ok {
			if c := coded.Code() & sqliteCodeMask; c == sqliteCorrupt || c == sqliteNotADB {
				found = true
			}
		}
		if strings.HasPrefix(e.Error(), scanErrorPrefix) {
			found = true
		}
		return !found
	})
	return found
}

// walkErrors calls visit on err and every error it wraps (Unwrap() error and Unwrap()
// []error), depth first, until visit returns false.
func walkErrors(err error, visit func(error) bool) bool {
	if err == nil {
		return true
	}
	if !visit(err) {
		return false
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return walkErrors(u.Unwrap(), visit)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if !walkErrors(e, visit) {
				return false
			}
		}
	}
	return true
}

// Damaged marks err as ErrDamagedStudy (nil stays nil): for a record that decoded but holds
// a value gctune never writes, found by the package that knows the record's rules.
func Damaged(err error) error { return damaged(err) }

// SQLite's result codes for a file that is not a database or a damaged one.
const (
	sqliteCorrupt  = 11 // SQLITE_CORRUPT
	sqliteNotADB   = 26 // SQLITE_NOTADB
	sqliteCodeMask = 0xff
)

// corrupt makes err also match ErrCorrupt when SQLite says the file is damaged or not a
// database.
func corrupt(err error) error {
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		if c := coded.Code() & sqliteCodeMask; c == sqliteCorrupt || c == sqliteNotADB {
			return &corruptError{err: err}
		}
	}
	return err
}

type corruptError struct{ err error }

func (e *corruptError) Error() string { return e.err.Error() }

func (e *corruptError) Unwrap() []error { return []error{ErrCorrupt, e.err} }
