package study

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/trialstore"
)

// RecommendationDoc is the study document that keeps a recommendation with what it was made
// from: a robust recommendation simulates hundreds of runs, so optimize and resume store it
// and export, explain, report and verify read it back while the study has not changed.
const RecommendationDoc = "gctune:recommendation"

// StoredRecommendation is the stored document: Key says what the recommendation was made from
// (RecommendationKey).
type StoredRecommendation struct {
	Key            string                    `json:"key"`
	Recommendation *recommend.Recommendation `json:"recommendation"`
}

// LoadRecommendation reads the recommendation stored with study id: an error matching
// ErrNoDoc when there is none.
// Every string in it comes back printable (control characters escaped: \x1b for ESC). A
// document that decodes but holds a value gctune never writes (CheckRecommendation: an eden
// of 1e300 bytes, a negative ratio) is an error matching trialstore.ErrDamagedStudy that names it
// and says how to go on.
func LoadRecommendation(store *trialstore.Store, id int) (StoredRecommendation, error) {
	var stored StoredRecommendation
	if err := LoadDoc(store, id, RecommendationDoc, &stored); err != nil {
		return StoredRecommendation{}, err
	}
	if err := CheckRecommendation(stored.Recommendation); err != nil {
		return StoredRecommendation{}, damagedRecordf("the stored recommendation (study attribute %s) is damaged: %w; "+
			"'gctune resume STUDY' makes it again from the trials and stores it, or start a new study", RecommendationDoc, err)
	}
	// Its strings (labels, reasons, workload names) are printed: never a raw escape sequence.
	sanitizeStrings(reflect.ValueOf(stored.Recommendation))
	return stored, nil
}

// RecommendationSettings say how Recommendation finds a study's recommendation.
type RecommendationSettings struct {
	// Tolerance is recommend.Settings.Tolerance.
	Tolerance float64
	// Save stores a recommendation made now (optimize, resume: commands that may write the
	// study).
	Save bool
	// Version is the gctune build's version, part of the stored recommendation's key; ""
	// (a build with no identity, such as one from a modified checkout) never reuses a stored
	// recommendation and never stores one.
	Version string
	// Stage, when set, is told each step of a recommendation made now as it begins
	// (recommend.Settings.Stage); a stored one runs none.
	Stage func(step string)
}

// Recommendation is study name's recommendation for its trials: the one stored with the
// study (id in store; store may be nil) when it was made from the same trials, tolerance,
// problem and gctune, else made now (recommend.Recommend) and, when s.Save is set, stored. A
// study without a candidate is an error matching ErrNoCandidate, naming it. It runs to the
// end even when ctx is cancelled (an interrupted optimize still prints its recommendation).
func Recommendation(ctx context.Context, store *trialstore.Store, id int, name string, prob *objective.Problem,
	trials []goptuna.FrozenTrial, s RecommendationSettings) (*recommend.Recommendation, error) {
	key := RecommendationKey(prob, trials, s.Tolerance, s.Version)
	r, err := storedFor(store, id, key)
	if err != nil && !s.Save { // optimize and resume make a damaged one again, and store it
		return nil, fmt.Errorf("study %q: %w", name, nameStudy(err, name))
	}
	if r != nil {
		return r, nil
	}
	r, err = recommend.Recommend(context.WithoutCancel(ctx), prob, trials, recommend.Settings{Tolerance: s.Tolerance, Stage: s.Stage})
	if errors.Is(err, recommend.ErrNoCandidate) {
		return nil, inputErrorf(ErrNoCandidate, "study %q has no completed feasible trial yet", name)
	}
	if err != nil {
		return nil, fmt.Errorf("study %q: %w", name, err)
	}
	if s.Save && store != nil && key != "" {
		if err := SaveDoc(store, id, RecommendationDoc, StoredRecommendation{Key: key, Recommendation: r}); err != nil {
			return nil, fmt.Errorf("study %q: %w", name, err)
		}
	}
	return r, nil
}

// StoredRecommendationFor is the recommendation stored with study id (store may be nil) when
// it was made from these trials, tolerance, problem and gctune version, else nil: what
// Recommendation returns without making one.
// A stored one that is damaged (LoadRecommendation) is an error.
func StoredRecommendationFor(store *trialstore.Store, id int, prob *objective.Problem, trials []goptuna.FrozenTrial,
	s RecommendationSettings) (*recommend.Recommendation, error) {
	return storedFor(store, id, RecommendationKey(prob, trials, s.Tolerance, s.Version))
}

// storedFor is the recommendation stored with study id under key, else nil. A document that
// does not load (none, another key, a checksum that does not match: a cache to make again) is
// nil; one that loads but holds impossible values is an error (LoadRecommendation), whatever
// its key: its values must never be printed.
func storedFor(store *trialstore.Store, id int, key string) (*recommend.Recommendation, error) {
	if store == nil {
		return nil, nil
	}
	stored, err := LoadRecommendation(store, id)
	if errors.Is(err, ErrDamagedRecord) {
		return nil, err
	}
	if err != nil || key == "" || stored.Key != key {
		return nil, nil
	}
	return stored.Recommendation, nil
}

// RecommendationKey digests what a recommendation depends on: the gctune build (version), the
// tolerance, the objective's settings and workloads as opened, and every finished trial. It is
// "" when version is: no key, nothing reused.
func RecommendationKey(prob *objective.Problem, trials []goptuna.FrozenTrial, tolerance float64, version string) string {
	if version == "" {
		return ""
	}
	type trialKey struct {
		Number int
		State  goptuna.TrialState
		Value  float64
		Attrs  map[string]string
	}
	type workloadKey struct {
		Name    string
		Records int
		End     uint64
	}
	k := struct {
		Version   string
		Tolerance float64
		Settings  objective.Settings
		Workloads []workloadKey
		Trials    []trialKey
	}{Version: version, Tolerance: tolerance, Settings: prob.Settings()}
	for _, w := range prob.Workloads() {
		k.Workloads = append(k.Workloads, workloadKey{w.Name, w.Profile.Len(), w.Profile.Meta.EndBytes})
	}
	for _, t := range trials {
		if t.State == goptuna.TrialStateComplete {
			k.Trials = append(k.Trials, trialKey{t.Number, t.State, t.Value, t.UserAttrs})
		}
	}
	b, err := json.Marshal(k)
	if err != nil {
		return "" // never matches: the recommendation is made again
	}
	sum := sha256.Sum256(append(b, recommendationFormat))
	return hex.EncodeToString(sum[:])
}

// recommendationFormat changes when the recommendation's rules change, so that a stored one
// made by the old rules is made again (a development build's version does not change).
const recommendationFormat = 5
