package study

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/tunable"
)

// Show is what `gctune studies show` states of a study: its problem, its progress, the
// search's fastest trial and the recommendation stored with it, as stored (a command that
// only reads a study never makes it again).
type Show struct {
	Study   string
	Storage string
	Problem *Problem
	// Trials counts every trial, Finished those the search counts as done (search.Finished).
	Trials, Finished int
	// BestTrial is the search's fastest feasible trial (trialattr.Best), nil before the first;
	// Best states it.
	BestTrial *goptuna.FrozenTrial
	Best      *Fastest
	// Recommendation is the one stored with the study by optimize or resume (nil before the
	// first finished); RecommendationError says why a stored one could not be read.
	Recommendation      *recommend.Recommendation
	RecommendationError string
}

// LoadShow reads what studies show states of study name (id in store, problem sp). A stored
// recommendation whose values are damaged is an error naming the study (they are never
// printed); one that cannot be read otherwise is the Show's RecommendationError.
func LoadShow(store *trialstore.Store, id int, name string, sp *Problem) (*Show, error) {
	trials, err := store.Storage().GetAllTrials(id)
	if err != nil {
		return nil, err
	}
	s := &Show{Study: name, Storage: store.URL(), Problem: sp, Finished: search.Finished(trials), Trials: len(trials)}
	if best, ok := trialattr.Best(trials); ok {
		s.BestTrial, s.Best = &best, NewFastest(best, sp.DefaultValue)
	}
	stored, err := LoadRecommendation(store, id)
	switch {
	case err == nil && stored.Recommendation != nil:
		s.Recommendation = stored.Recommendation
	case errors.Is(err, ErrDamagedRecord):
		return nil, fmt.Errorf("study %q: %w", name, NameStudy(err, name))
	case err != nil && !errors.Is(err, ErrNoDoc):
		s.RecommendationError = err.Error()
	}
	return s, nil
}

// Fastest is the search's fastest trial as studies show states it: its number, its speedup
// over the defaults on the search's runs, its configuration rounded as exported.
type Fastest struct {
	Number  int
	Speedup float64
	Point   tunable.Point
}

// NewFastest is trial t's Fastest against the study's default value.
func NewFastest(t goptuna.FrozenTrial, defaultValue float64) *Fastest {
	raw, _ := tunable.PointFromParams(t.Params)
	return &Fastest{Number: t.Number, Speedup: defaultValue / t.Value, Point: raw.Rounded()}
}

// WriteText writes d as gctune studies show prints it: the study and its database, each
// workload, the objective, the sampler and progress, the rules taken from the profile, the
// uncertainty model, the search's fastest trial, and the stored recommendation with its
// forecast, its moves and its margins (or why there is none).
func (d *Show) WriteText(w io.Writer) error {
	ew := errwriter.New(w)
	p := d.Problem
	ew.Printf("study %s in %s (created by gctune %s)\n", termtext.Quote(d.Study), d.Storage, p.Version)
	names := Names(p.Workloads)
	for i, wl := range p.Workloads {
		if names[i] != wl.Ref {
			ew.Printf("  workload %s: %s (%s, fingerprint %.12s)\n", wl.Ref, strings.TrimPrefix(strings.TrimPrefix(names[i], wl.Ref), ", "), wl.Kind, wl.Fingerprint)
			continue
		}
		ew.Printf("  workload %s (%s, fingerprint %.12s)\n", wl.Ref, wl.Kind, wl.Fingerprint)
	}
	budget := "none"
	if p.MaxFootprint > 0 {
		budget = fmt.Sprintf("%d bytes", p.MaxFootprint)
	}
	ew.Printf("  objective: total time (aggregate %s), memory budget %s\n", p.Aggregate, budget)
	ew.Printf("  sampler %s, seed %d, %d of %d trials finished (%d in all)\n", p.Sampler, p.Seed, d.Finished, p.Trials, d.Trials)
	var rules []string
	for _, r := range p.Plan.Rules {
		if k := r.Kind + " " + r.Name; !slices.Contains(rules, k) {
			rules = append(rules, k)
		}
	}
	if len(rules) > 0 {
		ew.Printf("  from the profile: %s\n", strings.Join(rules, "; "))
	}
	ew.Printf("  %s\n", p.UncertaintyText())
	if d.Best != nil {
		ew.Printf("  the search's fastest trial: trial %d, %s faster than the defaults on the search's runs\n    %s\n", d.Best.Number, numfmt.Speedup(d.Best.Speedup), recommend.DescribePoint(d.Best.Point))
	}
	if r := d.Recommendation; r != nil {
		verdict := "recommended"
		if r.KeepDefaults {
			verdict = "recommended: keep the VM defaults; the best would be"
		}
		ew.Printf("  %s (as stored by optimize or resume): trial %d, %s\n", verdict, r.Trial, r.Describe())
		for _, l := range r.ForecastLines(p.Seconds()) {
			ew.Printf("    %s\n", l)
		}
		if rb := r.Robust; rb != nil {
			for _, m := range rb.Moves {
				ew.Printf("    %s: %s %s → %s (%s)\n", m.Verb(), m.Label, tunable.FormatNamed(m.Param, m.From), tunable.FormatNamed(m.Param, m.To), m.Why)
			}
			for _, m := range rb.Margins {
				ew.Printf("    margin: %s %s may be %s before the run time rises by %s\n", m.Label, tunable.FormatNamed(m.Param, m.Value), recommend.MarginText(m), numfmt.PercentText(r.Tolerance))
			}
		}
	} else if d.RecommendationError != "" {
		ew.Printf("  the stored recommendation cannot be read (%s): gctune export or explain %s makes it again\n", d.RecommendationError, termtext.Quote(d.Study))
	} else if d.Best != nil {
		ew.Printf("  no recommendation stored with the study (optimize and resume store it; gctune export or explain %s makes it without storing it)\n", termtext.Quote(d.Study))
	}
	return ew.Err()
}

// UncertaintyText says what the study judges configurations on: its uncertainty model and
// statistic, or the single simulation.
func (p *Problem) UncertaintyText() string {
	m := p.Uncertainty
	if m.Off() {
		return "uncertainty: off (every configuration judged on the single simulation of the profile; no interval)"
	}
	per := "the search on the single simulation"
	if m.SearchReplicas > 0 {
		per = fmt.Sprintf("%d per search trial", m.SearchReplicas)
	}
	var parts []string
	if m.StartPhase {
		parts = append(parts, "start at a random point of the eden cycle")
	}
	if m.AllocationSpread > 0 {
		parts = append(parts, "allocation ±"+numfmt.PercentText(m.AllocationSpread))
	}
	if m.Phases > 1 && m.PhaseSpread > 0 {
		parts = append(parts, fmt.Sprintf("young garbage up to %s of a phase before each of %d phases", numfmt.PercentText(m.PhaseSpread), m.Phases))
	}
	if m.CostSigma > 0 {
		parts = append(parts, "cost factors σ "+numfmt.PercentText(m.CostSigma))
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing perturbed")
	}
	stat := cmp.Or(p.Statistic, "mean")
	s := fmt.Sprintf("uncertainty: %d perturbed runs (%s): %s; statistic %s", m.Replicas, per, strings.Join(parts, ", "), stat)
	if a := m.Again(); !a.Off() {
		s += fmt.Sprintf("; the forecast stated over %d %s (%s)", a.Replicas, a.Question().Words(), a.Assumes())
	}
	return s
}

// ShowDoc is `studies show --json`: the study, its problem and counts, the search's fastest
// trial, and the stored recommendation with its prediction.
type ShowDoc struct {
	Study    string   `json:"study"`
	Storage  string   `json:"storage"`
	Problem  *Problem `json:"problem"`
	Trials   int      `json:"trials"`
	Finished int      `json:"finished"`
	Best     *Best    `json:"best,omitempty"`
	// Recommendation is the one stored with the study by optimize or resume (absent before
	// the first finished); Prediction states its expected speedup with the interval.
	Recommendation *recommend.Recommendation `json:"recommendation,omitempty"`
	Prediction     *recommend.Prediction     `json:"prediction,omitempty"`
	// RecommendationError says why a stored recommendation could not be read (damaged).
	RecommendationError string `json:"recommendationError,omitempty"`
}

// Doc is s as `studies show --json` writes it.
func (s *Show) Doc() ShowDoc {
	d := ShowDoc{Study: s.Study, Storage: s.Storage, Problem: s.Problem, Trials: s.Trials, Finished: s.Finished,
		Recommendation: s.Recommendation, Prediction: s.Recommendation.Prediction(s.Problem.Seconds()),
		RecommendationError: s.RecommendationError}
	if s.BestTrial != nil {
		d.Best = NewBest(*s.BestTrial, s.Problem.DefaultValue)
	}
	return d
}

// WriteText writes d as `studies show` does (Show.WriteText), for a document read back.
func (d *ShowDoc) WriteText(w io.Writer) error {
	sh := Show{Study: d.Study, Storage: d.Storage, Problem: d.Problem, Trials: d.Trials, Finished: d.Finished,
		Recommendation: d.Recommendation, RecommendationError: d.RecommendationError}
	if b := d.Best; b != nil {
		sh.Best = &Fastest{Number: b.Number, Speedup: b.Speedup, Point: b.Point}
	}
	return sh.WriteText(w)
}
