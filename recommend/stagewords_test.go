package recommend

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestStepWords: each step Settings.Stage names has its words, the tolerance stated where the
// step depends on it; "done" ends the stage line and an unknown step is named as it is.
func TestStepWords(t *testing.T) {
	assert.Equal(t, "recommendation: judging again the trials within 1 % of the fastest on the decision runs", StepWords("rejudge", 0.01))
	assert.Equal(t, "recommendation: putting back the changes that cost less than 2.5 %", StepWords("attempt", 0.025))
	for _, s := range []string{"settle", "fallback", "margins", "statement", "again", "restate"} {
		w := StepWords(s, 0.01)
		assert.NotEqual(t, "recommendation: "+s, w, s)
		assert.Regexp(t, `^recommendation: `, w, s)
	}
	assert.Equal(t, "", StepWords("done", 0.01))
	assert.Equal(t, "recommendation: polish", StepWords("polish", 0.01))
}
