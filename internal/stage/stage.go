package stage

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// minShown is how long a stage runs before its end is said in a pipe: a short stage's "done"
// line would be noise.
const minShown = 2 * time.Second

// Reporter writes the stages of one command. The zero Reporter and a nil one write nothing.
// Its methods are safe for concurrent use (progress comes from simulation workers).
type Reporter struct {
	mu       sync.Mutex
	w        io.Writer
	terminal bool
	now      func() time.Time
	name     string
	start    time.Time
	lastDraw time.Time
	open     bool
}

// New returns a Reporter writing to w; terminal says w is a terminal (redraw in place).
// now is the clock (time.Now; tests give their own).
func New(w io.Writer, terminal bool, now func() time.Time) *Reporter {
	if now == nil {
		now = time.Now
	}
	return &Reporter{w: w, terminal: terminal, now: now}
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
	r.name, r.start, r.open = name, r.now(), true
	if r.terminal {
		fmt.Fprintf(r.w, "\r\x1b[K%s ...", name)
		return
	}
	fmt.Fprintf(r.w, "%s ...\n", name)
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
	if !r.open || !r.terminal {
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
	d := r.now().Sub(r.start)
	if r.terminal {
		fmt.Fprint(r.w, "\r\x1b[K")
		return
	}
	if d >= minShown {
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
