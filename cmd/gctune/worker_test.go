package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/pgtest"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/tunable"
)

// faultEnv sets the heartbeat and reap timeout of the worker processes in the fault tests:
// beats every 100 ms; a trial without a beat for the reap timeout is a dead worker's. The
// timeout is 2 s (4 s under the race detector): far below the default 30 s, so that the tests
// are quick, but above how long a heartbeat can wait for SQLite's write lock when several
// processes share the file.
func faultEnv() (env []string, reapTimeout time.Duration) {
	reapTimeout = 2 * time.Second
	if raceEnabled {
		reapTimeout = 4 * time.Second
	}
	return []string{
		"GCTUNE_SEARCH_HEARTBEAT_INTERVAL=100ms",
		"GCTUNE_SEARCH_REAP_TIMEOUT=" + reapTimeout.String(),
	}, reapTimeout
}

// lockedBuffer is a bytes.Buffer a child process writes while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// proc is gctune running as a child process (see TestMain).
type proc struct {
	cmd            *exec.Cmd
	stdout, stderr *lockedBuffer
	done           chan struct{}
	code           int
}

// startProc starts gctune with args and env added to the test's environment.
func startProc(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{stdout: &lockedBuffer{}, stderr: &lockedBuffer{}, done: make(chan struct{})}
	p.cmd = gctuneCommand(env, args...)
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	require.NoError(t, p.cmd.Start())
	go func() {
		err := p.cmd.Wait()
		p.code = 0
		if err != nil {
			p.code = -1
			if ee, ok := err.(*exec.ExitError); ok {
				p.code = ee.ExitCode()
			}
		}
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// wait waits for the process to exit, at most d, and returns its exit code.
func (p *proc) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
		return p.code
	case <-time.After(d):
		_ = p.cmd.Process.Kill()
		<-p.done
		t.Fatalf("%v did not exit within %v\nstdout: %s\nstderr: %s", p.cmd.Args[1:], d, p.stdout, p.stderr)
		return -1
	}
}

// backend is a kind of study database for the worker tests.
type backend struct {
	name string
	// fresh returns the URL of a new, empty database.
	fresh func(t *testing.T) string
	srv   *pgtest.Server
}

// eachBackend runs test as a subtest on each backend: SQLite, then PostgreSQL (postgresBackend
// skips t from there where there is none).
func eachBackend(t *testing.T, test func(t *testing.T, be backend)) {
	for _, b := range []func(*testing.T) backend{func(*testing.T) backend { return sqliteBackend() }, postgresBackend} {
		be := b(t)
		t.Run(be.name, func(t *testing.T) { test(t, be) })
	}
}

func sqliteBackend() backend {
	return backend{name: "sqlite", fresh: func(t *testing.T) string { return filepath.Join(t.TempDir(), "study.db") }}
}

// postgresBackend starts a private PostgreSQL server for t (skipping outside CI where there
// is none). Its databases make every commit durable before acknowledging it, as PostgreSQL does
// by default (pgtest's servers turn synchronous_commit off for speed, which would let a
// restart lose acknowledged commits).
func postgresBackend(t *testing.T) backend {
	srv := pgtest.StartServer(t)
	var n atomic.Int64
	return backend{name: "postgres", srv: srv, fresh: func(t *testing.T) string {
		return srv.CreateDB(t, fmt.Sprintf("w%d", n.Add(1))) + "&synchronous_commit=on"
	}}
}

// countStates counts trials by state.
func countStates(trials []goptuna.FrozenTrial) map[goptuna.TrialState]int {
	out := map[goptuna.TrialState]int{}
	for _, tr := range trials {
		out[tr.State]++
	}
	return out
}

// waitComplete waits until the study holds at least n COMPLETE trials.
func waitComplete(t *testing.T, url, study string, n int, procs ...*proc) {
	t.Helper()
	deadline := time.Now().Add(120 * time.Second)
	for time.Now().Before(deadline) {
		if countStates(readTrialsIfAny(t, url, study))[goptuna.TrialStateComplete] >= n {
			return
		}
		for _, p := range procs {
			select {
			case <-p.done:
				t.Fatalf("%v exited (%d) before %d trials were complete\nstdout: %s\nstderr: %s", p.cmd.Args[1:], p.code, n, p.stdout, p.stderr)
			default:
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the study did not reach %d complete trials", n)
}

// checkWhole checks the study's invariants after its workers are gone: trial numbers unique
// and dense, nothing RUNNING or WAITING, every COMPLETE trial whole (finite value, every
// metric), every enqueued seed and every re-queued trial run exactly once. It returns the
// trials.
func checkWhole(t *testing.T, url, study string, seeds int) []goptuna.FrozenTrial {
	t.Helper()
	trials := readTrials(t, url, study)
	assertDense(t, trials)
	states := countStates(trials)
	assert.Zero(t, states[goptuna.TrialStateRunning], "trials stuck RUNNING: %v", states)
	assert.Zero(t, states[goptuna.TrialStateWaiting], "trials left WAITING: %v", states)
	ranSeeds := 0
	for _, tr := range trials {
		if tr.State == goptuna.TrialStateFail {
			assert.Equal(t, "true", tr.SystemAttrs[trialattr.Reaped], "trial %d failed: %s", tr.Number, tr.SystemAttrs["fail_reason"])
			continue
		}
		if tr.State != goptuna.TrialStateComplete {
			continue
		}
		assert.False(t, math.IsNaN(tr.Value) || math.IsInf(tr.Value, 0), "trial %d value %v", tr.Number, tr.Value)
		for _, k := range []string{trialattr.Feasible, trialattr.TotalSeconds, trialattr.GCSeconds, trialattr.Scavenges,
			trialattr.FullGCs, trialattr.Footprint, trialattr.Speedup, trialattr.Worker} {
			assert.NotEmpty(t, tr.UserAttrs[k], "trial %d lacks %s", tr.Number, k)
		}
		assert.Len(t, tr.Params, len(tunable.Names()), "trial %d params", tr.Number)
		if _, ok := tr.SystemAttrs[trialstore.AttrFixedParams]; ok {
			if _, retry := tr.SystemAttrs[trialstore.AttrRetryOf]; !retry {
				ranSeeds++
			}
		}
	}
	assert.Equal(t, seeds, ranSeeds, "each enqueued seed ran exactly once")
	// A reaped trial's parameters ran again, once.
	retries := map[string]int{}
	for _, tr := range trials {
		if n, ok := tr.SystemAttrs[trialstore.AttrRetryOf]; ok {
			retries[n]++
			assert.Equal(t, goptuna.TrialStateComplete, tr.State, "retry of trial %s", n)
		}
	}
	for n, c := range retries {
		assert.Equal(t, 1, c, "trial %s re-queued %d times", n, c)
	}
	return trials
}

// createStudyT runs `study create` in-process and returns the number of seeds it queued.
func createStudyT(t *testing.T, url, name string, args ...string) int {
	t.Helper()
	var doc createDoc
	gctuneJSON(t, &doc, append([]string{"study", "create", name, "--storage", url}, args...)...)
	return doc.Queued
}

func TestStudyCreateAndWorker(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")

	// A spec's text is stored with the study: a worker needs no file.
	spec := filepath.Join(dir, "w.yaml")
	data, err := os.ReadFile(gcdemo)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(spec, data, 0o644))
	var created createDoc
	gctuneJSON(t, &created, "study", "create", "s1", spec, "--storage", db, "--trials", "8")
	assert.Equal(t, "s1", created.Study)
	assert.Equal(t, 8, created.Target)
	assert.Equal(t, 2, created.Queued)
	require.Len(t, created.Workloads, 1)
	assert.True(t, created.Workloads[0].Stored)
	trials := readTrials(t, db, "s1")
	assert.Equal(t, 2, countStates(trials)[goptuna.TrialStateWaiting], "the seeds are queued, nothing runs")
	assert.Len(t, trials, 2)

	require.NoError(t, os.Remove(spec))
	var doc workerDoc
	gctuneJSON(t, &doc, "worker", "--study", "s1", "--storage", db, "--workers", "2")
	// Two goroutines that check the budget at the same instant may overshoot it by one.
	assert.Contains(t, []int{8, 9}, doc.Finished)
	assert.Equal(t, doc.Finished, doc.TrialsRun)
	assert.False(t, doc.Interrupted)
	require.NotNil(t, doc.Best)
	assert.Greater(t, doc.Best.Speedup, 1.0)
	assert.Equal(t, 2, doc.Goroutines)
	checkWhole(t, db, "s1", 2)

	// --trials sets this worker's target, not the study's. (From here on, one goroutine at a
	// time: exact counts.)
	before := doc.Finished
	doc = workerJSON(t, db, 1, workerOptions{Study: "s1", Trials: 10})
	assert.Equal(t, 10, doc.Finished)
	assert.Equal(t, 10-before, doc.TrialsRun)
	var show study.ShowDoc
	gctuneJSON(t, &show, "studies", "show", "s1", "--storage", db)
	assert.Equal(t, 8, show.Problem.Trials)
	// resume falls back on the stored spec when the file is gone.
	var sess sessionDoc
	gctuneJSON(t, &sess, "resume", "s1", "--storage", db, "--more", "1", "--workers", "1", "-q")
	assert.Equal(t, 11, sess.Finished)
	// A changed file: workers keep to the study's spec; resume refuses it, as before.
	require.NoError(t, os.WriteFile(spec, bytes.Replace(data, []byte("allocate: 200MB"), []byte("allocate: 150MB"), 1), 0o644))
	doc = workerJSON(t, db, 1, workerOptions{Study: "s1", Trials: 12})
	assert.Equal(t, 12, doc.Finished)
	_, errOut, code := gctune(t, "resume", "s1", "--storage", db)
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Contains(t, errOut, "changed since the study began")

	// A bundled workload is in every gctune.
	gctuneJSON(t, &created, "study", "create", "s2", "image-processing", "--storage", db, "--trials", "3", "--no-seed")
	assert.False(t, created.Workloads[0].Stored)
	assert.Equal(t, "workload", created.Workloads[0].Kind)
	assert.Zero(t, created.Queued)
	doc = workerJSON(t, db, 1, workerOptions{Study: "s2", Quiet: true})
	assert.Equal(t, 3, doc.Finished)

	// A recorded profile must be on the worker's machine, at the same path, unchanged.
	csv, meta := filepath.Join(dir, "run.csv"), filepath.Join(dir, "run.json")
	for src, dst := range map[string]string{"testdata/run.csv": csv, "testdata/run.json": meta} {
		b, err := os.ReadFile(src)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(dst, b, 0o644))
	}
	out, errOut := gctuneOK(t, "study", "create", "s3", csv, "--storage", db, "--trials", "3")
	assert.Contains(t, out, "workers need this file at this path")
	b, _ := os.ReadFile(csv)
	require.NoError(t, os.WriteFile(csv, append(b, []byte("2160,16,1160,Fraction,0,0,NumberParser>>makeFraction,23\n")...), 0o644))
	_, errOut, code = gctune(t, "worker", "--study", "s3", "--storage", db)
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Contains(t, errOut, "differs from the study's")
	assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
	require.NoError(t, os.Remove(csv))
	_, errOut, code = gctune(t, "worker", "--study", "s3", "--storage", db)
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Contains(t, errOut, "a worker needs the same file at the same path")

	// Usage errors.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"worker", "--storage", db}, "worker needs --study NAME"},
		{[]string{"worker", "--study", "nope", "--storage", db}, `no study named "nope"`},
		{[]string{"worker", "--study", "s1", "--storage", filepath.Join(dir, "missing.db")}, "does not exist"},
		{[]string{"worker", "--study", "s1", "--storage", db, "--retries", "0"}, "--retries 0: want 1 to 1000"},
		{[]string{"study", "create", "s9"}, "needs a study name and at least one workload"},
		{[]string{"study", "create", "s1", gcdemo, "--storage", db}, `study "s1" already exists`},
		{[]string{"study", "create", "s9", "nope", "--storage", db}, "not a bundled workload"},
	} {
		_, errOut, code := gctune(t, c.args...)
		assert.Equal(t, cmdutil.ExitUsage, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.want, c.args)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%v: one line: %q", c.args, errOut)
	}
	// `studies create` is the same command.
	_, errOut, code = gctune(t, "studies", "create", "s4", gcdemo, "--storage", db, "-q")
	assert.Equal(t, 0, code, errOut)
}

// loadTrials is the study size of the load tests: 400 at full size, less under the race
// detector (whose processes run several times slower) or -short.
func loadTrials() int {
	switch {
	case testing.Short():
		return 60
	case raceEnabled:
		return 100
	}
	return 400
}

// TestWorkersLoad runs 4 worker processes × 4 goroutines on one study, on SQLite and on
// PostgreSQL: every trial number is unique and dense, none is lost or left RUNNING, each
// enqueued seed runs exactly once, and the trials the workers report running are the trials
// the study holds.
func TestWorkersLoad(t *testing.T) {
	eachBackend(t, func(t *testing.T, be backend) { testWorkersLoad(t, be.fresh(t)) })
}

func testWorkersLoad(t *testing.T, url string) {
	const procs, goroutines = 4, 4
	target := loadTrials()
	seeds := createStudyT(t, url, "load", gcdemo, "--trials", itoa(target))
	began := time.Now()
	var ps []*proc
	for range procs {
		// The default heartbeat and reap timeout (5 s, 30 s): with 16 writers on one SQLite
		// file a heartbeat can wait for the write lock for longer than the fault tests' 1 s.
		ps = append(ps, startProc(t, nil, "--json", "worker", "--study", "load", "--storage", url, "--workers", itoa(goroutines)))
	}
	ran := 0
	for _, p := range ps {
		require.Equal(t, 0, p.wait(t, 5*time.Minute), "stderr: %s", p.stderr)
		var doc workerDoc
		require.NoError(t, json.Unmarshal([]byte(p.stdout.String()), &doc), p.stdout.String())
		assert.False(t, doc.Interrupted)
		ran += doc.TrialsRun
	}
	elapsed := time.Since(began)
	trials := checkWhole(t, url, "load", seeds)
	states := countStates(trials)
	assert.Equal(t, len(trials), states[goptuna.TrialStateComplete], "all COMPLETE: %v", states)
	assert.Equal(t, len(trials), ran, "the trials the workers ran are the study's: none lost, none run twice")
	assert.GreaterOrEqual(t, len(trials), target)
	assert.LessOrEqual(t, len(trials), target+procs*goroutines, "overshoot is at most one trial per goroutine")
	t.Logf("%d processes × %d goroutines: %d trials in %v (%.0f trials/s)", procs, goroutines, len(trials),
		elapsed.Round(time.Millisecond), float64(len(trials))/elapsed.Seconds())
}

// TestLongWorkerKilled kills one of three worker processes with SIGKILL mid-trial: its running
// trials are failed by the other workers' reapers within the reap timeout (plus the reaper's
// period), their parameters run again by another worker, and the study still reaches its
// budget, with no resume. Whether the victim holds a running trial at the instant of the kill
// is up to the scheduler (its goroutines may all be waiting for a claim, or storing a result):
// an attempt where it held none tests nothing about reaping, so the scenario is tried again on
// a new database, up to three times, and one attempt must have reaped the victim's trials.
func TestLongWorkerKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	eachBackend(t, func(t *testing.T, be backend) {
		for attempt := 1; ; attempt++ {
			if testWorkerKilled(t, be.fresh(t)) > 0 {
				return
			}
			if attempt == 3 {
				t.Fatal("in 3 attempts the killed worker never held a running trial that was reaped")
			}
			t.Logf("attempt %d: the killed worker held no running trial at the kill; again", attempt)
		}
	})
}

// testWorkerKilled runs the scenario once on a new study and returns how many trials the
// victim was running at the kill were reaped.
func testWorkerKilled(t *testing.T, url string) (reaped int) {
	target := 150
	if raceEnabled {
		target = 100
	}
	env, _ := faultEnv()
	seeds := createStudyT(t, url, "kill", gcdemo, "--trials", itoa(target))
	victim := startProc(t, env, "worker", "--study", "kill", "--storage", url, "--workers", "3")
	waitComplete(t, url, "kill", 5, victim)
	var others []*proc
	for range 2 {
		others = append(others, startProc(t, env, "--json", "worker", "--study", "kill", "--storage", url, "--workers", "2"))
	}
	waitComplete(t, url, "kill", 30, append(others, victim)...)
	if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		// It exited by itself: only a failure if it failed.
		require.Equal(t, 0, victim.wait(t, 10*time.Second), "the victim exited before the kill: %v\nstderr: %s", err, victim.stderr)
	}
	killed := time.Now()
	victim.wait(t, 10*time.Second)
	atKill := readTrials(t, url, "kill")
	running := map[int]bool{}
	for _, tr := range atKill {
		if tr.State == goptuna.TrialStateRunning {
			running[tr.Number] = true
		}
	}
	for _, p := range others {
		require.Equal(t, 0, p.wait(t, 3*time.Minute), "stderr: %s", p.stderr)
	}
	trials := checkWhole(t, url, "kill", seeds)
	early := 0
	for _, tr := range trials {
		if tr.SystemAttrs[trialattr.Reaped] != "true" {
			continue
		}
		after := tr.DatetimeComplete.Sub(killed)
		if after < 0 || !running[tr.Number] {
			// A live worker's trial whose heartbeats were held up past the timeout: reaped
			// and re-run all the same, at the cost of a wasted evaluation.
			early++
			t.Logf("trial %d of a live worker reaped (%v from the kill)", tr.Number, after.Round(time.Millisecond))
		} else {
			reaped++
			// The last beat came at most one interval before the kill and the reapers look every
			// quarter of the timeout, so about reapTimeout+reapTimeout/4 is expected; how long it
			// took is timing, which a test does not assert (a loaded machine stretches it, and
			// delays beats); session's fake-clock tests check the reaper's rule exactly.
			t.Logf("trial %d reaped %v after the kill", tr.Number, after.Round(time.Millisecond))
		}
		if len(tr.Params) == len(tunable.Names()) {
			assert.True(t, hasCompleteWithParams(trials, tr.Params), "the parameters of reaped trial %d ran again", tr.Number)
		}
	}
	for _, tr := range trials {
		assert.NotEqual(t, goptuna.TrialStateRunning, tr.State, "trial %d left RUNNING (running at kill: %v)", tr.Number, running)
	}
	assert.LessOrEqual(t, early, 2, "few live trials are taken for dead")
	assert.GreaterOrEqual(t, search.Finished(trials), target, "the study reached its budget without a resume")
	return reaped
}

// TestLongWorkerSIGTERM stops a worker process with SIGTERM: its running trials finish and are
// stored, it exits 130 (stopped short of its target) reporting the interruption, and no trial
// is left RUNNING.
func TestLongWorkerSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	url := sqliteBackend().fresh(t)
	createStudyT(t, url, "term", gcdemo, "--trials", "100000")
	env, _ := faultEnv()
	p := startProc(t, env, "--json", "worker", "--study", "term", "--storage", url, "--workers", "2")
	waitComplete(t, url, "term", 15, p)
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	require.Equal(t, cmdutil.ExitInterrupted, p.wait(t, 30*time.Second), "stopped short of its target: stderr: %s", p.stderr)
	var doc workerDoc
	require.NoError(t, json.Unmarshal([]byte(p.stdout.String()), &doc), p.stdout.String())
	assert.True(t, doc.Interrupted)
	trials := readTrials(t, url, "term")
	states := countStates(trials)
	assert.Zero(t, states[goptuna.TrialStateRunning], "%v", states)
	assert.Zero(t, states[goptuna.TrialStateFail], "%v", states)
	assert.Equal(t, doc.TrialsRun, states[goptuna.TrialStateComplete], "every trial it ran is stored")
	assertDense(t, trials)
}

// TestLongWorkersDatabaseRestart restarts the PostgreSQL server (pg_ctl stop -m immediate, then
// start), and then stops it for 2 s, while three workers run: they retry with backoff and
// either carry on or stop with one clear error line; no trial is corrupt, numbers stay unique and dense, and a following
// worker brings the study to its budget. Then the server stops for longer than the workers
// retry: they exit with a clear error, and once it is back a worker finishes the study.
func TestLongWorkersDatabaseRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("restarts a server")
	}
	be := postgresBackend(t)
	url := be.fresh(t)
	target := 300
	if raceEnabled {
		target = 150
	}
	env, _ := faultEnv()
	seeds := createStudyT(t, url, "restart", gcdemo, "--trials", itoa(target))
	var ps []*proc
	for range 3 {
		ps = append(ps, startProc(t, env, "worker", "--study", "restart", "--storage", url, "--workers", "2"))
	}
	waitComplete(t, url, "restart", 30, ps...)
	be.srv.Restart(t) // pg_ctl stop -m immediate, then start: connections break
	// Then an outage of 2 s, longer than the first retries' waits and the heartbeats' reap
	// timeout: trials of live workers may be taken for dead and re-queued.
	waitComplete(t, url, "restart", 60, ps...)
	be.srv.Stop(t)
	time.Sleep(2 * time.Second)
	be.srv.Restart(t)
	retried := false
	for i, p := range ps {
		code := p.wait(t, 3*time.Minute)
		stderr := p.stderr.String()
		retried = retried || strings.Contains(stderr, "database error, retrying")
		t.Logf("worker %d stderr:\n%s", i, stderr)
		switch code {
		case 0:
			t.Logf("worker %d carried on: %s", i, lastLine(p.stdout.String()))
		case cmdutil.ExitFailure:
			errLines := strings.Count(stderr, "gctune: ")
			assert.Equal(t, 1, errLines, "worker %d: one error line: %s", i, stderr)
			assert.True(t, strings.HasPrefix(lastLine(stderr), "gctune: worker "), stderr)
			t.Logf("worker %d stopped: %s", i, lastLine(stderr))
		default:
			t.Errorf("worker %d exited %d: %s", i, code, stderr)
		}
	}
	assert.True(t, retried, "no worker retried: did the restart happen while they ran?")
	mid := readTrials(t, url, "restart")
	assertDense(t, mid)
	t.Logf("after the restart: %v", countStates(mid))

	// A following worker brings the study to its budget (reaping what the others left).
	var doc workerDoc
	withEnv(t, env, func() {
		gctuneJSON(t, &doc, "worker", "--study", "restart", "--storage", url, "--workers", "2", "-q")
	})
	trials := checkWhole(t, url, "restart", seeds)
	assert.GreaterOrEqual(t, search.Finished(trials), target)

	// The server away for longer than the retries: a clear error, bounded in time.
	more := search.Counted(trials) + 10000 // out of reach, within config.MaxTrials
	var stopped []*proc
	for range 2 {
		stopped = append(stopped, startProc(t, env, "worker", "--study", "restart", "--storage", url, "--workers", "2",
			"--retries", "4", "--trials", itoa(more)))
	}
	waitComplete(t, url, "restart", len(trials)+10, stopped...)
	be.srv.Stop(t)
	began := time.Now()
	for i, p := range stopped {
		code := p.wait(t, 60*time.Second)
		stderr := p.stderr.String()
		assert.Equal(t, cmdutil.ExitFailure, code, "worker %d: %s", i, stderr)
		assert.Equal(t, 1, strings.Count(stderr, "gctune: "), "worker %d: one error line: %s", i, stderr)
		assert.Contains(t, lastLine(stderr), "database unavailable", stderr)
		assert.Contains(t, lastLine(stderr), "failed 4 times", stderr)
		t.Logf("worker %d, %v after the stop: %s", i, time.Since(began).Round(time.Millisecond), lastLine(stderr))
	}
	be.srv.Restart(t)
	gave := readTrials(t, url, "restart")
	assertDense(t, gave)
	final := search.Counted(gave) + 3
	withEnv(t, env, func() {
		gctuneJSON(t, &doc, "worker", "--study", "restart", "--storage", url, "--trials", itoa(final), "-q")
	})
	trials = checkWhole(t, url, "restart", seeds)
	assert.GreaterOrEqual(t, search.Finished(trials), final)
}

// TestLongStudyCreateRace runs two `study create` of one name at once, on a database nobody used
// yet (so their migrations race too): one creates it, the other fails with a clear error, and
// the seeds are queued once.
func TestLongStudyCreateRace(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	eachBackend(t, func(t *testing.T, be backend) {
		rounds := 3
		if raceEnabled {
			rounds = 2
		}
		for round := range rounds {
			url := be.fresh(t)
			a := startProc(t, nil, "study", "create", "race", gcdemo, "--storage", url, "-q")
			b := startProc(t, nil, "study", "create", "race", gcdemo, "--storage", url, "-q")
			codes := []int{a.wait(t, time.Minute), b.wait(t, time.Minute)}
			loser := b
			if codes[0] != 0 {
				loser = a
			}
			assert.ElementsMatch(t, []int{0, cmdutil.ExitUsage}, codes, "round %d: a: %s b: %s", round, a.stderr, b.stderr)
			assert.Equal(t, fmt.Sprintf("gctune: study %q already exists in %s: join it with 'gctune worker --study race', or create another name\n",
				"race", trialstore.RedactURL(url)), loser.stderr.String())
			trials := readTrials(t, url, "race")
			assert.Len(t, trials, 2, "round %d: the seeds are queued once", round)
		}
	})
}

// TestWorkerCredentials: the server asks for a password (scram-sha-256). It comes from
// PGPASSWORD, and the URL from GCTUNE_STORAGE; a wrong password in the URL is refused at once
// (not retried as if the server were away). No password reaches the output of study create,
// worker, resume, export or studies, nor the study.
func TestWorkerCredentials(t *testing.T) {
	be := postgresBackend(t)
	const urlSecret, envSecret = "url-S3cret-pw", "env-S3cret-pw"
	url := be.fresh(t)
	requirePassword(t, be.srv, url, envSecret)
	var outs []string
	run := func(args ...string) string {
		out, errOut, code := gctune(t, args...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		outs = append(outs, out, errOut)
		return out
	}
	t.Setenv("PGPASSWORD", envSecret)
	run("study", "create", "cred", gcdemo, "--storage", url, "--trials", "10")
	t.Setenv("GCTUNE_STORAGE", url)
	run("worker", "--study", "cred", "--workers", "2")
	out := run("--json", "worker", "--study", "cred", "--trials", "12", "--workers", "1") // one: no overshoot
	var doc workerDoc
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, 12, doc.Finished)
	run("resume", "cred", "--more", "2", "-q")
	run("export", "cred")
	run("export", "cred", "--format", "yaml")
	run("--json", "export", "cred")
	run("studies", "list")
	run("studies", "show", "cred")
	run("--json", "studies", "show", "cred")
	_, errOut, code := gctune(t, "worker", "--study", "nope")
	assert.Equal(t, cmdutil.ExitUsage, code)
	outs = append(outs, errOut)

	// A wrong password, in the URL: refused at once, and not printed.
	wrong := strings.Replace(url, "postgres@", "postgres:"+urlSecret+"@", 1)
	began := time.Now()
	_, errOut, code = gctune(t, "worker", "--study", "cred", "--storage", wrong)
	assert.Equal(t, cmdutil.ExitUsage, code, errOut)
	assert.Contains(t, errOut, "password authentication failed")
	assert.Contains(t, errOut, "postgres:xxxxx@", "the URL is printed with its password redacted")
	assert.Less(t, time.Since(began), 5*time.Second, "an authentication failure is not retried")
	assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
	outs = append(outs, errOut)
	for _, o := range outs {
		assert.NotContains(t, o, "S3cret")
	}

	store, err := trialstore.Open(context.Background(), url, trialstore.OpenOptions{NoCache: true})
	require.NoError(t, err)
	defer store.Close()
	s, err := trialstore.LoadStudy(store, "cred")
	require.NoError(t, err)
	attrs, err := store.RawStorage().GetStudySystemAttrs(s.ID)
	require.NoError(t, err)
	user, err := store.RawStorage().GetStudyUserAttrs(s.ID)
	require.NoError(t, err)
	trials, err := s.GetTrials()
	require.NoError(t, err)
	all := fmt.Sprint(attrs, user)
	for _, tr := range trials {
		all += fmt.Sprint(tr.SystemAttrs, tr.UserAttrs)
	}
	assert.NotContains(t, all, "S3cret", "credentials are not stored in the study")
	assert.NotContains(t, all, "postgres://", "nor is the storage URL")
}

// requirePassword gives the server's postgres role a password and makes the server ask for it
// on TCP connections (pgtest's servers trust everyone), then restarts it.
func requirePassword(t *testing.T, srv *pgtest.Server, url, password string) {
	t.Helper()
	store, err := trialstore.Open(context.Background(), url, trialstore.OpenOptions{NoCache: true})
	require.NoError(t, err)
	require.NoError(t, store.DB().Exec("ALTER ROLE postgres PASSWORD '"+password+"'").Error)
	require.NoError(t, store.Close())
	hba := filepath.Join(srv.Dir(), "data", "pg_hba.conf")
	b, err := os.ReadFile(hba)
	require.NoError(t, err)
	var lines []string
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == "host" && f[len(f)-1] == "trust" {
			line = strings.TrimSuffix(strings.TrimRight(line, " \t"), "trust") + "scram-sha-256"
		}
		lines = append(lines, line)
	}
	require.NoError(t, os.WriteFile(hba, []byte(strings.Join(lines, "\n")), 0o600))
	srv.Restart(t)
	_, err = trialstore.Open(context.Background(), url, trialstore.OpenOptions{})
	require.Error(t, err, "the server asks for a password")
	t.Logf("without a password: %v", err)
}

// workerJSON calls worker's run function on the study database db with workers goroutines and
// o (with the default --retries, and --json), requires success and returns its document.
func workerJSON(t *testing.T, db string, workers int, o workerOptions) workerDoc {
	t.Helper()
	cfg := defaultConfig()
	cfg.Storage, cfg.Search.Workers = db, workers
	o.Retries, o.JSON = trialstore.DefaultRetryAttempts, true
	var out, errOut bytes.Buffer
	require.NoError(t, runWorker(t.Context(), &out, &errOut, cfg, o), errOut.String())
	var doc workerDoc
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc), out.String())
	return doc
}
