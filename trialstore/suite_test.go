package trialstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/gctune/gctune/internal/pgtest"
	"github.com/gctune/gctune/trialattr"
	"gorm.io/gorm"
)

// TestSQLite runs the suite on SQLite files.
func TestSQLite(t *testing.T) {
	runSuite(t, func(t *testing.T) string {
		return filepath.Join(t.TempDir(), "studies.db")
	})
}

// TestPostgres runs the suite on a private PostgreSQL server, a fresh database per subtest.
func TestPostgres(t *testing.T) {
	srv := pgtest.StartServer(t)
	var n atomic.Int64
	runSuite(t, func(t *testing.T) string {
		return srv.CreateDB(t, fmt.Sprintf("suite%d", n.Add(1)))
	})
}

// runSuite runs every storage test with empty databases from newURL.
func runSuite(t *testing.T, newURL func(t *testing.T) string) {
	t.Run("CreateLoad", func(t *testing.T) { testCreateLoad(t, newURL(t)) })
	t.Run("CreateRace", func(t *testing.T) { testCreateRace(t, newURL(t)) })
	t.Run("ReplaceAttrs", func(t *testing.T) { testReplaceAttrs(t, newURL(t)) })
	t.Run("Cache", func(t *testing.T) { testCache(t, newURL(t)) })
	t.Run("Heartbeat", func(t *testing.T) { testHeartbeat(t, newURL(t)) })
	t.Run("Reap", func(t *testing.T) { testReap(t, newURL(t)) })
	t.Run("ReapEnqueued", func(t *testing.T) { testReapEnqueued(t, newURL(t)) })
	t.Run("ReapRace", func(t *testing.T) { testReapRace(t, newURL(t)) })
	t.Run("ClaimToken", func(t *testing.T) { testClaimToken(t, newURL(t)) })
	t.Run("ListDelete", func(t *testing.T) { testListDelete(t, newURL(t)) })
	t.Run("ConcurrentFirstOpen", func(t *testing.T) {
		for round := 0; round < 3; round++ {
			concurrentOpen(t, newURL(t), 8)
		}
	})
	t.Run("LoadGoroutines", func(t *testing.T) { testLoadGoroutines(t, newURL(t)) })
	t.Run("LoadProcesses", func(t *testing.T) { testLoadProcesses(t, newURL(t)) })
}

func testCreateLoad(t *testing.T, url string) {
	ctx := context.Background()
	store := openT(t, url, OpenOptions{})
	_, err := LoadStudy(store, "x")
	want := fmt.Sprintf("trialstore: no study named %q in %s", "x", RedactURL(url))
	if err == nil || err.Error() != want || !errors.Is(err, ErrNoStudy) {
		t.Fatalf("LoadStudy unknown: %v, want %s", err, want)
	}
	ns := NewStudy{Direction: goptuna.StudyDirectionMaximize, Version: "v1", Kind: "problemT",
		Attrs: [][2]string{{"gctune:record", "r0"}, {"gctune:record:1", "r1"}}}
	st, err := CreateStudy(ctx, store, "x", ns)
	if err != nil {
		t.Fatal(err)
	}
	if st.Direction() != goptuna.StudyDirectionMaximize {
		t.Errorf("direction %q", st.Direction())
	}
	_, err = CreateStudy(ctx, store, "x", NewStudy{Version: "v1"})
	if err == nil || err.Error() != `trialstore: study "x" already exists` || !errors.Is(err, ErrStudyExists) {
		t.Errorf("second CreateStudy: %v", err)
	}
	if _, err := CreateStudy(ctx, store, "y", NewStudy{Direction: "sideways"}); err == nil {
		t.Errorf("bad direction accepted")
	}
	loaded, err := LoadStudy(store, "x", goptuna.StudyOptionSampler(newReadAllSampler(1)))
	if err != nil {
		t.Fatal(err)
	}
	if loaded.ID != st.ID || loaded.Direction() != goptuna.StudyDirectionMaximize {
		t.Errorf("loaded ID %d direction %q, want %d maximize", loaded.ID, loaded.Direction(), st.ID)
	}
	attrs, err := loaded.GetSystemAttrs()
	if err != nil {
		t.Fatal(err)
	}
	if attrs[AttrVersion] != "v1" || attrs[AttrProblemKind] != "problemT" ||
		attrs["gctune:record"] != "r0" || attrs["gctune:record:1"] != "r1" {
		t.Errorf("attributes written with the study: %v", attrs)
	}
	if c, err := time.Parse(time.RFC3339Nano, attrs[AttrCreated]); err != nil || time.Since(c) > time.Hour {
		t.Errorf("%s = %q", AttrCreated, attrs[AttrCreated])
	}
	// The study works, and the storage logger does not print (goptuna's default would).
	if err := loaded.Optimize(objective5, 3); err != nil {
		t.Fatal(err)
	}
	trials, err := loaded.GetTrials()
	if err != nil {
		t.Fatal(err)
	}
	checkDense(t, trials, 3)
}

func testCreateRace(t *testing.T, url string) {
	const racers = 4
	stores := make([]*Store, racers)
	for i := range stores {
		stores[i] = openT(t, url, OpenOptions{})
	}
	for round := 0; round < 5; round++ {
		name := fmt.Sprintf("race%d", round)
		errs := make([]error, racers)
		atOnce(racers, func(i int) {
			_, errs[i] = CreateStudy(context.Background(), stores[i], name, NewStudy{Kind: "problemT",
				Attrs: [][2]string{{"gctune:record", name}}})
		})
		wins := 0
		for _, err := range errs {
			switch {
			case err == nil:
				wins++
			case errors.Is(err, ErrStudyExists) && err.Error() == fmt.Sprintf("trialstore: study %q already exists", name):
			default:
				t.Errorf("round %d: unexpected error: %v", round, err)
			}
		}
		if wins != 1 {
			t.Errorf("round %d: %d creators won, want 1", round, wins)
		}
	}
	list, err := ListStudies(stores[0])
	if err != nil || len(list) != 5 {
		t.Fatalf("ListStudies: %d studies, %v", len(list), err)
	}
	for _, s := range list {
		if s.ProblemKind != "problemT" {
			t.Errorf("study %s: problem kind %q", s.Name, s.ProblemKind)
		}
	}
}

func testReplaceAttrs(t *testing.T, url string) {
	store := openT(t, url, OpenOptions{})
	st := newStudy(t, store, "p", 1)
	long := strings.Repeat("é", MaxAttrChars) // 2,048 characters, 4,096 bytes
	big := [][2]string{{"gctune:rec_n", "3"}, {"gctune:rec", long}, {"gctune:rec:1", "b"}, {"gctune:rec:2", "c"}}
	if err := store.ReplaceStudyAttrs(st.ID, "gctune:rec:", big); err != nil {
		t.Fatal(err)
	}
	attrs, _ := st.GetSystemAttrs()
	if attrs["gctune:rec"] != long || attrs["gctune:rec:2"] != "c" {
		t.Fatalf("written: %v", attrs)
	}
	// A record that shrank leaves none of its old pieces; '_' in the prefix is no wildcard.
	if err := store.ReplaceStudyAttrs(st.ID, "gctune:rec:", [][2]string{{"gctune:rec_n", "1"}, {"gctune:rec", "a"}}); err != nil {
		t.Fatal(err)
	}
	if err := store.ReplaceStudyAttrs(st.ID, "gctune:re_", nil); err != nil {
		t.Fatal(err)
	}
	attrs, _ = st.GetSystemAttrs()
	for k := range attrs {
		if strings.HasPrefix(k, "gctune:rec:") {
			t.Errorf("stale attribute %s left", k)
		}
	}
	if attrs["gctune:rec"] != "a" || attrs["gctune:rec_n"] != "1" {
		t.Errorf("replaced: %v", attrs)
	}
	// A value too long for the column fails as a whole: nothing is deleted (PostgreSQL
	// enforces the length; SQLite stores any length).
	err := store.ReplaceStudyAttrs(st.ID, "gctune:rec", [][2]string{{"gctune:rec", long + "x"}})
	if store.Dialect() == SQLite {
		return
	}
	attrs, _ = st.GetSystemAttrs()
	if err == nil || attrs["gctune:rec"] != "a" || attrs["gctune:rec_n"] != "1" {
		t.Errorf("a replacement too long for the column: %v; attributes after it: %v", err, attrs)
	}
}

func testCache(t *testing.T, url string) {
	a := openT(t, url, OpenOptions{})
	b := openT(t, url, OpenOptions{}) // another "process"
	st := newStudy(t, a, "cache", 1)
	cached, raw := a.Storage(), a.RawStorage()
	check := func(when string) {
		t.Helper()
		got, err := cached.GetAllTrials(st.ID)
		if err != nil {
			t.Fatal(err)
		}
		want, err := raw.GetAllTrials(st.ID)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameTrials(got, want); d != "" {
			t.Fatalf("%s: cached trials differ: %s", when, d)
		}
	}
	check("empty")
	if err := st.Optimize(objective5, 20); err != nil {
		t.Fatal(err)
	}
	check("after 20 trials")

	// Trials another process adds, enqueues and leaves running appear.
	stB, err := LoadStudy(b, "cache", goptuna.StudyOptionSampler(newReadAllSampler(2)))
	if err != nil {
		t.Fatal(err)
	}
	if err := stB.Optimize(objective5, 5); err != nil {
		t.Fatal(err)
	}
	if err := stB.EnqueueTrial(map[string]float64{"a": 1, "b": 2, "c": 3, "n": 4, "l": 5}); err != nil {
		t.Fatal(err)
	}
	running, err := b.Storage().CreateNewTrial(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	check("after another store's writes")
	// ...and their later changes too.
	if err := b.Storage().SetTrialParam(running, "a", 0.5, goptuna.UniformDistribution{Low: -10, High: 10}); err != nil {
		t.Fatal(err)
	}
	if err := b.Storage().SetTrialUserAttr(running, "k", "v"); err != nil {
		t.Fatal(err)
	}
	check("after the running trial changed")
	if err := b.Storage().SetTrialValue(running, 7); err != nil {
		t.Fatal(err)
	}
	if err := b.Storage().SetTrialState(running, goptuna.TrialStateComplete); err != nil {
		t.Fatal(err)
	}
	check("after the running trial completed")
	// The enqueued trial is popped by this store.
	if err := st.Optimize(objective5, 1); err != nil {
		t.Fatal(err)
	}
	check("after popping the enqueued trial")

	// Writes through the cache to a finished trial are seen.
	trials, _ := cached.GetAllTrials(st.ID)
	first := trials[0]
	if err := cached.SetTrialUserAttr(first.ID, "note", "late"); err != nil {
		t.Fatal(err)
	}
	check("after an attribute write to a finished trial")
	got, err := cached.GetTrial(first.ID)
	if err != nil || got.UserAttrs["note"] != "late" {
		t.Errorf("GetTrial after write: %v %v", got.UserAttrs, err)
	}
	if n, err := cached.GetTrialNumberFromID(first.ID); err != nil || n != first.Number {
		t.Errorf("GetTrialNumberFromID = %d, %v; want %d", n, err, first.Number)
	}

	// goptuna's IntersectionSearchSpace deletes from the Distributions map of the first
	// COMPLETE trial when distributions differ between trials: the cache must not suffer.
	odd := goptuna.FrozenTrial{
		State: goptuna.TrialStateComplete, Value: 1, DatetimeStart: time.Now(), DatetimeComplete: time.Now(),
		IntermediateValues: map[int]float64{}, InternalParams: map[string]float64{"a": 1},
		Params: map[string]interface{}{"a": 1.0}, Distributions: map[string]interface{}{"a": goptuna.UniformDistribution{Low: -1, High: 1}},
		UserAttrs: map[string]string{}, SystemAttrs: map[string]string{},
	}
	if _, err := cached.CloneTrial(st.ID, odd); err != nil {
		t.Fatal(err)
	}
	space, err := goptuna.IntersectionSearchSpace(st)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := space["a"]; ok || len(space) != 0 {
		t.Errorf("intersection search space %v, want empty (trial 'odd' has only a, with another range)", space)
	}
	check("after IntersectionSearchSpace")
	if got, _ := cached.GetTrial(first.ID); len(got.Distributions) != 5 {
		t.Errorf("first trial's distributions %v", got.Distributions)
	}
	if _, err := cached.GetTrial(1 << 30); !errors.Is(err, gorm.ErrRecordNotFound) {
		t.Errorf("GetTrial of no trial: %v", err)
	}

	// Many goroutines on the shared cached storage, while the other store adds trials.
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			s, err := LoadStudy(a, "cache", goptuna.StudyOptionSampler(newReadAllSampler(int64(10+g))))
			if err == nil {
				err = s.Optimize(objective5, 8)
			}
			if err != nil {
				errs <- err
			}
		}(g)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := stB.Optimize(objective5, 8); err != nil {
			errs <- err
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	check("after concurrent optimisation")
	all, _ := cached.GetAllTrials(st.ID)
	checkDense(t, all, 20+5+1+1+1+3*8+8) // +1 enqueued (popped by Optimize(1)), +1 by hand, +1 odd

	// Deleting the study drops it from the cache.
	if err := DeleteStudy(a, "cache", false); err != nil {
		t.Fatal(err)
	}
	if all, err := cached.GetAllTrials(st.ID); err != nil || len(all) != 0 {
		t.Errorf("after DeleteStudy: %d trials, %v", len(all), err)
	}
}

func testHeartbeat(t *testing.T, url string) {
	store := openT(t, url, OpenOptions{})
	st := newStudy(t, store, "hb", 1)
	id, err := store.Storage().CreateNewTrial(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	beatOf := func() int64 {
		t.Helper()
		attrs, err := store.RawStorage().GetTrialSystemAttrs(id)
		if err != nil {
			t.Fatal(err)
		}
		v, ok := attrs[AttrHeartbeat]
		if !ok {
			return 0
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("%s = %q", AttrHeartbeat, v)
		}
		return n
	}
	if err := Beat(context.Background(), store, id); err != nil {
		t.Fatal(err)
	}
	first := beatOf()
	if first == 0 {
		t.Fatal("no heartbeat written by Beat")
	}
	time.Sleep(2 * time.Millisecond) // the clock moves on
	if err := Beat(context.Background(), store, id); err != nil {
		t.Fatal(err)
	}
	last := beatOf()
	if last <= first {
		t.Fatalf("heartbeat not renewed: %d then %d", first, last)
	}
	// A finished trial does not beat.
	if err := store.Storage().SetTrialState(id, goptuna.TrialStateComplete); err != nil {
		t.Fatal(err)
	}
	if err := Beat(context.Background(), store, id); err != nil {
		t.Fatal(err)
	}
	if beatOf() != last {
		t.Error("heartbeat written to a finished trial")
	}
}

// startDeadTrial makes a RUNNING trial with params whose worker "died": it beat once.
func startDeadTrial(t *testing.T, store *Store, studyID int, withParams bool, x float64) int {
	t.Helper()
	id, err := store.Storage().CreateNewTrial(studyID)
	if err != nil {
		t.Fatal(err)
	}
	if withParams {
		if err := store.Storage().SetTrialParam(id, "a", x, goptuna.UniformDistribution{Low: -10, High: 10}); err != nil {
			t.Fatal(err)
		}
		if err := store.Storage().SetTrialParam(id, "n", 7, goptuna.IntUniformDistribution{Low: 1, High: 64}); err != nil {
			t.Fatal(err)
		}
	}
	if err := Beat(context.Background(), store, id); err != nil {
		t.Fatal(err)
	}
	return id
}

func testReap(t *testing.T, url string) {
	const timeout = time.Second
	store := openT(t, url, OpenOptions{})
	st := newStudy(t, store, "reap", 1)
	if err := st.Optimize(objective5, 2); err != nil {
		t.Fatal(err)
	}
	alive, err := store.Storage().CreateNewTrial(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := Beat(context.Background(), store, alive); err != nil {
		t.Fatal(err)
	}
	dead := startDeadTrial(t, store, st.ID, true, 2.5)
	empty := startDeadTrial(t, store, st.ID, false, 0)
	// Nothing is stale yet.
	if got, err := Reap(context.Background(), store, st.ID, timeout); err != nil || len(got) != 0 {
		t.Fatalf("early Reap = %v, %v", got, err)
	}
	time.Sleep(timeout + 300*time.Millisecond)
	// The live worker beat meanwhile (package session beats every interval); the dead did not.
	if err := Beat(context.Background(), store, alive); err != nil {
		t.Fatal(err)
	}
	got, err := Reap(context.Background(), store, st.ID, timeout)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []int{dead, empty}) {
		t.Fatalf("Reap = %v, want %v", got, []int{dead, empty})
	}
	if again, err := Reap(context.Background(), store, st.ID, timeout); err != nil || len(again) != 0 {
		t.Errorf("second Reap = %v, %v", again, err)
	}
	trials, err := store.Storage().GetAllTrials(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	var deadTrial goptuna.FrozenTrial
	var waiting []goptuna.FrozenTrial
	for _, tr := range trials {
		switch {
		case tr.ID == dead || tr.ID == empty:
			if tr.State != goptuna.TrialStateFail || tr.SystemAttrs[trialattr.Reaped] != "true" || tr.DatetimeComplete.IsZero() {
				t.Errorf("reaped trial %d: state %v attrs %v complete %v", tr.ID, tr.State, tr.SystemAttrs, tr.DatetimeComplete)
			}
			if tr.ID == dead {
				deadTrial = tr
			}
		case tr.ID == alive:
			if tr.State != goptuna.TrialStateRunning {
				t.Errorf("live trial reaped: %v", tr.State)
			}
		case tr.State == goptuna.TrialStateWaiting:
			waiting = append(waiting, tr)
		}
	}
	if len(waiting) != 1 {
		t.Fatalf("%d waiting trials, want 1 (the dead trial's retry)", len(waiting))
	}
	var fixed map[string]float64
	if err := json.Unmarshal([]byte(waiting[0].SystemAttrs[AttrFixedParams]), &fixed); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fixed, map[string]float64{"a": 2.5, "n": 7}) {
		t.Errorf("fixed params %v", fixed)
	}
	if waiting[0].SystemAttrs[AttrRetryOf] != strconv.Itoa(deadTrial.Number) {
		t.Errorf("%s = %q, want %d", AttrRetryOf, waiting[0].SystemAttrs[AttrRetryOf], deadTrial.Number)
	}
	// The next trial runs the dead trial's parameters.
	if err := st.Optimize(objective5, 1); err != nil {
		t.Fatal(err)
	}
	retry, err := store.Storage().GetTrial(waiting[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if retry.State != goptuna.TrialStateComplete || retry.InternalParams["a"] != 2.5 || retry.InternalParams["n"] != 7 {
		t.Errorf("retry: state %v params %v", retry.State, retry.InternalParams)
	}

	// A trial enqueued long ago is not taken for dead the moment it is popped, before its
	// worker's first heartbeat.
	stale := goptuna.FrozenTrial{
		State: goptuna.TrialStateWaiting, DatetimeStart: time.Now().Add(-time.Hour),
		IntermediateValues: map[int]float64{}, InternalParams: map[string]float64{},
		Params: map[string]interface{}{}, Distributions: map[string]interface{}{},
		UserAttrs: map[string]string{}, SystemAttrs: map[string]string{AttrFixedParams: `{"a":1}`},
	}
	if _, err := store.Storage().CloneTrial(st.ID, stale); err != nil {
		t.Fatal(err)
	}
	var inside []int
	err = st.Optimize(func(tr goptuna.Trial) (float64, error) {
		var err error
		if inside, err = Reap(context.Background(), store, st.ID, timeout); err != nil {
			return 0, err
		}
		return objective5(tr)
	}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(inside) != 0 {
		t.Errorf("Reap in the objective of a just-popped trial reaped %v", inside)
	}
}

// testReapEnqueued: an enqueued trial (a seed) claimed by a worker that died before writing
// its parameters is queued again with its fixed parameters, not dropped (they were only in
// AttrFixedParams, and Reap enqueued only written parameters).
func testReapEnqueued(t *testing.T, url string) {
	const timeout = 200 * time.Millisecond
	store := openT(t, url, OpenOptions{})
	st := newStudy(t, store, "reap-enqueued", 1)
	seed := goptuna.FrozenTrial{
		State: goptuna.TrialStateRunning, DatetimeStart: time.Now().Add(-time.Hour),
		IntermediateValues: map[int]float64{}, InternalParams: map[string]float64{},
		Params: map[string]interface{}{}, Distributions: map[string]interface{}{},
		UserAttrs: map[string]string{}, SystemAttrs: map[string]string{AttrFixedParams: `{"a":1.5,"n":3}`},
	}
	dead, err := store.Storage().CloneTrial(st.ID, seed)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Reap(context.Background(), store, st.ID, timeout)
	if err != nil || !reflect.DeepEqual(got, []int{dead}) {
		t.Fatalf("Reap = %v, %v; want [%d]", got, err, dead)
	}
	trials, err := store.Storage().GetAllTrials(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(trials) != 2 || trials[1].State != goptuna.TrialStateWaiting {
		t.Fatalf("trials after reaping a seed: %+v", trials)
	}
	if got := trials[1].SystemAttrs[AttrFixedParams]; got != `{"a":1.5,"n":3}` {
		t.Errorf("re-queued fixed params %q", got)
	}
}

func testReapRace(t *testing.T, url string) {
	const reapers, deadTrials = 4, 6
	store := openT(t, url, OpenOptions{})
	st := newStudy(t, store, "reaprace", 1)
	want := map[int]bool{}
	for i := 0; i < deadTrials; i++ {
		want[startDeadTrial(t, store, st.ID, true, float64(i))] = true
	}
	stores := make([]*Store, reapers)
	for i := range stores {
		stores[i] = openT(t, url, OpenOptions{})
	}
	time.Sleep(1300 * time.Millisecond)
	results := make([][]int, reapers)
	errs := make([]error, reapers)
	atOnce(reapers, func(i int) {
		results[i], errs[i] = Reap(context.Background(), stores[i], st.ID, time.Second)
	})
	got := map[int]int{}
	for i := range results {
		if errs[i] != nil {
			t.Fatalf("reaper %d: %v", i, errs[i])
		}
		for _, id := range results[i] {
			got[id]++
		}
	}
	for id := range want {
		if got[id] != 1 {
			t.Errorf("trial %d reaped %d times", id, got[id])
		}
	}
	trials, err := store.Storage().GetAllTrials(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	retries := map[string]int{}
	for _, tr := range trials {
		if tr.State == goptuna.TrialStateWaiting {
			retries[tr.SystemAttrs[AttrRetryOf]]++
		}
	}
	if len(retries) != deadTrials {
		t.Errorf("retries %v, want one for each of %d trials", retries, deadTrials)
	}
	for k, n := range retries {
		if n != 1 {
			t.Errorf("trial number %s enqueued %d times", k, n)
		}
	}
}

func testListDelete(t *testing.T, url string) {
	ctx := context.Background()
	store := openT(t, url, OpenOptions{})
	if list, err := ListStudies(store); err != nil || len(list) != 0 {
		t.Fatalf("empty ListStudies = %v, %v", list, err)
	}
	a := newStudy(t, store, "a", 1)
	if _, err := CreateStudy(ctx, store, "b", NewStudy{Direction: goptuna.StudyDirectionMaximize, Version: "v1", Kind: "problemT"}); err != nil {
		t.Fatal(err)
	}
	s := store.Storage()
	add := func(studyID int, state goptuna.TrialState, value float64, feasible string) int {
		t.Helper()
		ft := goptuna.FrozenTrial{
			State: state, Value: value, DatetimeStart: time.Now(),
			IntermediateValues: map[int]float64{}, InternalParams: map[string]float64{},
			Params: map[string]interface{}{}, Distributions: map[string]interface{}{},
			UserAttrs: map[string]string{}, SystemAttrs: map[string]string{},
		}
		if state.IsFinished() {
			ft.DatetimeComplete = time.Now()
		}
		if feasible != "" {
			ft.UserAttrs[trialattr.Feasible] = feasible
		}
		id, err := s.CloneTrial(studyID, ft)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	add(a.ID, goptuna.TrialStateComplete, 5, "")
	add(a.ID, goptuna.TrialStateComplete, 1, "false") // better, but infeasible
	add(a.ID, goptuna.TrialStateComplete, 3, "true")
	add(a.ID, goptuna.TrialStateFail, 0, "")
	add(a.ID, goptuna.TrialStatePruned, 0, "")
	add(a.ID, goptuna.TrialStateRunning, 0, "")
	add(a.ID, goptuna.TrialStateWaiting, 0, "")
	bID, _ := studyID(store, "b")
	add(bID, goptuna.TrialStateFail, 0, "")

	list, err := ListStudies(store)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != "a" || list[1].Name != "b" {
		t.Fatalf("ListStudies = %+v", list)
	}
	la, lb := list[0], list[1]
	if la.Trials != (Counts{Running: 1, Waiting: 1, Complete: 3, Pruned: 1, Fail: 1}) || la.Trials.Total() != 7 {
		t.Errorf("a counts %+v", la.Trials)
	}
	if !la.HasBest || la.Best != 3 || la.BestNumber != 2 || la.Direction != goptuna.StudyDirectionMinimize {
		t.Errorf("a best %+v", la)
	}
	if la.Version == "" || la.Created.IsZero() || la.ProblemKind != "" {
		t.Errorf("a meta %+v", la)
	}
	if lb.HasBest || lb.BestNumber != -1 || lb.Direction != goptuna.StudyDirectionMaximize || lb.Trials.Fail != 1 ||
		lb.ProblemKind != "problemT" {
		t.Errorf("b %+v", lb)
	}

	if err := DeleteStudy(store, "a", false); !errors.Is(err, ErrStudyRunning) { // a has a RUNNING trial
		t.Fatalf("deleting a study with a running trial: %v", err)
	} else if err := DeleteStudy(store, "a", true); err != nil {
		t.Fatal(err)
	}
	if err := DeleteStudy(store, "a", false); !errors.Is(err, ErrNoStudy) {
		t.Errorf("deleting twice: %v", err)
	}
	if _, err := LoadStudy(store, "a"); !errors.Is(err, ErrNoStudy) {
		t.Errorf("LoadStudy after delete: %v", err)
	}
	for _, table := range tableNames() {
		var n int64
		q := store.DB().Table(table)
		switch table {
		case "studies", "study_user_attributes", "study_system_attributes", "trials":
			q = q.Where("study_id = ?", a.ID)
		default:
			q = q.Where("trial_id NOT IN (?)", store.DB().Table("trials").Select("trial_id"))
		}
		if err := q.Count(&n).Error; err != nil || n != 0 {
			t.Errorf("%s: %d rows of the deleted study left (%v)", table, n, err)
		}
	}
	list, err = ListStudies(store)
	if err != nil || len(list) != 1 || list[0].Name != "b" || list[0].Trials.Fail != 1 {
		t.Errorf("after delete: %+v, %v", list, err)
	}
	// The name can be used again.
	if _, err := CreateStudy(ctx, store, "a", NewStudy{}); err != nil {
		t.Errorf("re-create: %v", err)
	}
}

// loadSize returns the trials per goroutine of the load tests: fewer under the race detector,
// which slows the pure-Go SQLite down many times, or GCTUNE_STUDIES_LOAD_TRIALS when set
// (for a longer run by hand).
func loadSize(full int) int {
	if n, err := strconv.Atoi(os.Getenv("GCTUNE_STUDIES_LOAD_TRIALS")); err == nil && n > 0 {
		return n
	}
	if raceEnabled {
		return max(full/4, 4)
	}
	return full
}

// enqueueFixed enqueues n trials with distinct parameters and returns their "a" values.
func enqueueFixed(t *testing.T, st *goptuna.Study, n int) map[float64]bool {
	t.Helper()
	want := map[float64]bool{}
	for i := 0; i < n; i++ {
		a := float64(i)/4 - 5
		want[a] = true
		if err := st.EnqueueTrial(map[string]float64{"a": a, "b": 0, "c": 0, "n": 1, "l": 1}); err != nil {
			t.Fatal(err)
		}
	}
	return want
}

// checkEnqueuedOnce checks that each enqueued trial ran, once, with its parameters.
func checkEnqueuedOnce(t *testing.T, trials []goptuna.FrozenTrial, want map[float64]bool) {
	t.Helper()
	seen := map[float64]int{}
	for _, tr := range trials {
		if _, ok := tr.SystemAttrs[AttrFixedParams]; !ok {
			continue
		}
		if tr.State != goptuna.TrialStateComplete {
			t.Errorf("enqueued trial %d is %v", tr.Number, tr.State)
		}
		seen[tr.InternalParams["a"]]++
	}
	for a := range want {
		if seen[a] != 1 {
			t.Errorf("enqueued trial a=%v ran %d times", a, seen[a])
		}
	}
	if len(seen) != len(want) {
		t.Errorf("%d distinct enqueued trials ran, want %d", len(seen), len(want))
	}
}

// testLoadGoroutines runs many goroutines, each with its own Store (its own connections), on
// one study.
func testLoadGoroutines(t *testing.T, url string) {
	const workers = 8
	perWorker := loadSize(20)
	load := newLoadTest(t, url, 12)
	errs := make([]error, workers)
	atOnce(workers, func(w int) {
		errs[w] = optimizeLoad(url, int64(w+1), objective5, perWorker)
	})
	for w, err := range errs {
		if err != nil {
			t.Errorf("worker %d: %v", w, err)
		}
	}
	load.check(t, workers*perWorker)
}

// loadTest is the study "load" that a load test's workers share, and the trials enqueued in it.
type loadTest struct {
	store    *Store
	studyID  int
	enqueued map[float64]bool
}

// newLoadTest creates the study "load" in url with enqueue fixed trials waiting.
func newLoadTest(t *testing.T, url string, enqueue int) loadTest {
	t.Helper()
	store := openT(t, url, OpenOptions{})
	st := newStudy(t, store, "load", 0)
	return loadTest{store: store, studyID: st.ID, enqueued: enqueueFixed(t, st, enqueue)}
}

// check checks the study after the load: total trials, all COMPLETE and numbered densely, and
// each enqueued trial run once. It returns the trials.
func (l loadTest) check(t *testing.T, total int) []goptuna.FrozenTrial {
	t.Helper()
	trials, err := l.store.RawStorage().GetAllTrials(l.studyID)
	if err != nil {
		t.Fatal(err)
	}
	checkDense(t, trials, total)
	checkEnqueuedOnce(t, trials, l.enqueued)
	return trials
}

// optimizeLoad opens url with a Store of its own and runs n trials of objective in the study
// "load", sampled by a readAllSampler seeded with seed.
func optimizeLoad(url string, seed int64, objective goptuna.FuncObjective, n int) error {
	s, err := Open(context.Background(), url, OpenOptions{})
	if err != nil {
		return err
	}
	defer s.Close()
	study, err := LoadStudy(s, "load", goptuna.StudyOptionSampler(newReadAllSampler(seed)))
	if err != nil {
		return err
	}
	return study.Optimize(objective, n)
}

// Environment of the worker processes testLoadProcesses starts.
const (
	envWorkerURL    = "GCTUNE_STUDIES_TEST_WORKER_URL"
	envWorkerTrials = "GCTUNE_STUDIES_TEST_WORKER_TRIALS"
	envWorkerSeed   = "GCTUNE_STUDIES_TEST_WORKER_SEED"
	workerThreads   = 4
)

// TestWorkerProcess is not a test: it is the worker process testLoadProcesses starts (it
// skips unless started so). It runs workerThreads goroutines, each with its own Store, that
// optimise the study "load" and prints how many trials they evaluated.
func TestWorkerProcess(t *testing.T) {
	url := os.Getenv(envWorkerURL)
	if url == "" {
		t.Skip("worker process for testLoadProcesses")
	}
	n, _ := strconv.Atoi(os.Getenv(envWorkerTrials))
	seed, _ := strconv.ParseInt(os.Getenv(envWorkerSeed), 10, 64)
	var evaluated atomic.Int64
	objective := func(tr goptuna.Trial) (float64, error) {
		evaluated.Add(1)
		return objective5(tr)
	}
	atOnce(workerThreads, func(g int) {
		if err := optimizeLoad(url, seed*100+int64(g), objective, n); err != nil {
			t.Error(err)
		}
	})
	fmt.Printf("EVALUATED %d\n", evaluated.Load())
}

// testLoadProcesses runs 4 processes × 4 goroutines on one study: no trial may be lost or
// duplicated, numbers must be dense, each enqueued trial must run once.
func testLoadProcesses(t *testing.T, url string) {
	const procs = 4
	perWorker := loadSize(25)
	load := newLoadTest(t, url, 16)
	outs := make([][]byte, procs)
	errs := make([]error, procs)
	began := time.Now()
	atOnce(procs, func(p int) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWorkerProcess$", "-test.v")
		cmd.Env = append(os.Environ(),
			envWorkerURL+"="+url,
			envWorkerTrials+"="+strconv.Itoa(perWorker),
			envWorkerSeed+"="+strconv.Itoa(p+1))
		outs[p], errs[p] = cmd.CombinedOutput()
	})
	elapsed := time.Since(began)
	evaluated := 0
	for p := 0; p < procs; p++ {
		if errs[p] != nil {
			t.Errorf("process %d: %v\n%s", p, errs[p], outs[p])
			continue
		}
		var n int
		for _, line := range strings.Split(string(outs[p]), "\n") {
			if strings.HasPrefix(line, "EVALUATED ") {
				n, _ = strconv.Atoi(strings.TrimPrefix(line, "EVALUATED "))
			}
		}
		evaluated += n
	}
	total := procs * workerThreads * perWorker
	if evaluated != total {
		t.Errorf("objective evaluated %d times, want %d", evaluated, total)
	}
	trials := load.check(t, total)
	t.Logf("%d processes × %d goroutines: %d/%d trials COMPLETE in %v", procs, workerThreads, len(trials), total, elapsed.Round(time.Millisecond))
}
