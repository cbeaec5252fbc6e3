package cmdutil

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCheckCount: the bounds are inclusive; outside them one line naming the flag and range.
func TestCheckCount(t *testing.T) {
	assert.NoError(t, CheckCount("runs", 1, 1, 10, ""))
	assert.NoError(t, CheckCount("runs", 10, 1, 10, ""))
	err := CheckCount("runs", 11, 1, 10, "")
	assert.True(t, IsUsage(err))
	assert.Equal(t, "--runs 11: want 1 to 10", err.Error())
	assert.Equal(t, "--trials -1: want 0 to 5 (0 = the study's own target)", CheckCount("trials", -1, 0, 5, "0 = the study's own target").Error())
}
