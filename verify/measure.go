package verify

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/gctune/gctune/trialstore"
)

// Recording says where Measure stores the runs as they finish.
type Recording struct {
	// Store and StudyID are the study the runs are stored in; a nil Store stores none.
	Store   *trialstore.Store
	StudyID int
	// Session identifies this verify invocation's runs; "" makes one
	// (NewMeasuredSession: now and the process ID).
	Session string
	// OnRun, when set, is called after each run that finished, before it is stored, with the
	// run as stored (its Seq counts from 0) and as it ran (for a progress line).
	OnRun func(stored MeasuredRun, r Run)
}

// Measurement is what Measure measured: the runs as stored, in order, and each
// configuration's summary with the measured speedup beside the predicted one.
type Measurement struct {
	Session  string
	Measured []MeasuredRun
	Configs  []ConfigSummary
	// Interrupted is set when the context was cancelled before the last run.
	Interrupted bool
	// Failed is the run that failed and stopped the session (its exit code or timeout), nil
	// when none did; the runs before it, and it, are stored.
	Failed *RunError
}

// Measure runs plan p with runner (Session), storing each run in the study as soon as it
// finishes (warm-ups and failures included; a cancelled context does not stop the store, the
// run finished), then sums up the session's runs (Summarize) and compares each configuration's
// measured speedup with its prediction (ComparePredicted). A run that failed is the
// Measurement's Failed, not an error; an error is a plan that is not valid, a command that
// cannot start (matching ErrStart) or a run that cannot be stored.
func Measure(ctx context.Context, p Plan, runner Runner, rec Recording) (Measurement, error) {
	m := Measurement{Session: rec.Session}
	if m.Session == "" {
		m.Session = NewMeasuredSession(time.Now(), os.Getpid())
	}
	predicted := make(map[string]float64, len(p.Configs))
	for _, c := range p.Configs {
		predicted[c.Name] = c.PredictedSpeedup
	}
	record := func(r Run) error {
		mr := r.Stored(m.Session, len(m.Measured), predicted[r.Config], p.Timeout)
		m.Measured = append(m.Measured, mr)
		if rec.OnRun != nil {
			rec.OnRun(mr, r)
		}
		if rec.Store == nil {
			return nil
		}
		return SaveMeasuredRun(rec.Store, rec.StudyID, mr)
	}
	_, interrupted, err := Session(ctx, p, runner, record)
	m.Interrupted = interrupted
	if err != nil && !errors.As(err, &m.Failed) {
		return m, err
	}
	samples, _ := SamplesFromStored(m.Measured, m.Session)
	m.Configs = Summarize(samples)
	ComparePredicted(m.Configs, p.Configs)
	return m, nil
}
