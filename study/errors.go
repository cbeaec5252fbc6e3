package study

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gctune/gctune/trialstore"
)

// ErrInput is matched (errors.Is) by every error this package returns that is the user's to
// fix: a workload that cannot be opened or changed since the study began, a study without a
// stored problem, a flag that contradicts the study. The command line exits with code 2 for
// it. The errors' messages are the ones the command prints, and the sentinels below name
// the cases a caller may want to tell apart.
var ErrInput = errors.New("study: bad input")

// Sentinels for the input errors a caller may tell apart; each error matching one also
// matches ErrInput.
var (
	// ErrNoProblem: the study was not created by gctune (no problem stored).
	ErrNoProblem = errors.New("study: no problem stored")
	// ErrWorkloadChanged: a workload's fingerprint differs from the study's.
	ErrWorkloadChanged = errors.New("study: workload changed")
	// ErrClockMismatch: --clock differs from the clock the study read a FiLiP export with.
	ErrClockMismatch = errors.New("study: clock differs from the study's")
	// ErrMetaForMany: one metadata file (--meta) given for several workloads.
	ErrMetaForMany = errors.New("study: one metadata file for several workloads")
	// ErrNoCandidate: the study has no completed feasible trial to recommend.
	ErrNoCandidate = errors.New("study: no completed feasible trial")
)

// inputError is an error that is the user's to fix, of kind (a sentinel above, or nil), with
// err's message word for word.
type inputError struct {
	kind error
	err  error
}

func (e *inputError) Error() string { return e.err.Error() }

func (e *inputError) Unwrap() error { return e.err }

// Is matches ErrInput, and the error's kind.
func (e *inputError) Is(target error) bool {
	return target == ErrInput || (e.kind != nil && target == e.kind)
}

// inputErrorf formats an input error of kind (%w wraps as in fmt.Errorf).
func inputErrorf(kind error, format string, args ...any) error {
	return &inputError{kind: kind, err: fmt.Errorf(format, args...)}
}

// asInput marks err as the user's to fix (nil stays nil).
func asInput(err error) error {
	if err == nil || errors.Is(err, ErrInput) {
		return err
	}
	return &inputError{err: err}
}

// ErrDamagedRecord is matched (errors.Is) by an error that says a record read from a study
// decoded but holds a value gctune never writes (its stored recommendation with an eden of
// 1e300 bytes): the error also matches trialstore.ErrDamagedStudy (exit code 2), names the
// record and says how to go on.
var ErrDamagedRecord = errors.New("study: damaged record")

// recordError is an error of kind ErrDamagedRecord with err's message word for word, the
// placeholder STUDY in it replaced by the study's name once known (nameStudy).
type recordError struct {
	err   error
	study string
}

func (e *recordError) Error() string {
	if e.study == "" {
		return e.err.Error()
	}
	return strings.ReplaceAll(e.err.Error(), "gctune resume STUDY", "gctune resume "+e.study)
}

// nameStudy names study name in err's how-to-go-on, when err is a damaged record's.
func nameStudy(err error, name string) error {
	var re *recordError
	if errors.As(err, &re) {
		re.study = name
	}
	return err
}

// NameStudy is nameStudy for the command line, which reads a stored record itself (studies
// show).
func NameStudy(err error, name string) error { return nameStudy(err, name) }

func (e *recordError) Unwrap() error { return e.err }

// Is matches ErrDamagedRecord.
func (e *recordError) Is(target error) bool { return target == ErrDamagedRecord }

// damagedRecordf formats a damaged record's error, matching ErrDamagedRecord and
// trialstore.ErrDamagedStudy.
func damagedRecordf(format string, args ...any) error {
	return trialstore.Damaged(&recordError{err: fmt.Errorf(format, args...)})
}
