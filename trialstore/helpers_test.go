package trialstore

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"net"
	"reflect"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/c-bata/goptuna"
)

// readAllSampler samples uniformly and, like gctune's real samplers, reads every trial of the
// study for each parameter it samples.
type readAllSampler struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func newReadAllSampler(seed int64) *readAllSampler {
	return &readAllSampler{rng: rand.New(rand.NewSource(seed))}
}

func (s *readAllSampler) Sample(study *goptuna.Study, _ goptuna.FrozenTrial, _ string, d interface{}) (float64, error) {
	if _, err := study.GetTrials(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	u := s.rng.Float64()
	s.mu.Unlock()
	switch d := d.(type) {
	case goptuna.UniformDistribution:
		return d.Low + u*(d.High-d.Low), nil
	case goptuna.LogUniformDistribution:
		return math.Exp(math.Log(d.Low) + u*(math.Log(d.High)-math.Log(d.Low))), nil
	case goptuna.IntUniformDistribution:
		return float64(min(d.High, d.Low+int(u*float64(d.High-d.Low+1)))), nil
	}
	return 0, fmt.Errorf("readAllSampler: unsupported distribution %T", d)
}

// objective5 suggests five parameters, as gctune's search space has, and returns a bowl.
func objective5(tr goptuna.Trial) (float64, error) {
	var sum float64
	for _, name := range []string{"a", "b", "c"} {
		x, err := tr.SuggestFloat(name, -10, 10)
		if err != nil {
			return 0, err
		}
		sum += x * x
	}
	n, err := tr.SuggestInt("n", 1, 64)
	if err != nil {
		return 0, err
	}
	l, err := tr.SuggestLogFloat("l", 1e-3, 1e3)
	if err != nil {
		return 0, err
	}
	return sum + float64(n) + math.Abs(math.Log10(l)), nil
}

// newStudy creates a study with a readAllSampler.
func newStudy(t testing.TB, store *Store, name string, seed int64) *goptuna.Study {
	t.Helper()
	st, err := CreateStudy(context.Background(), store, name, NewStudy{Version: "test"},
		goptuna.StudyOptionSampler(newReadAllSampler(seed)))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// openT opens url and closes the store when t ends.
func openT(t testing.TB, url string, opts OpenOptions) *Store {
	t.Helper()
	s, err := Open(context.Background(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// sameTrials reports how got and want differ, "" when they agree.
func sameTrials(got, want []goptuna.FrozenTrial) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d trials, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if !g.DatetimeStart.Equal(w.DatetimeStart) || !g.DatetimeComplete.Equal(w.DatetimeComplete) {
			return fmt.Sprintf("trial %d: times %v %v, want %v %v", w.ID, g.DatetimeStart, g.DatetimeComplete, w.DatetimeStart, w.DatetimeComplete)
		}
		g.DatetimeStart, g.DatetimeComplete = w.DatetimeStart, w.DatetimeComplete
		if !reflect.DeepEqual(g, w) {
			return fmt.Sprintf("trial %d:\n got %+v\nwant %+v", w.ID, g, w)
		}
	}
	return ""
}

// checkDense checks that the study's trials are all COMPLETE and numbered 0..n-1, each once.
func checkDense(t testing.TB, trials []goptuna.FrozenTrial, n int) {
	t.Helper()
	if len(trials) != n {
		t.Errorf("%d trials, want %d", len(trials), n)
	}
	numbers := make([]int, 0, len(trials))
	states := map[goptuna.TrialState]int{}
	for _, tr := range trials {
		numbers = append(numbers, tr.Number)
		states[tr.State]++
	}
	if states[goptuna.TrialStateComplete] != len(trials) {
		t.Errorf("trial states %v, want all COMPLETE", states)
	}
	sort.Ints(numbers)
	for i, num := range numbers {
		if num != i {
			t.Errorf("trial numbers are not 0..%d, each once: position %d has %d", len(trials)-1, i, num)
			break
		}
	}
}

// atOnce runs f(0), …, f(n-1) in n goroutines released together, and returns when all have
// returned: the callers race each other for the same rows.
func atOnce(n int, f func(i int)) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			f(i)
		}(i)
	}
	close(start)
	wg.Wait()
}

// openUnreachable opens a PostgreSQL URL on a local port nobody listens on. urlFormat has one
// %d, the port. It returns the port and Open's error, failing t when there is none.
func openUnreachable(t *testing.T, urlFormat string) (port int, err error) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = Open(ctx, fmt.Sprintf(urlFormat, port), OpenOptions{ConnectTimeout: 5 * time.Second})
	if err == nil {
		t.Fatal("no error")
	}
	return port, err
}
