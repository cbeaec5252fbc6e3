package session

import "time"

// Clock is a session's source of time: RealClock, or a fake one in tests.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// NewTicker returns a ticker that ticks every d (d > 0) until stopped.
	NewTicker(d time.Duration) Ticker
	// After returns a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

// Ticker is a Clock's ticker (time.Ticker behind an interface).
type Ticker interface {
	// C returns the channel on which the ticks are delivered.
	C() <-chan time.Time
	// Stop stops the ticker; no tick is delivered after it returns.
	Stop()
}

// RealClock returns the Clock of package time.
func RealClock() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
func (realClock) NewTicker(d time.Duration) Ticker       { return realTicker{time.NewTicker(d)} }

type realTicker struct{ t *time.Ticker }

func (r realTicker) C() <-chan time.Time { return r.t.C }
func (r realTicker) Stop()               { r.t.Stop() }
