package trialstore

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/c-bata/goptuna"
	"gorm.io/gorm"

	"github.com/gctune/gctune/internal/pgtest"
)

// sqlStateError is an error with a PostgreSQL SQLSTATE, as pgconn.PgError.
type sqlStateError struct{ code, msg string }

func (e *sqlStateError) Error() string    { return fmt.Sprintf("%s (SQLSTATE %s)", e.msg, e.code) }
func (e *sqlStateError) SQLState() string { return e.code }

// sqliteError is an error with a SQLite result code, as the SQLite driver's.
type sqliteError struct{ code int }

func (e *sqliteError) Error() string { return fmt.Sprintf("sqlite error %d", e.code) }
func (e *sqliteError) Code() int     { return e.code }

func TestIsTransient(t *testing.T) {
	opErr := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"canceled", fmt.Errorf("query: %w", context.Canceled), false},
		{"deadline", fmt.Errorf("ping: %w", context.DeadlineExceeded), true},
		{"EOF", fmt.Errorf("read: %w", io.EOF), true},
		{"unexpected EOF", io.ErrUnexpectedEOF, true},
		{"bad conn", driver.ErrBadConn, true},
		{"dial refused", fmt.Errorf("failed to connect: %w", opErr), true},
		{"reset", fmt.Errorf("write: %w", syscall.ECONNRESET), true},
		{"admin shutdown", &sqlStateError{"57P01", "terminating connection due to administrator command"}, true},
		{"starting up", fmt.Errorf("connect: %w", &sqlStateError{"57P03", "the database system is starting up"}), true},
		{"connection failure", &sqlStateError{"08006", "connection failure"}, true},
		{"serialization", &sqlStateError{"40001", "could not serialize access"}, true},
		{"deadlock", &sqlStateError{"40P01", "deadlock detected"}, true},
		{"bad password", &sqlStateError{"28P01", "password authentication failed for user \"x\""}, false},
		{"no database", &sqlStateError{"3D000", "database \"nope\" does not exist"}, false},
		{"duplicate", &sqlStateError{"23505", "duplicate key value violates unique constraint"}, false},
		{"value too long", &sqlStateError{"22001", "value too long for type character varying(2048)"}, false},
		{"sqlite busy", &sqliteError{5}, true},
		{"sqlite busy snapshot", &sqliteError{5 | 2<<8}, true},
		{"sqlite locked", &sqliteError{6}, true},
		{"sqlite constraint", &sqliteError{19}, false},
		{"sqlite message", errors.New("database is locked (5) (SQLITE_BUSY)"), true},
		{"message refused", errors.New("dial tcp 127.0.0.1:5432: connect: connection refused"), true},
		{"message shutting down", errors.New("FATAL: the database system is shutting down"), true},
		{"trial cannot be updated", goptuna.ErrTrialCannotBeUpdated, false},
		{"record not found", gorm.ErrRecordNotFound, false},
		{"no study", ErrNoStudy, false},
		{"other", errors.New("boom"), false},
	} {
		if got := IsTransient(c.err); got != c.want {
			t.Errorf("%s: IsTransient(%v) = %v, want %v", c.name, c.err, got, c.want)
		}
	}
}

func TestRetryPolicyBackoff(t *testing.T) {
	p := RetryPolicy{}
	var got []time.Duration
	for n := 1; n < DefaultRetryAttempts; n++ {
		got = append(got, p.Backoff(n))
	}
	ms := time.Millisecond
	want := []time.Duration{100 * ms, 200 * ms, 400 * ms, 800 * ms, 1600 * ms, 3200 * ms, 5000 * ms, 5000 * ms, 5000 * ms}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("backoff %v, want %v", got, want)
	}
	if m := p.MaxElapsed(); m != time.Duration(float64(21300*ms)*1.2) {
		t.Errorf("MaxElapsed %v", m)
	}
	// The zero value is the default policy.
	def := DefaultRetryPolicy()
	if d := p.withDefaults(); d.Attempts != def.Attempts || d.Initial != def.Initial || d.Max != def.Max ||
		d.Multiplier != def.Multiplier || d.Jitter != def.Jitter {
		t.Errorf("zero value %+v, want %+v", d, def)
	}
	short := RetryPolicy{Attempts: 3, Initial: 10 * ms, Max: 15 * ms, Jitter: 0.5}
	for i := 0; i < 100; i++ {
		if w := short.withDefaults().wait(2); w < 7*ms || w > 23*ms {
			t.Fatalf("wait %v outside 15 ms ± 50 %%", w)
		}
	}
}

// fastPolicy retries quickly, for tests.
func fastPolicy(attempts int) RetryPolicy {
	return RetryPolicy{Attempts: attempts, Initial: time.Millisecond, Max: 4 * time.Millisecond}
}

func TestRetry(t *testing.T) {
	ctx := context.Background()
	transient := fmt.Errorf("query: %w", io.ErrUnexpectedEOF)

	// Succeeds on the third attempt; OnRetry sees each failure.
	var retries []int
	p := fastPolicy(5)
	p.OnRetry = func(op string, attempt int, wait time.Duration, err error) {
		if op != "op" || err != transient || wait <= 0 {
			t.Errorf("OnRetry(%q, %d, %v, %v)", op, attempt, wait, err)
		}
		retries = append(retries, attempt)
	}
	calls := 0
	var retryFlags []bool
	err := Retry(ctx, p, "op", func(retry bool) error {
		calls++
		retryFlags = append(retryFlags, retry)
		if calls < 3 {
			return transient
		}
		return nil
	})
	if err != nil || calls != 3 || fmt.Sprint(retries) != "[1 2]" || fmt.Sprint(retryFlags) != "[false true true]" {
		t.Errorf("err %v, calls %d, retries %v, flags %v", err, calls, retries, retryFlags)
	}

	// An error that is not transient comes back at once, unchanged.
	calls = 0
	err = Retry(ctx, fastPolicy(5), "op", func(bool) error { calls++; return goptuna.ErrTrialCannotBeUpdated })
	if err != goptuna.ErrTrialCannotBeUpdated || calls != 1 {
		t.Errorf("non-transient: err %v after %d calls", err, calls)
	}

	// Bounded: gives up after Attempts with a RetryError naming the operation.
	calls = 0
	err = Retry(ctx, fastPolicy(4), "SetTrialValue", func(bool) error { calls++; return transient })
	var re *RetryError
	if calls != 4 || !errors.As(err, &re) || re.Attempts != 4 || !errors.Is(err, ErrUnreachable) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("give up: %v after %d calls", err, calls)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "trialstore: database unavailable: SetTrialValue failed 4 times in ") ||
		!strings.HasSuffix(msg, ", giving up: query: unexpected EOF") {
		t.Errorf("message %q", msg)
	}

	// A done context stops the waiting.
	cctx, cancel := context.WithCancel(ctx)
	slow := RetryPolicy{Attempts: 100, Initial: time.Hour}
	calls = 0
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	began := time.Now()
	err = Retry(cctx, slow, "op", func(bool) error { calls++; return transient })
	if !errors.As(err, &re) || calls != 1 || time.Since(began) > 5*time.Second {
		t.Errorf("cancelled: %v after %d calls in %v", err, calls, time.Since(began))
	}
}

// flakyStorage makes chosen calls of an in-memory storage fail with a transient error, either
// before the call (the database never saw it) or after it (the answer was lost).
type flakyStorage struct {
	goptuna.Storage
	mu    sync.Mutex
	fail  map[string]int // method → failures left
	after bool           // fail after running the call
}

var errLost = fmt.Errorf("read: %w", io.ErrUnexpectedEOF)

func (f *flakyStorage) flake(op string, call func() error) error {
	f.mu.Lock()
	n := f.fail[op]
	if n > 0 {
		f.fail[op] = n - 1
	}
	f.mu.Unlock()
	if n == 0 {
		return call()
	}
	if f.after {
		_ = call()
	}
	return errLost
}

func (f *flakyStorage) SetTrialState(id int, s goptuna.TrialState) error {
	return f.flake("SetTrialState", func() error { return f.Storage.SetTrialState(id, s) })
}

func (f *flakyStorage) SetTrialValue(id int, v float64) error {
	return f.flake("SetTrialValue", func() error { return f.Storage.SetTrialValue(id, v) })
}

func (f *flakyStorage) GetAllTrials(id int) ([]goptuna.FrozenTrial, error) {
	var out []goptuna.FrozenTrial
	err := f.flake("GetAllTrials", func() error {
		var err error
		out, err = f.Storage.GetAllTrials(id)
		return err
	})
	return out, err
}

func TestRetryStorage(t *testing.T) {
	ctx := context.Background()
	// goptuna's rdb storage, whose refusals the wrapper knows (the in-memory one differs).
	mem := openT(t, filepath.Join(t.TempDir(), "flaky.db"), OpenOptions{NoCache: true}).RawStorage()
	sid, err := mem.CreateNewStudy("s")
	if err != nil {
		t.Fatal(err)
	}
	flaky := &flakyStorage{Storage: mem, fail: map[string]int{}}
	st := NewRetryStorage(ctx, flaky, fastPolicy(4))

	// Failures before the call: retried until it goes through.
	id, err := st.CreateNewTrial(sid)
	if err != nil {
		t.Fatal(err)
	}
	flaky.fail["SetTrialValue"] = 3
	flaky.fail["GetAllTrials"] = 2
	if err := st.SetTrialValue(id, 1.5); err != nil {
		t.Fatal(err)
	}
	trials, err := st.GetAllTrials(sid)
	if err != nil || len(trials) != 1 || trials[0].Value != 1.5 {
		t.Fatalf("GetAllTrials: %v %+v", err, trials)
	}

	// Too many failures: a RetryError.
	flaky.fail["GetAllTrials"] = 4
	if _, err := st.GetAllTrials(sid); !errors.Is(err, ErrUnreachable) {
		t.Errorf("4 failures of 4 attempts: %v", err)
	}
	flaky.fail["GetAllTrials"] = 0

	// Answers lost: finishing a trial is done once and reported done.
	flaky.after = true
	flaky.fail["SetTrialState"] = 1
	if err := st.SetTrialState(id, goptuna.TrialStateComplete); err != nil {
		t.Errorf("complete with the answer lost: %v", err)
	}
	if tr, _ := mem.GetTrial(id); tr.State != goptuna.TrialStateComplete {
		t.Errorf("state %v", tr.State)
	}
	// ... but a claim whose answer was lost is not taken for ours.
	wid, err := mem.CloneTrial(sid, goptuna.FrozenTrial{State: goptuna.TrialStateWaiting,
		Params: map[string]interface{}{}, Distributions: map[string]interface{}{}, InternalParams: map[string]float64{},
		UserAttrs: map[string]string{}, SystemAttrs: map[string]string{}, IntermediateValues: map[int]float64{}})
	if err != nil {
		t.Fatal(err)
	}
	flaky.fail["SetTrialState"] = 1
	if err := st.SetTrialState(wid, goptuna.TrialStateRunning); err != goptuna.ErrTrialCannotBeUpdated {
		t.Errorf("claim with the answer lost: %v, want ErrTrialCannotBeUpdated", err)
	}
	// Several attributes at once: inner has no batch write, so one by one.
	checkBatch(t, st, wid)
	// A refusal that is not the retry's own stays a refusal.
	if err := st.SetTrialState(id, goptuna.TrialStateFail); err != goptuna.ErrTrialCannotBeUpdated {
		t.Errorf("fail a complete trial: %v", err)
	}
}

// TestRetryStorageSQLiteLocked holds SQLite's write lock from another connection for longer
// than the busy timeout: writes fail with "database is locked", are retried, and go through
// once the lock is released.
func TestRetryStorageSQLiteLocked(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "locked.db")
	store := openT(t, path, OpenOptions{BusyTimeout: 20 * time.Millisecond})
	study := newStudy(t, store, "s", 1)
	holder := openT(t, path, OpenOptions{})

	locked := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- holder.DB().Transaction(func(tx *gorm.DB) error { // BEGIN IMMEDIATE: the write lock
			if err := tx.Exec("UPDATE studies SET study_name = study_name").Error; err != nil {
				return err
			}
			close(locked)
			<-release
			return nil
		})
	}()
	<-locked
	_, err := store.Storage().CreateNewTrial(study.ID)
	if err == nil || !IsTransient(err) {
		t.Fatalf("write under another's lock: %v, want a transient error", err)
	}
	var retries atomic.Int64
	p := RetryPolicy{Attempts: 20, Initial: 10 * time.Millisecond, Max: 50 * time.Millisecond,
		OnRetry: func(string, int, time.Duration, error) { retries.Add(1) }}
	go func() { time.Sleep(150 * time.Millisecond); close(release) }()
	st := NewRetryStorage(ctx, store.Storage(), p)
	id, err := st.CreateNewTrial(study.ID)
	if err != nil {
		t.Fatalf("retried write: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if retries.Load() == 0 {
		t.Error("the write was not retried")
	}
	checkBatch(t, st, id) // through the cache's one-statement write
	if n, err := st.GetTrialNumberFromID(id); err != nil || n != 0 {
		t.Errorf("trial number %d, %v; want 0 (the failed attempt made no trial)", n, err)
	}
}

// TestLongRetryStoragePostgresRestart restarts a real PostgreSQL server under a storage that keeps
// working: its calls fail with transient errors while the server is away and succeed once it
// is back. With the server stopped for good they give up, bounded. A missing database is not
// transient.
func TestLongRetryStoragePostgresRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("restarts a server")
	}
	srv := pgtest.StartServer(t)
	ctx := context.Background()
	store := openT(t, durable(srv.URL()), OpenOptions{})
	study := newStudy(t, store, "restart", 1)
	var retries atomic.Int64
	p := RetryPolicy{Attempts: 12, Initial: 50 * time.Millisecond, Max: time.Second,
		OnRetry: func(string, int, time.Duration, error) { retries.Add(1) }}
	st := NewRetryStorage(ctx, store.Storage(), p)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var calls atomic.Int64
	errs := make(chan error, 16)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				id, err := st.CreateNewTrial(study.ID)
				if err == nil {
					err = st.SetTrialValue(id, 1)
				}
				if err == nil {
					err = st.SetTrialState(id, goptuna.TrialStateComplete)
				}
				if err == nil {
					_, err = st.GetAllTrials(study.ID)
				}
				if err != nil {
					errs <- err
					return
				}
				calls.Add(1)
			}
		}()
	}
	time.Sleep(200 * time.Millisecond)
	srv.Restart(t)
	time.Sleep(300 * time.Millisecond)
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("through a restart: %v", err)
	}
	if retries.Load() == 0 {
		t.Error("no call was retried: did the restart happen?")
	}
	trials, err := st.GetAllTrials(study.ID)
	if err != nil {
		t.Fatal(err)
	}
	// A write whose answer was lost may leave an extra RUNNING trial (Reap's to fail); every
	// other trial is COMPLETE with its value, and the numbers are dense.
	running := 0
	for _, tr := range trials {
		switch {
		case tr.State == goptuna.TrialStateRunning:
			running++
		case tr.State != goptuna.TrialStateComplete || tr.Value != 1:
			t.Errorf("trial %d: %v %v", tr.Number, tr.State, tr.Value)
		}
	}
	if running > 4 {
		t.Errorf("%d trials left RUNNING", running)
	}
	seen := make([]bool, len(trials))
	for _, tr := range trials {
		if tr.Number < 0 || tr.Number >= len(trials) || seen[tr.Number] {
			t.Fatalf("trial numbers not dense: %d of %d", tr.Number, len(trials))
		}
		seen[tr.Number] = true
	}
	t.Logf("%d trials, %d retries, %d left running", len(trials), retries.Load(), running)

	// Server gone: bounded.
	srv.Stop(t)
	short := RetryPolicy{Attempts: 3, Initial: 20 * time.Millisecond}
	began := time.Now()
	_, err = NewRetryStorage(ctx, store.Storage(), short).GetAllTrials(study.ID)
	var re *RetryError
	if !errors.As(err, &re) || re.Attempts != 3 || !errors.Is(err, ErrUnreachable) {
		t.Errorf("server stopped: %v", err)
	}
	if d := time.Since(began); d > 10*time.Second {
		t.Errorf("gave up after %v", d)
	}
	srv.Restart(t)

	// Not transient: a database that does not exist.
	missing := strings.Replace(durable(srv.URL()), "/"+pgtest.Database+"?", "/nope?", 1)
	_, err = Open(ctx, missing, OpenOptions{})
	if err == nil || IsTransient(err) {
		t.Errorf("missing database: %v, want an error that is not transient", err)
	}
}

// durable asks the private server of url (which runs with synchronous_commit off, for speed)
// to make each commit durable before it is acknowledged, as PostgreSQL does by default: a
// server stopped at once (pgtest's Restart) then loses no committed transaction.
func durable(url string) string { return url + "&synchronous_commit=on" }

// checkBatch writes two user attributes of trial id at once through st and reads them back.
func checkBatch(t *testing.T, st goptuna.Storage, id int) {
	t.Helper()
	b, ok := st.(interface {
		SetTrialUserAttrs(trialID int, attrs map[string]string) error
	})
	if !ok {
		t.Fatal("the retrying storage has no SetTrialUserAttrs: search's loop would write attributes one by one")
	}
	if err := b.SetTrialUserAttrs(id, map[string]string{"a": "1", "b": "2"}); err != nil {
		t.Fatal(err)
	}
	got, err := st.GetTrialUserAttrs(id)
	if err != nil || got["a"] != "1" || got["b"] != "2" {
		t.Errorf("attributes %v, %v", got, err)
	}
}

// losingClaimer is a Store's Storage whose next claims and trial creations commit and then
// lose their answer.
type losingClaimer struct {
	goptuna.Storage
	claims, creates int
}

func (l *losingClaimer) ClaimWaitingTrial(id int, token string) (bool, error) {
	ok, err := l.Storage.(TrialClaimer).ClaimWaitingTrial(id, token)
	if err == nil && l.claims > 0 {
		l.claims--
		return ok, errLost
	}
	return ok, err
}

func (l *losingClaimer) CloneTrial(sid int, tr goptuna.FrozenTrial) (int, error) {
	id, err := l.Storage.CloneTrial(sid, tr)
	if err == nil && l.creates > 0 {
		l.creates--
		return -1, errLost
	}
	return id, err
}

// testClaimToken (a suite test: SQLite and PostgreSQL): on a Store's Storage, a trial creation
// or a claim whose commit went through but whose answer was lost is retried into the same
// trial (found by its AttrClaim token), not a second one; a claim another worker made is still
// refused.
func testClaimToken(t *testing.T, url string) {
	ctx := context.Background()
	store := openT(t, url, OpenOptions{})
	sid, err := store.Storage().CreateNewStudy("s")
	if err != nil {
		t.Fatal(err)
	}
	lose := &losingClaimer{Storage: store.Storage(), creates: 1, claims: 1}
	st := NewRetryStorage(ctx, lose, fastPolicy(4))

	id, err := st.CreateNewTrial(sid)
	if err != nil {
		t.Fatal(err)
	}
	trials, err := st.GetAllTrials(sid)
	if err != nil || len(trials) != 1 || trials[0].ID != id || trials[0].State != goptuna.TrialStateRunning || lose.creates != 0 {
		t.Fatalf("create with the answer lost: id %d, %v, trials %+v", id, err, trials)
	}

	waiting := func() int {
		wid, err := store.Storage().CloneTrial(sid, goptuna.FrozenTrial{State: goptuna.TrialStateWaiting,
			Params: map[string]interface{}{}, Distributions: map[string]interface{}{}, InternalParams: map[string]float64{},
			UserAttrs: map[string]string{}, SystemAttrs: map[string]string{}, IntermediateValues: map[int]float64{}})
		if err != nil {
			t.Fatal(err)
		}
		return wid
	}
	wid := waiting()
	if err := st.SetTrialState(wid, goptuna.TrialStateRunning); err != nil || lose.claims != 0 {
		t.Errorf("claim with the answer lost: %v", err)
	}
	if tr, _ := store.Storage().GetTrial(wid); tr.State != goptuna.TrialStateRunning {
		t.Errorf("claimed trial: %v", tr.State)
	}
	// Another worker's claim, then ours: refused, as goptuna does.
	other := waiting()
	if err := store.Storage().SetTrialState(other, goptuna.TrialStateRunning); err != nil {
		t.Fatal(err)
	}
	if err := st.SetTrialState(other, goptuna.TrialStateRunning); err != goptuna.ErrTrialCannotBeUpdated {
		t.Errorf("claim of another worker's trial: %v, want ErrTrialCannotBeUpdated", err)
	}
	if err := st.SetTrialState(12345, goptuna.TrialStateRunning); err != goptuna.ErrInvalidTrialID {
		t.Errorf("claim of no trial: %v, want ErrInvalidTrialID", err)
	}
	if trials, _ := st.GetAllTrials(sid); len(trials) != 3 {
		t.Errorf("%d trials, want 3", len(trials))
	}
}
