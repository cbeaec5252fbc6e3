package study

import (
	"testing"

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
