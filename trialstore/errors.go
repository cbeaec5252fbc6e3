package trialstore

import (
	"errors"
	"fmt"
	"io/fs"
)

// Errors Open, CreateStudy and LoadStudy wrap; test with errors.Is.
var (
	// ErrNoDatabase: OpenOptions.MustExist was set and the SQLite file does not exist. Such
	// errors also match fs.ErrNotExist.
	ErrNoDatabase = errors.New("trialstore: database does not exist")
	// ErrUnreachable: the database server could not be reached or refused the connection.
	ErrUnreachable = errors.New("trialstore: database unreachable")
	// ErrStudyExists: CreateStudy was asked for a name that is taken.
	ErrStudyExists = errors.New("trialstore: study already exists")
	// ErrNoStudy: no study has the name asked for.
	ErrNoStudy = errors.New("trialstore: no such study")
	// ErrStudyRunning: DeleteStudy without force found RUNNING trials.
	ErrStudyRunning = errors.New("trialstore: study has running trials")
	// ErrNotStudies: the database lacks gctune's schema, and OpenOptions.ReadOnly was set or
	// the SQLite file has tables of another program.
	ErrNotStudies = errors.New("trialstore: not a gctune study database")
	// ErrCorrupt: the SQLite file is not a database, or a damaged one.
	ErrCorrupt = errors.New("trialstore: database file is damaged or not a database")
)

// sentinelError is an error with its own message that matches a sentinel.
type sentinelError struct {
	msg string
	is  error
}

func (e *sentinelError) Error() string { return e.msg }

func (e *sentinelError) Unwrap() error { return e.is }

// pathError is the error of Open with MustExist on a missing file.
type pathError struct {
	msg  string
	path string
}

func (e *pathError) Error() string { return e.msg }

func (e *pathError) Unwrap() []error { return []error{ErrNoDatabase, fs.ErrNotExist} }

// unreachableError is Open's error for a database server it cannot reach.
type unreachableError struct {
	url string
	err error
}

func (e *unreachableError) Error() string {
	return fmt.Sprintf("trialstore: cannot connect to %s: %v", e.url, e.err)
}

func (e *unreachableError) Unwrap() []error { return []error{ErrUnreachable, e.err} }

// plural is "1 table", "2 tables".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
