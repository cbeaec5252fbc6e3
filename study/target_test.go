package study

import (
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
)

func TestSetTarget(t *testing.T) {
	p := &Problem{Trials: 100}
	assert.False(t, p.SetTarget(0, 0, 80))
	assert.Equal(t, 100, p.Trials)
	assert.True(t, p.SetTarget(300, 0, 80))
	assert.Equal(t, 300, p.Trials)
	assert.True(t, p.SetTarget(0, 10, 80), "--more counts from the trials that count")
	assert.Equal(t, 90, p.Trials)
}

func TestReadingsOfOneRun(t *testing.T) {
	assert.False(t, ReadingsOfOneRun([]WorkloadRef{{Ref: "a"}}))
	assert.True(t, ReadingsOfOneRun([]WorkloadRef{{Ref: "a", Run: "a"}, {Ref: "a", Run: "a"}}))
	assert.False(t, ReadingsOfOneRun([]WorkloadRef{{Ref: "a", Run: "a"}, {Ref: "b"}}))
}

func TestFinished(t *testing.T) {
	p := &Problem{Trials: 2}
	c := goptuna.FrozenTrial{State: goptuna.TrialStateComplete}
	r := goptuna.FrozenTrial{State: goptuna.TrialStateRunning}
	n, ok := p.Finished([]goptuna.FrozenTrial{c, c})
	assert.True(t, ok)
	assert.Equal(t, 2, n)
	_, ok = p.Finished([]goptuna.FrozenTrial{c, c, r})
	assert.False(t, ok, "a running trial: not finished")
	_, ok = p.Finished([]goptuna.FrozenTrial{c})
	assert.False(t, ok, "short of the target")
}
