package study

import (
	"fmt"
	"io"
	"math"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/termtext"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/trialstore"
)

// ListRow is one study in `studies list --json`.
type ListRow struct {
	Name      string            `json:"name"`
	Trials    trialstore.Counts `json:"trials"`
	Best      *float64          `json:"best,omitempty"`
	BestTrial *int              `json:"bestTrial,omitempty"`
	Created   string            `json:"created,omitempty"`
	Version   string            `json:"gctuneVersion,omitempty"`
}

// ListRows is the listing sums (trialstore.ListStudies) as rows: a best value that is NaN is
// left out, a creation time is written in RFC 3339.
func ListRows(sums []trialstore.Summary) []ListRow {
	rows := make([]ListRow, 0, len(sums))
	for _, s := range sums {
		r := ListRow{Name: s.Name, Trials: s.Trials, Version: s.Version}
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

// FastestSpeedups is each study's fastest trial's speedup over the defaults, as the search
// measured it (its value against the study's default value), NaN where it is not known (no
// trial yet, or a study gctune did not make): the one unit every study's best is stated in,
// whether its value is seconds or a slowdown.
func FastestSpeedups(store *trialstore.Store, sums []trialstore.Summary) []float64 {
	out := make([]float64, len(sums))
	for i, s := range sums {
		out[i] = math.NaN()
		if !s.HasBest || !trialattr.ValidValue(s.Best) {
			continue
		}
		if _, sp, err := Load(store, s.Name); err == nil && sp.DefaultValue > 0 {
			out[i] = sp.DefaultValue / s.Best
		}
	}
	return out
}

// WriteList writes the studies of the database at url as gctune studies list prints them: a
// line each with its trials by state and its fastest trial with speedups[i] (FastestSpeedups;
// NaN or missing: the trial alone).
func WriteList(w io.Writer, url string, sums []trialstore.Summary, speedups []float64) error {
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
		ew.Printf("%-32s  %8d  %8d  %7d  %6d  %s\n", termtext.Quote(s.Name), s.Trials.Complete, s.Trials.Running, s.Trials.Waiting, s.Trials.Fail, best)
	}
	return ew.Err()
}
