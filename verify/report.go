package verify

import (
	"fmt"
	"io"
	"strings"

	"github.com/gctune/gctune/internal/errwriter"
	"github.com/gctune/gctune/internal/numfmt"
	"github.com/gctune/gctune/internal/termtext"
)

// Report is what one gctune verify session measured, as the command states it: the
// study, the command, each configuration's summary with the measured speedup beside the
// predicted one, and every run as stored (`gctune verify --json`).
type Report struct {
	Study       string          `json:"study"`
	Storage     string          `json:"storage"`
	Session     string          `json:"session"`
	Command     []string        `json:"command"`
	Runs        int             `json:"runs"`
	Warmup      bool            `json:"warmup"`
	Interrupted bool            `json:"interrupted,omitempty"`
	Error       string          `json:"error,omitempty"`
	Configs     []ConfigSummary `json:"configs"`
	Measured    []MeasuredRun   `json:"measured"`
}

// NewReport is the report of m, plan p measured on study in the database at storage (its URL,
// password masked).
func NewReport(study, storage string, p Plan, m Measurement) Report {
	r := Report{Study: study, Storage: storage, Session: m.Session, Command: p.Argv, Runs: p.Runs,
		Warmup: p.Warmup, Interrupted: m.Interrupted, Configs: m.Configs, Measured: m.Measured}
	if m.Failed != nil {
		r.Error = m.Failed.Error()
	}
	return r
}

// TotalRuns is the runs plan p makes: every configuration once a round, and once more to warm
// up.
func (p Plan) TotalRuns() int {
	rounds := p.Runs
	if p.Warmup {
		rounds++
	}
	return len(p.Configs) * rounds
}

// WriteStart writes the line that opens a verify session's progress: the runs plan p makes of
// study, the command and the configurations.
func WriteStart(w io.Writer, study string, p Plan) error {
	names := make([]string, len(p.Configs))
	for i, c := range p.Configs {
		names[i] = c.Name
	}
	_, err := fmt.Fprintf(w, "verify %s: %d runs of %s (%s), %d rounds after one warm-up each\n", study, p.TotalRuns(),
		strings.Join(p.Argv, " "), strings.Join(names, ", "), p.Runs)
	return err
}

// WriteRunLine writes run r's progress line, the n-th of total: its round, its configuration,
// its wall time and, from its gctune-stats line, the time and GC time Pharo measured.
func WriteRunLine(w io.Writer, n, total int, r Run) error {
	round := fmt.Sprintf("round %d", r.Round+1)
	if r.Round < 0 {
		round = "warm-up"
	}
	note := ""
	if r.StatsErr != "" {
		note = "  (gctune-stats line unreadable: " + r.StatsErr + ")"
	} else if r.Measured != nil {
		if gc, ok := r.Measured.GC(); ok {
			note = fmt.Sprintf("  (in Pharo: %s, GC %s)", numfmt.SecondsText(r.Measured.WallSeconds), numfmt.SecondsText(gc))
		}
	}
	_, err := fmt.Fprintf(w, "  %d/%d %-8s %-10s %s%s\n", n, total, round, r.Config, numfmt.SecondsText(r.Wall.Seconds()), note)
	return err
}

// VerdictLine is Verdict with the configuration's name: "best: the measured speedup, 1.10×,
// lies in the predicted 0.99-1.36× (99 % of runs; 1.16× expected)"; "" without a predicted
// interval or a measured speedup.
func (c ConfigSummary) VerdictLine() string {
	v := c.Verdict()
	if v == "" {
		return ""
	}
	return c.Name + ": " + v
}

// WriteText writes the report as gctune verify prints it: the table of configurations (runs,
// mean, median, coefficient of variation, GC time, predicted and measured speedups), each
// verdict, a warning for runs that vary wildly, and where the runs are stored.
func (r *Report) WriteText(w io.Writer) error {
	ew := errwriter.New(w)
	state := ""
	if r.Interrupted {
		state = " (interrupted)"
	}
	ew.Printf("verified study %s%s: %s\n", r.Study, state, strings.Join(r.Command, " "))
	rows := r.rows()
	if len(rows) == 1 {
		rows = nil
		ew.Printf("no run measured\n")
	}
	wid := make([]int, 8)
	for _, row := range rows {
		for i, c := range row {
			wid[i] = max(wid[i], len([]rune(c)))
		}
	}
	for _, row := range rows {
		var cells []string
		for i, c := range row {
			if i == 0 || i == len(row)-1 {
				cells = append(cells, termtext.PadRight(c, wid[i]))
			} else {
				cells = append(cells, termtext.PadLeft(c, wid[i]))
			}
		}
		ew.Printf("%s\n", strings.TrimRight(strings.Join(cells, "  "), " "))
	}
	for _, c := range r.Configs {
		if line := c.VerdictLine(); line != "" {
			ew.Printf("%s\n", line)
		}
	}
	for _, c := range r.Configs {
		if c.Wild {
			ew.Printf("warning: the runs under %s vary wildly (coefficient of variation %s > %.0f %%): the machine is busy or the work is not the same from run to run; the speedup is uncertain\n",
				c.Name, numfmt.PercentText(c.CV), 100*WildCV)
		}
	}
	ew.Printf("stored %d run(s) in study %s (session %s): 'gctune report %s' shows them, 'gctune calibrate --from-study %s' fits the cost model on the default runs\n",
		len(r.Measured), r.Study, r.Session, r.Study, r.Study)
	return ew.Err()
}

// rows is the report's table: a header, then a row for each configuration that ran.
func (r *Report) rows() [][]string {
	predHead := "predicted"
	for _, c := range r.Configs {
		if c.PredictedInterval != nil {
			predHead = fmt.Sprintf("predicted (%s of runs)", numfmt.PercentText(c.PredictedInterval.Coverage))
		}
	}
	rows := [][]string{{"configuration", "runs", "mean", "median", "CV", "GC (Pharo)", predHead, "measured speedup (95 % t interval)"}}
	for _, c := range r.Configs {
		if c.Runs == 0 {
			continue
		}
		name := c.Name
		if c.Trial >= 0 && c.Name == BestName {
			name = fmt.Sprintf("best (trial %d)", c.Trial)
		}
		gc := "—"
		if c.Stats != nil {
			if v, ok := c.Stats.GC(); ok {
				gc = numfmt.SecondsText(v)
			}
		}
		pred, meas := "", ""
		if c.Name != DefaultName {
			pred = numfmt.Speedup(c.PredictedSpeedup)
			if iv := c.PredictedInterval; iv != nil {
				pred += " [" + numfmt.Range(iv.Lo, iv.Hi, numfmt.Speedup) + "]"
			}
			meas = "—"
			if sp := c.Speedup; sp != nil {
				meas = numfmt.Speedup(sp.Estimate)
				if sp.HasInterval() {
					meas += " [" + numfmt.Range(sp.Low, sp.High, numfmt.Speedup) + "]"
				} else {
					meas += " (one round: no interval)"
				}
			}
		}
		cv := "—"
		if c.Runs > 1 {
			cv = numfmt.PercentText(c.CV)
		}
		rows = append(rows, []string{name, fmt.Sprint(c.Runs), numfmt.SecondsText(c.MeanSeconds), numfmt.SecondsText(c.MedianSeconds), cv, gc, pred, meas})
	}
	return rows
}
