package verify

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestRunStored(t *testing.T) {
	start := time.Unix(1700000000, 0)
	ok := Run{Config: "best", Trial: 7, Round: 1, Start: start, Outcome: Outcome{Wall: 1500 * time.Millisecond}}
	mr := ok.Stored("s1", 3, 1.25, time.Minute)
	assert.Equal(t, "s1", mr.Session)
	assert.Equal(t, 3, mr.Seq)
	assert.Equal(t, "best", mr.Config)
	assert.Equal(t, 7, mr.Trial)
	assert.Equal(t, 1, mr.Round)
	assert.Equal(t, start, mr.Start)
	assert.Equal(t, 1.5, mr.WallSeconds)
	assert.Equal(t, 1.25, mr.PredictedSpeedup)
	assert.Empty(t, mr.Error)
	assert.Nil(t, mr.Stats, "no gctune-stats line")

	failed := Run{Config: "default", Round: -1, Outcome: Outcome{ExitCode: 3, StderrTail: []string{"a", "b"}}}
	assert.Equal(t, "exit code 3: a | b", failed.Stored("s1", 0, 1, 0).Error)
	late := Run{Config: "default", Outcome: Outcome{ExitCode: -1, TimedOut: true}}
	assert.Equal(t, "timed out after 1m0s", late.Stored("s1", 0, 1, time.Minute).Error)
}
