package trialstore

import (
	"errors"
	"fmt"
)

// SQLite's primary result codes that inWords words (sqlite3.h).
const (
	sqliteReadOnlyCode = 8
	sqliteIOErr        = 10
	sqliteFull         = 13
	sqliteCantOpen     = 14
)

// wordedError is a SQLite error with a message for people in place of the driver's ("disk
// I/O error (4874)"), keeping the error in its chain (its Code, ErrCorrupt's test).
type wordedError struct {
	msg string
	err error
}

func (e *wordedError) Error() string { return e.msg }
func (e *wordedError) Unwrap() error { return e.err }

// inWords returns err, a SQLite error about the disk or the file, with its message in words:
// what happened and what to check. Other errors come back as they are.
func inWords(err error) error {
	var coded interface{ Code() int }
	if !errors.As(err, &coded) {
		return err
	}
	var what string
	switch coded.Code() & sqliteCodeMask {
	case sqliteIOErr:
		what = "the disk refused a read or write (is it full, or a file size limit, ulimit -f, reached?)"
	case sqliteFull:
		what = "the disk is full"
	case sqliteCantOpen:
		what = "cannot open the file or the files SQLite keeps beside it (check the folder's permissions and free space)"
	case sqliteReadOnlyCode:
		what = "the file or its folder is read-only"
	default:
		return err
	}
	return &wordedError{msg: fmt.Sprintf("%s (SQLite error %d)", what, coded.Code()), err: err}
}
