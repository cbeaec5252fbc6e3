package verify

import (
	"errors"
	"fmt"

	"github.com/gctune/gctune/costfit"
)

// ErrNoDefaultRun is returned by DefaultMeasurement when the latest verify session has no
// successful default run.
var ErrNoDefaultRun = errors.New("verify: no successful default run measured")

// DefaultMeasurement chooses, among the runs gctune verify stored in a study, the measurement
// gctune calibrate --from-study fits: the latest session's default runs, the mean of their
// gctune-stats figures when every run printed them, else the mean wall time of the processes
// (VM start-up included). Its Source says which: "verify session S, mean of N default runs
// (their gctune-stats figures)". ErrNoDefaultRun when no default run of the session succeeded.
func DefaultMeasurement(stored []MeasuredRun) (costfit.Measured, error) {
	samples, session := SamplesFromStored(stored, "")
	var def *ConfigSummary
	for _, cs := range Summarize(samples) {
		if cs.Name == DefaultName && cs.Runs > 0 {
			def = &cs
		}
	}
	if def == nil {
		return costfit.Measured{}, ErrNoDefaultRun
	}
	var m costfit.Measured
	from := fmt.Sprintf("verify session %s, mean of %d default runs", session, def.Runs)
	if def.Stats != nil {
		m = *def.Stats
		from += " (their gctune-stats figures)"
	} else {
		m = costfit.Measured{WallSeconds: def.MeanSeconds}
		from += " (process wall time, VM start-up included: print a gctune-stats line for better)"
	}
	m.Source = from
	return m, nil
}
