package report

import (
	"context"
	"fmt"
	"strings"

	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/study"
	"github.com/gctune/gctune/trialstore"
	"github.com/gctune/gctune/verify"
)

// LoadOptions say which of a study's configurations Load reads, and how.
type LoadOptions struct {
	// Study names the study; Version is the gctune build reading it.
	Study   string
	Version string
	// Choice is the recommendation (the zero Choice) or a trial as it is.
	Choice study.Choice
	// Settings are the recommendation's (its tolerance and the build's recommendation
	// version); a recommendation made now is not stored (Save is ignored).
	Settings study.RecommendationSettings
	// Reopen says how the study's workloads are opened again (--force, --clock, the
	// long-lived threshold).
	Reopen study.ReopenOptions
}

// Load reads study o.Study (id in store, problem sp) into a report's input: its trials, the
// runs gctune verify measured, its objective over its workloads opened again, and its answer
// to o.Choice (study.AnswerFor: the stored recommendation, else one made now and not stored,
// for explain and report only read a study; or the trial as it is, checked before any
// workload is read). The answer is returned beside the input. The input's Profiles are left
// to the caller, which says how each profile was read.
func Load(ctx context.Context, store *trialstore.Store, id int, sp *study.Problem, o LoadOptions) (Input, study.Answer, error) {
	name := o.Study
	trials, err := store.Storage().GetAllTrials(id)
	if err != nil {
		return Input{}, study.Answer{}, fmt.Errorf("study %q: %w", name, err)
	}
	in := Input{Study: name, Version: o.Version, Space: sp.ConfiguredSpace, Trial: -1, Trials: trials,
		Analysis:  lifetimes.AnalysisOptions{LongLivedThreshold: o.Reopen.LongLivedThreshold},
		Tolerance: o.Settings.Tolerance, Export: study.ExportMeta(store, id, name, sp, o.Version)}
	if o.Choice.HasTrial {
		// Checked before the profiles are read: a mistyped trial fails at once.
		if _, err := study.FindTrial(trials, name, o.Choice.Trial); err != nil {
			return Input{}, study.Answer{}, err
		}
		in.Trial = o.Choice.Trial
	}
	if in.Measured, err = verify.MeasuredRuns(store, id); err != nil {
		return Input{}, study.Answer{}, fmt.Errorf("study %q: %w", name, err)
	}
	if in.Problem, err = sp.ReopenObjective(o.Reopen); err != nil {
		return Input{}, study.Answer{}, err
	}
	s := o.Settings
	s.Save = false
	ans, err := study.AnswerFor(ctx, store, id, name, in.Problem, trials, o.Choice, s)
	if err != nil {
		return Input{}, study.Answer{}, err
	}
	in.Recommendation = ans.Recommendation
	return in, ans, nil
}

// WorkloadList names the problem's workloads for a sentence: "a, b", or for the readings of
// one sampled run "run.csv, read under 2 hypotheses".
func WorkloadList(prob *objective.Problem) string {
	ws := prob.Workloads()
	if prob.Runs() == 1 && len(ws) > 1 && ws[0].Run != "" {
		return fmt.Sprintf("%s, read under %d hypotheses", ws[0].Run, len(ws))
	}
	var names []string
	for _, w := range ws {
		names = append(names, w.Name)
	}
	return strings.Join(names, ", ")
}
