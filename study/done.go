package study

import (
	"fmt"
	"io"

	"github.com/c-bata/goptuna"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/search"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/trialstore"
)

// Done describes a study that holds its target of trials with none running: what resume says
// instead of running nothing and stating the result again as if it had run.
type Done struct {
	// Study is the study's name.
	Study string
	// Counted are the trials that count against the Target (search.Counted).
	Counted, Target int
	// Best is the search's fastest trial (trialattr.Best), nil when no trial is feasible.
	Best *goptuna.FrozenTrial
	// DefaultValue is the defaults' value on the search's runs; Seconds says the values are
	// seconds (one workload) rather than slowdowns.
	DefaultValue float64
	Seconds      bool
	// Recommendation is the recommendation stored with the study (StoredRecommendationFor),
	// the caller's to set; nil when none is current.
	Recommendation *recommend.Recommendation
	// Trials are the study's trials as stored, the ones it was found done on.
	Trials []goptuna.FrozenTrial
}

// Done reports whether study name's trials (all, as stored) hold the problem's target with
// none running (Finished), and describes it.
func (p *Problem) Done(name string, all []goptuna.FrozenTrial) (*Done, bool) {
	counted, ok := p.Finished(all)
	if !ok {
		return nil, false
	}
	d := &Done{Study: name, Counted: counted, Target: p.Trials, DefaultValue: p.DefaultValue, Seconds: p.Seconds(), Trials: all}
	if best, ok := trialattr.Best(all); ok {
		d.Best = &best
	}
	return d, true
}

// Hint says the study is finished and how to go on: --more N trials (half the target, at
// least 10), or --trials for a new total.
func (d *Done) Hint() string {
	return fmt.Sprintf("study %s is finished (%d of %d trials): to run more, gctune resume %s --more %d (or --trials N for a new total)",
		termtext.Quote(d.Study), d.Counted, d.Target, termtext.Shell(d.Study), max(d.Target/2, 10))
}

// WriteText writes that the study is finished (Hint), the recommendation's forecast (unless
// it keeps the defaults), the search's fastest trial in a line, and where the recommendation
// and its reasons are.
func (d *Done) WriteText(w io.Writer) error {
	ew := errwriter.New(w)
	ew.Printf("%s\n", d.Hint())
	if b := d.Best; b != nil && b.Value > 0 {
		if r := d.Recommendation; r != nil && !r.KeepDefaults {
			ew.Printf("recommended: trial %d, %s\n", r.Trial, r.Describe())
			for _, l := range r.ForecastLines(d.Seconds) {
				ew.Printf("  %s\n", l)
			}
		}
		if d.Seconds {
			ew.Printf("the search's fastest trial: trial %d, %s against %s with the defaults on the search's runs, %s faster\n",
				b.Number, numfmt.SecondsText(b.Value), numfmt.SecondsText(d.DefaultValue), numfmt.Speedup(d.DefaultValue/b.Value))
		} else {
			ew.Printf("the search's fastest trial: trial %d, %s faster than the defaults on the search's runs\n", b.Number, numfmt.Speedup(d.DefaultValue/b.Value))
		}
	}
	q := termtext.Shell(d.Study)
	ew.Printf("the recommendation: gctune export %s (why: gctune explain %s)\n", q, q)
	return ew.Err()
}

// Resume is resume's rule before it runs any trial of study name (ID id in store): asked for
// neither a new total (trials) nor more trials (more), a study that holds its target with none
// running is done, and Resume returns it (Done: resume states it instead of running nothing);
// otherwise the target asked for is set (SetTarget) and saved with the problem, and Resume
// returns nil.
func (p *Problem) Resume(store *trialstore.Store, id int, name string, trials, more int) (*Done, error) {
	all, err := store.Storage().GetAllTrials(id)
	if err != nil {
		return nil, err
	}
	if trials == 0 && more == 0 {
		if d, ok := p.Done(name, all); ok {
			return d, nil
		}
	}
	if p.SetTarget(trials, more, search.Counted(all)) {
		if err := SaveProblem(store, id, p); err != nil {
			return nil, err
		}
	}
	return nil, nil
}
