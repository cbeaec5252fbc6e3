package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/tunable"
)

// NewStudiesCmd returns `gctune studies` and its subcommands list, show and delete.
func NewStudiesCmd(ro *rootOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "studies",
		Short: "List, show or delete the studies in a database",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List the studies with their trial counts and best values",
		Args:  noArgs,
		RunE: ro.withConfig(func(cmd *cobra.Command, _ []string, cfg Config) error {
			store, err := openStoreReadOnly(cmd.Context(), cfg.Storage)
			if errors.Is(err, trialstore.ErrNoDatabase) {
				// Before the first study there is nothing to list, which is no error.
				if ro.json {
					return writeJSON(cmd.OutOrStdout(), []studyRow{})
				}
				_, err := fmt.Fprintf(cmd.OutOrStdout(), "no studies yet: gctune optimize will keep them in %s\n", quoteName(cfg.Storage))
				return err
			}
			if err != nil {
				return err
			}
			defer store.Close()
			sums, err := trialstore.ListStudies(store)
			if err != nil {
				return err
			}
			if ro.json {
				return writeJSON(cmd.OutOrStdout(), listDoc(sums))
			}
			return printStudies(cmd.OutOrStdout(), store.URL(), sums, fastestSpeedups(store, sums))
		}),
	}
	show := &cobra.Command{
		Use:         "show STUDY",
		Annotations: declare(argsStudy, nil, nil),
		Short:       "Show a study's problem, uncertainty model, progress, best trial and stored recommendation",
		Args:        exactArgs(1),
		RunE: ro.withStore(false, func(cmd *cobra.Command, args []string, store *trialstore.Store) error {
			id, sp, err := loadStudy(store, args[0])
			if err != nil {
				return err
			}
			trials, err := store.Storage().GetAllTrials(id)
			if err != nil {
				return err
			}
			doc := showDoc{Study: args[0], Storage: store.URL(), Problem: sp, Finished: search.Finished(trials), Trials: len(trials)}
			if best, ok := trialattr.Best(trials); ok {
				doc.Best = newBestDoc(best, sp.DefaultValue)
			}
			// The recommendation optimize or resume stored, as it is: a read-only command never
			// makes it again.
			if stored, err := study.LoadRecommendation(store, id); err == nil && stored.Recommendation != nil {
				doc.Recommendation = stored.Recommendation
				doc.Prediction = newPredictionDoc(stored.Recommendation, sp.Seconds())
			} else if errors.Is(err, study.ErrDamagedRecord) {
				return fmt.Errorf("study %q: %w", args[0], study.NameStudy(err, args[0])) // its values are never printed
			} else if err != nil && !errors.Is(err, study.ErrNoDoc) {
				doc.RecommendationError = err.Error()
			}
			if ro.json {
				return writeJSON(cmd.OutOrStdout(), doc)
			}
			return printShow(cmd.OutOrStdout(), &doc)
		}),
	}
	del := &cobra.Command{
		Use:         "delete STUDY",
		Annotations: declare(argsStudy, nil, nil),
		Short:       "Delete a study and all its trials",
		Args:        exactArgs(1),
		RunE: ro.withStore(true, func(cmd *cobra.Command, args []string, store *trialstore.Store) error {
			force, _ := cmd.Flags().GetBool("force")
			if err := trialstore.DeleteStudy(store, args[0], force); err != nil {
				if errors.Is(err, trialstore.ErrNoStudy) {
					err = suggestStudy(store, args[0], err)
				}
				return asUsage(err)
			}
			if ro.json {
				return writeJSON(cmd.OutOrStdout(), map[string]string{"deleted": args[0]})
			}
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "deleted study %s\n", quoteName(args[0]))
			return err
		}),
	}
	del.Flags().Bool("force", false, "delete even while trials run (their workers then fail)")
	for _, c := range []*cobra.Command{list, show, del} {
		addStorageFlag(c, storageUsage)
		cmd.AddCommand(c)
	}
	return cmd
}

// studyRow is one study in `studies list --json`.
type studyRow struct {
	Name      string            `json:"name"`
	Trials    trialstore.Counts `json:"trials"`
	Best      *float64          `json:"best,omitempty"`
	BestTrial *int              `json:"bestTrial,omitempty"`
	Created   string            `json:"created,omitempty"`
	Version   string            `json:"gctuneVersion,omitempty"`
}

func listDoc(sums []trialstore.Summary) []studyRow {
	rows := make([]studyRow, 0, len(sums))
	for _, s := range sums {
		r := studyRow{Name: s.Name, Trials: s.Trials, Version: s.Version}
		if !s.Created.IsZero() {
			r.Created = s.Created.Format("2006-01-02T15:04:05Z07:00")
		}
		if s.HasBest && !math.IsNaN(s.Best) {
			b, n := s.Best, s.BestNumber
			r.Best, r.BestTrial = &b, &n
		}
		rows = append(rows, r)
	}
	return rows
}

// fastestSpeedups is each study's fastest trial's speedup over the defaults, as the search
// measured it (its value against the study's default value), NaN where it is not known (no
// trial yet, or a study gctune did not make): the one unit every study's best is stated in,
// whether its value is seconds or a slowdown.
func fastestSpeedups(store *trialstore.Store, sums []trialstore.Summary) []float64 {
	out := make([]float64, len(sums))
	for i, s := range sums {
		out[i] = math.NaN()
		if !s.HasBest || !trialattr.ValidValue(s.Best) {
			continue
		}
		if _, sp, err := study.Load(store, s.Name); err == nil && sp.DefaultValue > 0 {
			out[i] = sp.DefaultValue / s.Best
		}
	}
	return out
}

func printStudies(w io.Writer, url string, sums []trialstore.Summary, speedups []float64) error {
	ew := errwriter.New(w)
	if len(sums) == 0 {
		ew.Printf("no studies in %s\n", url)
		return ew.Err()
	}
	ew.Printf("%-32s  %8s  %8s  %7s  %6s  %s\n", "study", "complete", "running", "waiting", "failed", "fastest trial (speedup over the defaults, as the search measured it)")
	for i, s := range sums {
		best := "-"
		if s.HasBest {
			best = fmt.Sprintf("#%d", s.BestNumber)
			if i < len(speedups) && !math.IsNaN(speedups[i]) {
				best += ": " + numfmt.Speedup(speedups[i])
			}
		}
		ew.Printf("%-32s  %8d  %8d  %7d  %6d  %s\n", quoteName(s.Name), s.Trials.Complete, s.Trials.Running, s.Trials.Waiting, s.Trials.Fail, best)
	}
	return ew.Err()
}

// showDoc is `studies show --json`.
type showDoc struct {
	Study    string         `json:"study"`
	Storage  string         `json:"storage"`
	Problem  *study.Problem `json:"problem"`
	Trials   int            `json:"trials"`
	Finished int            `json:"finished"`
	Best     *bestDoc       `json:"best,omitempty"`
	// Recommendation is the one stored with the study by optimize or resume (absent before
	// the first finished); Prediction states its expected speedup with the interval.
	Recommendation *recommend.Recommendation `json:"recommendation,omitempty"`
	Prediction     *predictionDoc            `json:"prediction,omitempty"`
	// RecommendationError says why a stored recommendation could not be read (damaged).
	RecommendationError string `json:"recommendationError,omitempty"`
}

func printShow(w io.Writer, d *showDoc) error {
	ew := errwriter.New(w)
	p := d.Problem
	ew.Printf("study %s in %s (created by gctune %s)\n", quoteName(d.Study), d.Storage, p.Version)
	names := study.Names(p.Workloads)
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
	ew.Printf("  %s\n", uncertaintyText(p))
	if d.Best != nil {
		ew.Printf("  the search's fastest trial: trial %d, %s faster than the defaults on the search's runs\n    %s\n", d.Best.Number, numfmt.Speedup(d.Best.Speedup), describePoint(d.Best.Point))
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
		ew.Printf("  the stored recommendation cannot be read (%s): gctune export or explain %s makes it again\n", d.RecommendationError, quoteName(d.Study))
	} else if d.Best != nil {
		ew.Printf("  no recommendation stored with the study (optimize and resume store it; gctune export or explain %s makes it without storing it)\n", quoteName(d.Study))
	}
	return ew.Err()
}

// uncertaintyText says what the study judges configurations on: its uncertainty model and
// statistic, or the single simulation.
func uncertaintyText(p *study.Problem) string {
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
