package study

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/tunable"
)

// Choice says which answer a command asks a study for: its recommendation (the zero Choice),
// or one trial as the search stored it (HasTrial, --trial N).
type Choice struct {
	Trial    int
	HasTrial bool
}

// TrialChoice is the Choice of trial n as it is; n < 0 is the recommendation.
func TrialChoice(n int) Choice { return Choice{Trial: n, HasTrial: n >= 0} }

// Answer is what a study answers a command (export, explain, report, verify, resume): one
// decision, taken here, so that every command states the same configuration.
type Answer struct {
	// Recommendation is the study's recommendation (stored by optimize or resume when it is
	// still the study's, else made now); nil when the Choice is a trial as it is.
	Recommendation *recommend.Recommendation
	// Trial is the trial as it is (Choice.HasTrial).
	Trial goptuna.FrozenTrial
	// Number and Point are the answer's trial and configuration, rounded as exported.
	Number int
	Point  tunable.Point
}

// FindTrial returns trial n of study name when it is complete; an error matching ErrInput
// and naming the study otherwise.
func FindTrial(trials []goptuna.FrozenTrial, name string, n int) (goptuna.FrozenTrial, error) {
	t, err := trialattr.Find(trials, n)
	switch {
	case errors.Is(err, trialattr.ErrNoTrial):
		return t, inputErrorf(trialattr.ErrNoTrial, "study %q has no trial %d", name, n)
	case errors.Is(err, trialattr.ErrNotComplete):
		i := slices.IndexFunc(trials, func(t goptuna.FrozenTrial) bool { return t.Number == n })
		return t, inputErrorf(trialattr.ErrNotComplete, "trial %d of study %q is %s, not complete", n, name, trialattr.StateWord(trials[i].State))
	}
	return t, err
}

// AnswerFor is study name's answer to c: trial c.Trial as it is, or its recommendation
// (Recommendation: the one stored with the study id in store when it was made from these
// trials, else made now, and stored when s.Save). store may be nil (nothing read or stored).
func AnswerFor(ctx context.Context, store *trialstore.Store, id int, name string, prob *objective.Problem,
	trials []goptuna.FrozenTrial, c Choice, s RecommendationSettings) (Answer, error) {
	if c.HasTrial {
		t, err := FindTrial(trials, name, c.Trial)
		if err != nil {
			return Answer{}, err
		}
		raw, err := tunable.PointFromParams(t.Params)
		if err != nil {
			return Answer{}, asInput(fmt.Errorf("study %q: trial %d: %w", name, t.Number, err))
		}
		return Answer{Trial: t, Number: t.Number, Point: raw.Rounded()}, nil
	}
	r, err := Recommendation(ctx, store, id, name, prob, trials, s)
	if err != nil {
		return Answer{}, err
	}
	return Answer{Recommendation: r, Number: r.Trial, Point: r.Point}, nil
}
