package session

import (
	"sort"
	"sync"
	"time"
)

// fakeClock is a Clock whose time moves only when a test calls Advance. Run the test in a
// synctest bubble and call synctest.Wait after Advance, so that every goroutine has dealt with
// what fired before the test looks.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at      time.Time
	period  time.Duration // zero for After
	ch      chan time.Time
	stopped bool
}

func newFakeClock(start time.Time) *fakeClock { return &fakeClock{now: start} }

func (f *fakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeClock) After(d time.Duration) <-chan time.Time {
	return f.add(d, 0).ch
}

func (f *fakeClock) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic("fakeClock: non-positive ticker interval")
	}
	return fakeTicker{f: f, t: f.add(d, d)}
}

func (f *fakeClock) add(d, period time.Duration) *fakeTimer {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &fakeTimer{at: f.now.Add(d), period: period, ch: make(chan time.Time, 1)}
	f.timers = append(f.timers, t)
	return t
}

// Advance moves the time forward by d, firing every timer and tick due on the way in order.
// Like time.Ticker, a tick is dropped when the previous one was not received yet.
func (f *fakeClock) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	end := f.now.Add(d)
	for {
		live := f.timers[:0]
		for _, t := range f.timers {
			if !t.stopped {
				live = append(live, t)
			}
		}
		f.timers = live
		sort.SliceStable(f.timers, func(i, j int) bool { return f.timers[i].at.Before(f.timers[j].at) })
		if len(f.timers) == 0 || f.timers[0].at.After(end) {
			break
		}
		t := f.timers[0]
		f.now = t.at
		select {
		case t.ch <- t.at:
		default:
		}
		if t.period > 0 {
			t.at = t.at.Add(t.period)
		} else {
			t.stopped = true
		}
	}
	f.now = end
}

type fakeTicker struct {
	f *fakeClock
	t *fakeTimer
}

func (k fakeTicker) C() <-chan time.Time { return k.t.ch }

func (k fakeTicker) Stop() {
	k.f.mu.Lock()
	defer k.f.mu.Unlock()
	k.t.stopped = true
}
