package session

import (
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/search"
)

// Progress is a search.Recorder that shows a session's progress on a terminal: a bar with
// the trials done, the time left, the fastest value so far and its speedup over the defaults,
// and the failed trials. Off a terminal it draws nothing, so that a log or a pipe gets no
// carriage returns. Its methods may be called from several goroutines.
type Progress struct {
	mu           sync.Mutex
	w            io.Writer
	terminal     bool
	bar          *progressbar.ProgressBar
	defaultValue float64
	seconds      bool
	best         float64
	failed       int
}

// NewProgress returns the progress of a session writing to w, a terminal when terminal is
// set; defaultValue is the defaults' value the speedups are over, seconds says the values
// are seconds (one workload) rather than slowdowns.
func NewProgress(w io.Writer, terminal bool, defaultValue float64, seconds bool) *Progress {
	return &Progress{w: w, terminal: terminal, defaultValue: defaultValue, seconds: seconds, best: math.Inf(1)}
}

// Start implements search.Recorder. A session calls it once per run of trials (it runs again
// the trials of a worker that died): the bar then grows. The bar is drawn only on a terminal.
func (p *Progress) Start(toRun int, _ float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.terminal {
		return
	}
	if p.bar != nil {
		p.bar.ChangeMax(p.bar.GetMax() + toRun)
		return
	}
	p.bar = progressbar.NewOptions(toRun,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("trials"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetWidth(24),
		progressbar.OptionClearOnFinish(),
	)
}

// TrialDone implements search.Recorder.
func (p *Progress) TrialDone(r search.TrialReport) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.Err != nil {
		p.failed++
	} else if r.Feasible && r.Value < p.best {
		p.best = r.Value
	}
	if p.bar == nil {
		return
	}
	p.bar.Describe(p.description())
	_ = p.bar.Add(1)
}

// description is the bar's words: the fastest value so far and its speedup, the failed
// trials; the caller holds p.mu.
func (p *Progress) description() string {
	desc := "trials"
	if !math.IsInf(p.best, 1) {
		v := fmt.Sprintf("%.4g", p.best)
		if p.seconds {
			v = numfmt.SecondsText(p.best)
		}
		desc = fmt.Sprintf("fastest %s (%s)", v, numfmt.Speedup(p.defaultValue/p.best))
	}
	if p.failed > 0 {
		desc += fmt.Sprintf(", %d failed", p.failed)
	}
	return desc
}

// Note writes a line in the bar's place (the bar comes back with the next trial): a session's
// Notice, for one.
func (p *Progress) Note(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Clear()
	}
	fmt.Fprintln(p.w, line)
}

// Finish ends the bar, clearing it from the terminal.
func (p *Progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
