package stage

import (
	"bytes"
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
	r := New(&b, false, fakeClock(3*time.Second))
	r.Begin("choosing the recommendation")
	r.Progress(5, 10)
	r.Begin("writing the report")
	r.End()
	r.End() // twice: nothing more
	assert.Equal(t, "choosing the recommendation ...\nchoosing the recommendation: done in 3.0 s\nwriting the report ...\nwriting the report: done in 3.0 s\n", b.String())
}

func TestPipeLeavesOutShortStagesEnd(t *testing.T) {
	var b bytes.Buffer
	r := New(&b, false, fakeClock(time.Second/2))
	r.Begin("reading")
	r.End()
	assert.Equal(t, "reading ...\n", b.String())
}

func TestTerminalRedrawsInPlace(t *testing.T) {
	var b bytes.Buffer
	r := New(&b, true, fakeClock(time.Second))
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
