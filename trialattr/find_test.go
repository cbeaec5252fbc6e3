package trialattr

import (
	"errors"
	"testing"

	"github.com/c-bata/goptuna"
)

func TestFind(t *testing.T) {
	const C, R = goptuna.TrialStateComplete, goptuna.TrialStateRunning
	trials := []goptuna.FrozenTrial{tr(0, C, 5, -1, ""), tr(1, R, 0, -1, "")}
	got, err := Find(trials, 0)
	if err != nil || got.Number != 0 {
		t.Errorf("Find(0) = %d, %v", got.Number, err)
	}
	if _, err := Find(trials, 1); !errors.Is(err, ErrNotComplete) || err.Error() != "trial 1 is running, not complete: trial not complete" {
		t.Errorf("Find(1): %v", err)
	}
	if _, err := Find(trials, 7); !errors.Is(err, ErrNoTrial) {
		t.Errorf("Find(7): %v", err)
	}
}
