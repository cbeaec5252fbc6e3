package stage

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// fakeClock advances by step at every reading.
func fakeClock(step time.Duration) func() time.Time {
	t := time.Unix(0, 0)
	return func() time.Time { t = t.Add(step); return t }
}

func TestPipeWritesOneLinePerStage(t *testing.T) {
	var b bytes.Buffer
	r := NewWith(&b, false, fakeClock(3*time.Second), 0)
	r.Begin("choosing the recommendation")
	r.Progress(5, 10)
	r.Begin("writing the report")
	r.End()
	r.End() // twice: nothing more
	assert.Equal(t, "choosing the recommendation ...\nchoosing the recommendation: done in 3.0 s\nwriting the report ...\nwriting the report: done in 3.0 s\n", b.String())
}

func TestPipeLeavesOutShortStagesEnd(t *testing.T) {
	var b bytes.Buffer
	r := NewWith(&b, false, fakeClock(time.Second/2), 0)
	r.Begin("reading")
	r.End()
	assert.Equal(t, "reading ...\n", b.String())
}

func TestTerminalRedrawsInPlace(t *testing.T) {
	var b bytes.Buffer
	r := NewWith(&b, true, fakeClock(time.Second), 0)
	r.Begin("simulating")
	r.Progress(1, 2)
	r.Progress(2, 2)
	r.End()
	assert.Equal(t, "\r\x1b[Ksimulating ...\r\x1b[Ksimulating: 1/2, 1.0 s\r\x1b[Ksimulating: 2/2, 2.0 s\r\x1b[K", b.String())
}

func TestNilReporterWritesNothing(t *testing.T) {
	var r *Reporter
	r.Begin("x")
	r.Progress(1, 2)
	r.End()
	var zero Reporter
	zero.Begin("x")
	zero.End()
}

func TestElapsed(t *testing.T) {
	assert.Equal(t, "0.4 s", elapsed(400*time.Millisecond))
	assert.Equal(t, "34 s", elapsed(34*time.Second))
	assert.Equal(t, "2 min 5 s", elapsed(125*time.Second))
}

// A stage that ends before the delay says nothing: a command that fails at once writes its
// one error line only.
func TestShortStageSaysNothing(t *testing.T) {
	var b bytes.Buffer
	r := NewWith(&b, false, time.Now, time.Hour)
	r.Begin("reading")
	r.Progress(1, 2)
	r.End()
	assert.Empty(t, b.String())
}

// A stage still running after the delay is said.
func TestLongStageIsSaid(t *testing.T) {
	var b safeBuffer
	r := NewWith(&b, false, time.Now, time.Millisecond)
	r.Begin("simulating")
	assert.Eventually(t, func() bool { return b.String() == "simulating ...\n" }, 5*time.Second, time.Millisecond)
	r.End()
	assert.Regexp(t, `^simulating \.\.\.\nsimulating: done in \d+\.\d s\n$`, b.String(), "a stage said is ended, never left dangling")
}

// safeBuffer is a bytes.Buffer safe for the timer's goroutine.
type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
