package cmdutil

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gctune/gctune/export"
	"github.com/gctune/gctune/trialstore"
)

// SQLite's result codes StoreOpenError words: a file that is not a database, or a damaged one.
const (
	sqliteCorruptCode = 11 // SQLITE_CORRUPT
	sqliteNotADBCode  = 26 // SQLITE_NOTADB
)

// StoreOpenError words an error of opening the study database at url for the user, leaving
// its chain (errors.Is, the exit code) as it is:
//   - a file SQLite cannot read as a database says that it is not a gctune study database,
//     and a damaged one that it is damaged, without SQLite's result code ("file is not a
//     database (26)");
//   - a refused PostgreSQL connection names each dial error once (pgx tries the server once
//     with TLS and once without, and joins the two identical errors).
//
// Any other error is returned as it is.
func StoreOpenError(url string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, trialstore.ErrCorrupt) {
		var coded interface{ Code() int }
		if errors.As(err, &coded) {
			switch coded.Code() & 0xff {
			case sqliteNotADBCode:
				return &rewordedError{msg: fmt.Sprintf("%s is not a gctune study database (not a SQLite file at all)", export.Quote(url)), err: err}
			case sqliteCorruptCode:
				return &rewordedError{msg: fmt.Sprintf("%s: the study database is damaged (SQLite reads it as malformed)", export.Quote(url)), err: err}
			}
		}
		return err
	}
	var ce *pgconn.ConnectError
	if !errors.As(err, &ce) {
		return err
	}
	joined, ok := ce.Unwrap().(interface{ Unwrap() []error })
	if !ok {
		return err
	}
	var parts []string
	for _, e := range joined.Unwrap() {
		if m := e.Error(); !slices.Contains(parts, m) {
			parts = append(parts, m)
		}
	}
	full := ce.Error()
	prefix, _, found := strings.Cut(full, "`:")
	if !found || len(parts) == len(joined.Unwrap()) {
		return err
	}
	once := prefix + "`: " + strings.Join(parts, "; ")
	return &rewordedError{msg: strings.Replace(err.Error(), full, once, 1), err: err}
}

// rewordedError is an error with a message of its own and the chain of the error it words.
type rewordedError struct {
	msg string
	err error
}

func (e *rewordedError) Error() string { return e.msg }
func (e *rewordedError) Unwrap() error { return e.err }
