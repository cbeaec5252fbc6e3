package diagnose

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/tunable"
)

// TestPoolBound: two runs sharing a pool never run more than its workers at once, every job
// runs, and the progress counts every job of both.
func TestPoolBound(t *testing.T) {
	var mu sync.Mutex
	var calls [][2]int
	p := NewPool(2, func(done, total int) {
		mu.Lock()
		calls = append(calls, [2]int{done, total})
		mu.Unlock()
	})
	var running, most, ran atomic.Int32
	job := func(int) error {
		n := running.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		for range 1000 {
			_ = fmt.Sprint(n) // some work, so that jobs overlap
		}
		ran.Add(1)
		running.Add(-1)
		return nil
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			assert.NoError(t, p.run(context.Background(), 20, job))
		}()
	}
	wg.Wait()
	assert.Equal(t, int32(40), ran.Load())
	assert.LessOrEqual(t, most.Load(), int32(2))
	require.NotEmpty(t, calls)
	assert.Equal(t, [2]int{40, 40}, calls[len(calls)-1])
	for i := 1; i < len(calls); i++ {
		assert.GreaterOrEqual(t, calls[i][0], calls[i-1][0], "done never goes back")
	}
}

// TestPoolErrors: the error is the lowest failed index's, and a done context stops the jobs.
func TestPoolErrors(t *testing.T) {
	p := NewPool(1, nil)
	err := p.run(context.Background(), 5, func(j int) error {
		if j >= 2 {
			return fmt.Errorf("job %d", j)
		}
		return nil
	})
	assert.EqualError(t, err, "job 2") // one worker: job 3 never starts
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = NewPool(2, nil).run(ctx, 3, func(int) error { return errors.New("ran") })
	assert.ErrorIs(t, err, context.Canceled)
}

// TestPoolEvaluateOnce: one configuration asked for by many jobs is simulated once, and they
// all get its result.
func TestPoolEvaluateOnce(t *testing.T) {
	prob := testProblem(t, 0, "cache-churn")
	params := tunable.DefaultPoint(prob.Base()).Params(prob.Base())
	p := NewPool(2, nil)
	vals := make([]float64, 6)
	require.NoError(t, p.run(context.Background(), len(vals), func(j int) error {
		res, err := p.evaluate(prob, params)
		vals[j] = res.Value
		return err
	}))
	assert.Len(t, p.memo, 1)
	for _, v := range vals {
		assert.Equal(t, vals[0], v)
	}
}
