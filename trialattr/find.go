package trialattr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/c-bata/goptuna"
)

// ErrNoTrial and ErrNotComplete are the errors of Find.
var (
	ErrNoTrial     = errors.New("no such trial")
	ErrNotComplete = errors.New("trial not complete")
)

// Find returns trial number n of trials when it is COMPLETE: an error matching ErrNoTrial when
// there is none, ErrNotComplete (saying its state) when it has not finished.
func Find(trials []goptuna.FrozenTrial, n int) (goptuna.FrozenTrial, error) {
	for _, t := range trials {
		if t.Number != n {
			continue
		}
		if t.State != goptuna.TrialStateComplete {
			return goptuna.FrozenTrial{}, fmt.Errorf("trial %d is %s, not complete: %w", n, StateWord(t.State), ErrNotComplete)
		}
		return t, nil
	}
	return goptuna.FrozenTrial{}, fmt.Errorf("no trial %d: %w", n, ErrNoTrial)
}

// StateWord names a trial's state in a sentence: "failed", "running", "pruned", "waiting",
// "complete".
func StateWord(s goptuna.TrialState) string {
	if s == goptuna.TrialStateFail {
		return "failed"
	}
	return strings.ToLower(s.String())
}
