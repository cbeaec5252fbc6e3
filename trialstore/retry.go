package trialstore

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"syscall"
	"time"
)

// RetryPolicy bounds how often and how patiently an operation that failed with a transient
// database error (IsTransient) is tried again: Attempts tries in all, waiting Initial after the
// first failure, then Multiplier times longer each time up to Max, each wait varied by ±Jitter
// (a fraction) so that workers that lost the database together do not come back in step.
// The zero value is DefaultRetryPolicy().
type RetryPolicy struct {
	// Attempts is the number of tries, the first included; below 1, DefaultRetryAttempts.
	Attempts int
	// Initial is the first wait; zero means 100 ms.
	Initial time.Duration
	// Max caps one wait; zero means 5 s.
	Max time.Duration
	// Multiplier grows the wait; below 1 means 2.
	Multiplier float64
	// Jitter varies each wait by up to ± this fraction; zero means 0.2, negative none.
	Jitter float64
	// OnRetry, when set, is called before each wait with the operation, the attempt that
	// failed (1 for the first), the wait and the error. It must be safe for concurrent use.
	OnRetry func(op string, attempt int, wait time.Duration, err error)
	// After, when set, is how a wait is made: a channel that receives once the duration has
	// passed (a fake clock's, in tests). Nil means time.After.
	After func(time.Duration) <-chan time.Time
}

// DefaultRetryAttempts is DefaultRetryPolicy's number of attempts: with its waits (0.1, 0.2,
// 0.4, 0.8, 1.6, 3.2, 5, 5, 5 s, ±20 %) an operation gives up after about 21 s without the
// database, time enough for a PostgreSQL restart or fail-over.
const DefaultRetryAttempts = 10

// DefaultRetryPolicy returns what RetryPolicy's zero value means.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{Attempts: DefaultRetryAttempts, Initial: 100 * time.Millisecond,
		Max: 5 * time.Second, Multiplier: 2, Jitter: 0.2}
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	def := DefaultRetryPolicy()
	if p.Attempts < 1 {
		p.Attempts = def.Attempts
	}
	if p.Initial <= 0 {
		p.Initial = def.Initial
	}
	if p.Max <= 0 {
		p.Max = def.Max
	}
	if p.Max < p.Initial {
		p.Max = p.Initial
	}
	if p.Multiplier < 1 {
		p.Multiplier = def.Multiplier
	}
	switch {
	case p.Jitter == 0:
		p.Jitter = def.Jitter
	case p.Jitter < 0:
		p.Jitter = 0
	}
	p.Jitter = min(p.Jitter, 1)
	return p
}

// Backoff returns the wait after failed attempt n (1 for the first), without jitter.
func (p RetryPolicy) Backoff(n int) time.Duration {
	p = p.withDefaults()
	d := float64(p.Initial)
	for i := 1; i < n && d < float64(p.Max); i++ {
		d *= p.Multiplier
	}
	return time.Duration(min(d, float64(p.Max)))
}

// MaxElapsed returns the longest time the waits of one operation add up to (jitter at its
// largest), attempts themselves not counted.
func (p RetryPolicy) MaxElapsed() time.Duration {
	p = p.withDefaults()
	var total time.Duration
	for n := 1; n < p.Attempts; n++ {
		total += p.Backoff(n)
	}
	return time.Duration(float64(total) * (1 + p.Jitter))
}

func (p RetryPolicy) wait(n int) time.Duration {
	d := float64(p.Backoff(n))
	if p.Jitter > 0 {
		d *= 1 + p.Jitter*(2*rand.Float64()-1)
	}
	return time.Duration(d)
}

// RetryError is the error of an operation that failed with transient errors on every one of
// its attempts. It matches ErrUnreachable and unwraps to the last error.
type RetryError struct {
	Op       string
	Attempts int
	Elapsed  time.Duration
	Err      error
}

func (e *RetryError) Error() string {
	return fmt.Sprintf("trialstore: database unavailable: %s failed %s in %s, giving up: %v",
		e.Op, plural(e.Attempts, "time"), e.Elapsed.Round(100*time.Millisecond), e.Err)
}

// Unwrap returns ErrUnreachable and the last error.
func (e *RetryError) Unwrap() []error { return []error{ErrUnreachable, e.Err} }

// Retry calls f until it succeeds, fails with an error that is not transient (IsTransient),
// or has failed policy.Attempts times, waiting between attempts as the policy says; f learns
// whether it is being retried. An error that is not transient is returned unchanged, so that
// callers can compare it; giving up returns a *RetryError. A done ctx stops the waiting: the
// last error is then returned as a *RetryError.
func Retry(ctx context.Context, policy RetryPolicy, op string, f func(retry bool) error) error {
	p := policy.withDefaults()
	start := time.Now()
	for attempt := 1; ; attempt++ {
		err := f(attempt > 1)
		if err == nil || !IsTransient(err) {
			return err
		}
		if attempt >= p.Attempts || ctx.Err() != nil {
			return &RetryError{Op: op, Attempts: attempt, Elapsed: time.Since(start), Err: err}
		}
		wait := p.wait(attempt)
		if p.OnRetry != nil {
			p.OnRetry(op, attempt, wait, err)
		}
		if p.After == nil {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return &RetryError{Op: op, Attempts: attempt, Elapsed: time.Since(start), Err: err}
			case <-t.C:
			}
			continue
		}
		select {
		case <-ctx.Done():
			return &RetryError{Op: op, Attempts: attempt, Elapsed: time.Since(start), Err: err}
		case <-p.After(wait):
		}
	}
}

// transientSQLStates are the PostgreSQL error codes worth retrying: the connection exceptions
// (class 08, matched by prefix), the server shutting down or starting (57P01 admin shutdown,
// 57P02 crash shutdown, 57P03 cannot connect now), too many connections (53300), and
// transaction conflicts (40001 serialization failure, 40P01 deadlock, 55P03 lock not
// available).
var transientSQLStates = map[string]bool{
	"57P01": true, "57P02": true, "57P03": true, "53300": true,
	"40001": true, "40P01": true, "55P03": true,
}

// transientMessages are substrings (lower case) of the messages of transient errors whose
// types say nothing: what drivers wrap in plain errors.
var transientMessages = []string{
	"connection refused",
	"connection reset",
	"broken pipe",
	"the database system is starting up",
	"the database system is shutting down",
	"the database system is in recovery mode",
	"the database system is not yet accepting connections",
	"terminating connection due to administrator command",
	"server closed the connection unexpectedly",
	"no connection to the server",
	"unexpected eof",
	"conn closed",
	"bad connection",
	"i/o timeout",
	"database is locked",
	"database table is locked",
	"sqlite_busy",
	"sqlite_locked",
}

// IsTransient reports whether err is a database error that may go away if the operation is
// tried again: the server unreachable or refusing connections, a connection broken mid-way
// (io.EOF, driver.ErrBadConn, a reset), PostgreSQL starting up, shutting down or terminating
// connections ("terminating connection due to administrator command"), a serialization
// failure or deadlock, SQLite's "database is locked" (SQLITE_BUSY) past its busy timeout.
// A PostgreSQL error with any other SQLSTATE (a bad password, a missing database or table, a
// constraint violation), a cancelled context, goptuna's own errors and every other error are
// not transient.
func IsTransient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	var pg interface{ SQLState() string }
	if errors.As(err, &pg) {
		code := pg.SQLState()
		return strings.HasPrefix(code, "08") || transientSQLStates[code]
	}
	var lite interface{ Code() int }
	if errors.As(err, &lite) {
		switch lite.Code() & 0xff {
		case 5, 6: // SQLITE_BUSY, SQLITE_LOCKED
			return true
		}
	}
	var safe interface{ SafeToRetry() bool }
	if errors.As(err, &safe) && safe.SafeToRetry() {
		return true
	}
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	msg := strings.ToLower(err.Error())
	for _, m := range transientMessages {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}
