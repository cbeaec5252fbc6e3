package stage

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// minShownAtOnce is how long a stage said at once (no delay) runs before its end is said in
// a pipe: a short stage's "done" line would be noise.
const minShownAtOnce = 2 * time.Second

// DefaultDelay is how long a stage runs before it is said at all: a command that finishes (or
// fails, in one line) sooner says nothing of its stages.
const DefaultDelay = time.Second

// Reporter writes the stages of one command. The zero Reporter and a nil one write nothing.
// Its methods are safe for concurrent use (progress comes from simulation workers).
type Reporter struct {
	mu       sync.Mutex
	w        io.Writer
	terminal bool
	now      func() time.Time
	delay    time.Duration
	name     string
	start    time.Time
	lastDraw time.Time
	open     bool
	// shown says the current stage's line was written; timer writes it after delay.
	shown bool
	timer *time.Timer
	seq   int
}

// New returns a Reporter writing to w; terminal says w is a terminal (redraw in place). A
// stage is said once it has run DefaultDelay.
func New(w io.Writer, terminal bool) *Reporter {
	return NewWith(w, terminal, time.Now, DefaultDelay)
}

// NewWith is New with a clock (now) and a delay before a stage is said (0: at once).
func NewWith(w io.Writer, terminal bool, now func() time.Time, delay time.Duration) *Reporter {
	return &Reporter{w: w, terminal: terminal, now: now, delay: delay}
}

// Begin ends the current stage, if any, and starts one named name ("choosing the
// recommendation").
func (r *Reporter) Begin(name string) {
	if r == nil || r.w == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.endLocked()
	r.seq++
	r.name, r.start, r.open, r.shown = name, r.now(), true, false
	if r.delay <= 0 {
		r.showLocked()
		return
	}
	seq := r.seq
	r.timer = time.AfterFunc(r.delay, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.open && r.seq == seq {
			r.showLocked()
		}
	})
}

// minShown is how long a stage must have run for its end to be said in a pipe: a stage said
// after the delay always is (its first line must not dangle); without a delay (every stage
// said at once), only one that ran long enough to matter.
func (r *Reporter) minShown() time.Duration {
	if r.delay > 0 {
		return 0
	}
	return minShownAtOnce
}

// showLocked writes the current stage's first line.
func (r *Reporter) showLocked() {
	r.shown = true
	if r.terminal {
		fmt.Fprintf(r.w, "\r\x1b[K%s ...", r.name)
		return
	}
	fmt.Fprintf(r.w, "%s ...\n", r.name)
}

// Progress says how far the current stage is: done of total steps. On a terminal the line is
// redrawn (at most ten times a second); in a pipe nothing is written, the stage's end line
// says it.
func (r *Reporter) Progress(done, total int) {
	if r == nil || r.w == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.open || !r.terminal || !r.shown {
		return
	}
	now := r.now()
	if done < total && now.Sub(r.lastDraw) < 100*time.Millisecond {
		return
	}
	r.lastDraw = now
	fmt.Fprintf(r.w, "\r\x1b[K%s: %d/%d, %s", r.name, done, total, elapsed(now.Sub(r.start)))
}

// End ends the current stage: on a terminal its line is cleared; in a pipe, a stage that ran
// long enough to matter says how long it took.
func (r *Reporter) End() {
	if r == nil || r.w == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.endLocked()
}

func (r *Reporter) endLocked() {
	if !r.open {
		return
	}
	r.open = false
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
	if !r.shown {
		return
	}
	d := r.now().Sub(r.start)
	if r.terminal {
		fmt.Fprint(r.w, "\r\x1b[K")
		return
	}
	if d >= r.minShown() {
		fmt.Fprintf(r.w, "%s: done in %s\n", r.name, elapsed(d))
	}
}

// elapsed writes a duration for people: "0.4 s", "34 s", "2 min 5 s".
func elapsed(d time.Duration) string {
	s := d.Seconds()
	switch {
	case s < 10:
		return fmt.Sprintf("%.1f s", s)
	case s < 120:
		return fmt.Sprintf("%.0f s", s)
	}
	m := int(s) / 60
	return fmt.Sprintf("%d min %d s", m, int(s)-60*m)
}
