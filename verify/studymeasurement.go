package verify

import (
	"github.com/gctune/gctune/costfit"
	"github.com/gctune/gctune/trialstore"
)

// StudyMeasurement is the measurement gctune calibrate --from-study fits for study name (id in
// store): DefaultMeasurement of the runs gctune verify stored in it, its Source naming the
// study ("study df, verify session S, mean of 5 default runs ..."). An error matching
// ErrNoDefaultRun when no default run of the latest session succeeded.
func StudyMeasurement(store *trialstore.Store, id int, name string) (costfit.Measured, error) {
	stored, err := MeasuredRuns(store, id)
	if err != nil {
		return costfit.Measured{}, err
	}
	m, err := DefaultMeasurement(stored)
	if err != nil {
		return costfit.Measured{}, err
	}
	m.Source = "study " + name + ", " + m.Source
	return m, nil
}
